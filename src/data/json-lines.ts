import { AnamnesisError } from "../foundation/errors.ts";
import { forEachLine, inputName } from "./input-file.ts";

/**
 * Calls `onValue` with each JSON value of a JSON Lines file as it is read (blank lines skipped; a
 * leading byte-order mark accepted), so a file of any size streams and a bad line stops the read where
 * it is. Errors name the file and the 1-based line; a file with no lines at all is an error.
 */
export function streamJsonLines(path: string, what: string, onValue: (value: unknown, line: number) => void): number {
  let values = 0;
  forEachLine(path, what, (text, line) => {
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new AnamnesisError("INVALID_JSON", `${inputName(path)}:${line}: not valid JSON (${visible((error as Error).message)})`);
    }
    values += 1;
    onValue(value, line);
  });
  if (values === 0) throw new AnamnesisError("INVALID_DATA", `${what} ${inputName(path)} is empty: no JSON lines to read`);
  return values;
}

/**
 * JSON Lines files, as predictions and pair files are written: one JSON value per line, blank lines
 * ignored. Errors name the file and the 1-based line.
 */
export function readJsonLines(path: string, what: string): Array<{ line: number; value: unknown }> {
  const rows: Array<{ line: number; value: unknown }> = [];
  streamJsonLines(path, what, (value, line) => rows.push({ line, value }));
  return rows;
}

/** The values of JSON Lines text; `source` names it in errors (`source:line: not valid JSON`). */
export function parseJsonLines(text: string, source: string): Array<{ line: number; value: unknown }> {
  const rows: Array<{ line: number; value: unknown }> = [];
  text
    .replace(/^\ufeff/, "")
    .split("\n")
    .forEach((text, index) => {
      if (text.trim() === "") return;
      try {
        rows.push({ line: index + 1, value: JSON.parse(text) });
      } catch (error) {
        throw new AnamnesisError("INVALID_JSON", `${source}:${index + 1}: not valid JSON (${visible((error as Error).message)})`);
      }
    });
  return rows;
}

/** Invisible and control characters written as `U+XXXX`, so a message never hides what it is about. */
export function visible(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\ufeff]/g, (character) => `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`);
}

/**
 * JSON text with NaN and ±Infinity as null: JSON has no NaN (Python's json would write `NaN`).
 * JSON.stringify writes non-finite numbers as null itself; no replacer, which would cost a call per
 * value (a tenth of `metrics pairs`).
 */
export function toJsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, undefined, indent);
}
