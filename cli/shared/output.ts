import { toJsonText } from "../../src/data/json-lines.ts";

// The runner shapes its tables itself (eval/terminal-table.ts); the other commands use the same helpers.
export { formatTable } from "../../eval/shared/terminal-table.ts";

/** Writes JSON on stdout (NaN and ±Infinity as null). */
export function printJson(value: unknown): void {
  process.stdout.write(`${toJsonText(value, 2)}\n`);
}
