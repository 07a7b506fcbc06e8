/** An API error: its HTTP status and the `{"error": {"code", "message"}}` the client gets. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds to wait before trying again (sent as `Retry-After`). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
