/**
 * Typed errors. Every error a user can cause carries a stable `code`; the CLI prints `message` on one
 * line and exits with 2, so no stack trace ever reaches a user for bad input.
 */
export type AnamnesisErrorCode =
  | "INVALID_ARGUMENT"
  | "FILE_NOT_FOUND"
  | "INVALID_JSON"
  | "INVALID_DATA"
  | "UNKNOWN_DIALOGUE"
  | "UNKNOWN_TURN"
  | "UNKNOWN_SPLIT"
  | "NO_SUCH_MODEL"
  | "BACKEND_ERROR";

/** An error a user can cause (bad input, unknown model, unreachable backend): a stable `code` and a one-line `message`. */
export class AnamnesisError extends Error {
  readonly code: AnamnesisErrorCode;

  constructor(code: AnamnesisErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = "AnamnesisError";
  }
}

/** True for errors the user caused (bad flags, files, data) rather than bugs in Anamnesis. */
export function isAnamnesisError(error: unknown): error is AnamnesisError {
  return error instanceof AnamnesisError;
}
