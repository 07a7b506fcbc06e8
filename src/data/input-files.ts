import { closeSync, openSync, readSync, statSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { AnamnesisError } from "../errors.ts";

/**
 * Input files checked before they are read, and read line by line: a missing file, a directory given
 * as a file, an empty file or a byte-order mark each get one clear message naming the file, and a file
 * of any size is read in chunks (a whole-file string is capped near 512 MiB by V8).
 */

/** The UTF-8 byte-order mark, as decoded: invisible in an error message, so it is stripped or named. */
export const BYTE_ORDER_MARK = "\ufeff";

/** Throws one clear error unless `path` is an existing regular file. */
export function checkInputFile(path: string, what: string): void {
  let stats;
  try {
    stats = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new AnamnesisError("FILE_NOT_FOUND", `${what} not found: ${path}`);
    throw new AnamnesisError("INVALID_ARGUMENT", `${what} ${path} cannot be read (${code ?? (error as Error).message})`);
  }
  if (stats.isDirectory()) throw new AnamnesisError("INVALID_ARGUMENT", `${what} ${path} is a directory, not a file`);
}

/** Throws one clear error when `path` exists and is not a directory (an output folder given as a file). */
export function checkOutputDirectory(path: string, flag: string): void {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return;
  }
  if (!stats.isDirectory()) throw new AnamnesisError("INVALID_ARGUMENT", `${flag} ${path} is a file, not a directory`);
}

const CHUNK_BYTES = 1 << 20;

/**
 * Calls `onLine(text, lineNumber)` for each line of a UTF-8 file (1-based numbers; `\r\n` endings and a
 * leading byte-order mark removed), reading 1 MiB at a time. Returns the number of lines.
 */
export function forEachLine(path: string, what: string, onLine: (text: string, line: number) => void): number {
  checkInputFile(path, what);
  const file = openSync(path, "r");
  const decoder = new StringDecoder("utf8");
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let pending = "";
  let line = 0;
  const emit = (text: string) => {
    line += 1;
    const withoutBom = line === 1 && text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
    onLine(withoutBom.endsWith("\r") ? withoutBom.slice(0, -1) : withoutBom, line);
  };
  try {
    for (let read = readSync(file, buffer, 0, CHUNK_BYTES, null); read > 0; read = readSync(file, buffer, 0, CHUNK_BYTES, null)) {
      pending += decoder.write(buffer.subarray(0, read));
      let start = 0;
      for (let end = pending.indexOf("\n"); end !== -1; end = pending.indexOf("\n", start)) {
        emit(pending.slice(start, end));
        start = end + 1;
      }
      pending = pending.slice(start);
    }
    pending += decoder.end();
    if (pending !== "") emit(pending);
  } finally {
    closeSync(file);
  }
  return line;
}
