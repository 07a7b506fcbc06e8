import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { Readable } from "node:stream";
import { AnamnesisError } from "../errors.ts";

/**
 * Where a command reads a file a user names, `-` means standard input (`… | anamnesis metrics pairs
 * --input -`). One helper so that every such option treats `-`, a missing file and a directory alike.
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

function checkReadableFile(path: string, what: string): void {
  if (!existsSync(path)) throw new AnamnesisError("FILE_NOT_FOUND", `${what} not found: ${path}`);
  if (statSync(path).isDirectory()) throw new AnamnesisError("INVALID_ARGUMENT", `${what} must be a file, not a directory: ${path}`);
}

/**
 * The whole text of a file, or of standard input for `-`.
 * @param what the input in words, for the error when the file is missing ("predictions file").
 */
export function readInputText(path: string, what: string): string {
  if (isStandardInput(path)) return readFileSync(process.stdin.fd, "utf8");
  checkReadableFile(path, what);
  return readFileSync(path, "utf8");
}

/**
 * A stream of a file's bytes, or of standard input for `-`, for readers that go line by line instead
 * of holding the whole text. A missing file fails here, before anything is read.
 */
export function openInput(path: string, what: string): Readable {
  if (isStandardInput(path)) return process.stdin;
  checkReadableFile(path, what);
  return createReadStream(path);
}
