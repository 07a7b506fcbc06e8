import { AnamnesisError } from "../foundation/errors.ts";

/** A backend id that names no usable model (malformed id, missing model file, engine not installed). */
export class NoSuchModelError extends AnamnesisError {
  readonly modelId: string;

  constructor(modelId: string, message: string, options?: { cause?: unknown }) {
    super("NO_SUCH_MODEL", message, options);
    this.name = "NoSuchModelError";
    this.modelId = modelId;
  }
}

/** A backend id whose `provider:` part is not registered. */
export class NoSuchProviderError extends NoSuchModelError {
  readonly providerId: string;
  readonly availableProviders: readonly string[];

  constructor(modelId: string, providerId: string, availableProviders: readonly string[], usage: string) {
    super(modelId, `no such backend provider "${providerId}" in "${modelId}"; available: ${usage}`);
    this.name = "NoSuchProviderError";
    this.providerId = providerId;
    this.availableProviders = availableProviders;
  }
}

/** A request that failed for good (after retries): names the backend, the endpoint and the cause. */
export function backendError(backendId: string, endpoint: string, detail: string, cause?: unknown): AnamnesisError {
  return new AnamnesisError("BACKEND_ERROR", `backend ${backendId} at ${endpoint}: ${detail}`, { cause });
}

/** A 200 answer that is not the protocol's: not retried (a server answering garbage keeps doing so). */
export class MalformedAnswerError extends Error {
  override readonly name = "MalformedAnswerError";
}

/**
 * An HTTP error answer from a model server (status 400 and above). The retries layer reads `status`
 * and `headers` (`Retry-After`, `retry-after-ms`) through `classifyFailure` (resilience.ts): 408, 409, 429 and
 * 5xx are retried, other statuses end the request.
 */
export class ApiCallError extends Error {
  override readonly name = "ApiCallError";
  readonly status: number;
  readonly headers: Headers;
  /** The answer's body as sent (for the server's own error details). */
  readonly responseBody: string;

  constructor(message: string, status: number, headers: Headers, responseBody: string) {
    super(message);
    this.status = status;
    this.headers = headers;
    this.responseBody = responseBody;
  }
}

/**
 * A request that got no answer: the connection was refused, reset or dropped. Retried; the socket
 * error (`ECONNREFUSED`, …) is its `cause` and names the failure.
 */
export class ApiConnectionError extends Error {
  override readonly name = "ApiConnectionError";

  constructor(cause: unknown) {
    super("Connection error.", { cause });
  }
}
