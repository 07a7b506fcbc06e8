import { AnamnesisError } from "../errors.ts";
import { inputName, readInputText } from "./input-file.ts";

/**
 * JSON Lines files, as predictions and pair files are written: one JSON value per line, blank lines
 * ignored. Errors name the file and the 1-based line.
 */
export function readJsonLines(path: string, what: string): Array<{ line: number; value: unknown }> {
  return parseJsonLines(readInputText(path, what), inputName(path));
}

/** The values of JSON Lines text; `source` names it in errors (`source:line: not valid JSON`). */
export function parseJsonLines(text: string, source: string): Array<{ line: number; value: unknown }> {
  const rows: Array<{ line: number; value: unknown }> = [];
  text
    .split("\n")
    .forEach((text, index) => {
      if (text.trim() === "") return;
      try {
        rows.push({ line: index + 1, value: JSON.parse(text) });
      } catch (error) {
        throw new AnamnesisError("INVALID_JSON", `${source}:${index + 1}: not valid JSON (${(error as Error).message})`);
      }
    });
  return rows;
}

/**
 * JSON text with NaN and ±Infinity as null: JSON has no NaN (Python's json would write `NaN`).
 * JSON.stringify writes non-finite numbers as null itself; no replacer, which would cost a call per
 * value (a tenth of `metrics pairs`).
 */
export function toJsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, undefined, indent);
}
