import { AnamnesisError } from "../../src/foundation/errors.ts";

/** A flag's value as a positive integer (undefined when the flag was not given); anything else is one clear error line. */
export function positiveInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new AnamnesisError("INVALID_ARGUMENT", `${flag} must be a positive integer (got '${value}')`);
  return number;
}
