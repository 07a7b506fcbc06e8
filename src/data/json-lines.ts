import { existsSync, readFileSync } from "node:fs";
import { AnamnesisError } from "../errors.ts";

/**
 * JSON Lines files, as predictions and pair files are written: one JSON value per line, blank lines
 * ignored. Errors name the file and the 1-based line.
 */
export function readJsonLines(path: string, what: string): Array<{ line: number; value: unknown }> {
  if (!existsSync(path)) throw new AnamnesisError("FILE_NOT_FOUND", `${what} not found: ${path}`);
  const rows: Array<{ line: number; value: unknown }> = [];
  readFileSync(path, "utf8")
    .split("\n")
    .forEach((text, index) => {
      if (text.trim() === "") return;
      try {
        rows.push({ line: index + 1, value: JSON.parse(text) });
      } catch (error) {
        throw new AnamnesisError("INVALID_JSON", `${path}:${index + 1}: not valid JSON (${(error as Error).message})`);
      }
    });
  return rows;
}

/** JSON text with NaN and ±Infinity as null: JSON has no NaN (Python's json would write `NaN`). */
export function toJsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, (_key, item) => (typeof item === "number" && !Number.isFinite(item) ? null : item), indent);
}
