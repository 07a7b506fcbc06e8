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
