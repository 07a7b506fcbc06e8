import { closeSync, createReadStream, openSync, readFileSync, readSync, statSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { resolve } from "node:path";
import type { Readable } from "node:stream";
import { AnamnesisError } from "../foundation/errors.ts";

/**
 * Where a command reads a file a user names, `-` means standard input (`… | anamnesis metrics pairs
 * --input -`). One helper so that every such option treats `-`, a missing file and a directory alike:
 * a missing file, a directory given as a file, an output folder given as a file each get one clear
 * message naming the path, and files are read line by line in chunks (a whole-file string is capped
 * near 512 MiB by V8).
 */

/** The name that stands for standard input. */
export const STANDARD_INPUT = "-";

/** Whether a path names standard input. */
export function isStandardInput(path: string): boolean {
  return path === STANDARD_INPUT;
}

/** The path resolved against the working directory, `-` left as it is. */
export function resolveInputPath(path: string): string {
  return isStandardInput(path) ? path : resolve(path);
}

/** How error messages name an input: the path, or `standard input`. */
export function inputName(path: string): string {
  return isStandardInput(path) ? "standard input" : path;
}

/** The UTF-8 byte-order mark, as decoded: invisible in an error message, so it is stripped. */
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


/**
 * The whole text of a file, or of standard input for `-`.
 * @param what the input in words, for the error when the file is missing ("predictions file").
 */
export function readInputText(path: string, what: string): string {
  if (isStandardInput(path)) return readFileSync(process.stdin.fd, "utf8");
  checkInputFile(path, what);
  return readFileSync(path, "utf8");
}

/**
 * A stream of a file's bytes, or of standard input for `-`, for readers that go line by line instead
 * of holding the whole text. A missing file fails here, before anything is read.
 */
export function openInput(path: string, what: string): Readable {
  if (isStandardInput(path)) return process.stdin;
  checkInputFile(path, what);
  return createReadStream(path);
}

const CHUNK_BYTES = 1 << 20;
/** What a reader blocks on for a moment while a non-blocking standard input has nothing yet. */
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * Reads up to a buffer's length from a file descriptor; 0 at the end. A pipe on standard input may be
 * non-blocking (when the parent made it so): then "nothing yet" (EAGAIN) waits 5 ms and reads again.
 */
function readChunk(fd: number, buffer: Buffer): number {
  for (;;) {
    try {
      return readSync(fd, buffer, 0, buffer.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EOF") return 0;
      if (code !== "EAGAIN") throw error;
      Atomics.wait(PAUSE, 0, 0, 5);
    }
  }
}

/**
 * Calls `onLine(text, lineNumber)` for each line of a UTF-8 file, or of standard input for `-` (1-based
 * numbers; `\r\n` endings and a leading byte-order mark removed), reading 1 MiB at a time, so that
 * neither a large file nor a long pipe is ever held whole. Returns the number of lines.
 */
export function forEachLine(path: string, what: string, onLine: (text: string, line: number) => void): number {
  const standardInput = isStandardInput(path);
  if (!standardInput) checkInputFile(path, what);
  // File descriptor 0 itself, not process.stdin, which would switch a pipe to non-blocking mode.
  const file = standardInput ? 0 : openSync(path, "r");
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
    for (let read = readChunk(file, buffer); read > 0; read = readChunk(file, buffer)) {
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
    if (!standardInput) closeSync(file);
  }
  return line;
}
