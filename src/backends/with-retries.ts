/**
 * The retries layer: a failed attempt is classified (the driver's `classifyError`, else
 * {@link classifyFailure}: HTTP status, socket codes, timeouts) and a retryable one is sent again
 * after a backoff with full jitter, or after exactly the wait a `Retry-After` asks for. A request that
 * fails for good becomes one BACKEND_ERROR naming the backend, its endpoint and the last failure, with
 * secrets (the API key) blanked out. Above the concurrency limit: every retry queues for a permit
 * again, and nobody holds one while backing off.
 */
import type { CallLayerOptions, CallResult, ChatBackendMiddleware, LayerContext } from "./chat-backend-middleware.ts";
import { backendError } from "./errors.ts";
import { DEFAULT_RETRY_POLICY, classifyFailure, sleep, type RetryPolicy } from "./resilience.ts";
import type { FailureInfo } from "./spec.ts";
import { AttemptTimeoutError } from "./with-attempt-timeout.ts";

/** Options of {@link withRetries}. */
export interface RetryOptions {
  /** Default: {@link DEFAULT_RETRY_POLICY}. */
  readonly policy?: RetryPolicy;
  /** Strings to blank out of the final error (the API key). */
  readonly secrets?: readonly string[];
  /** Told of every retry before its wait (tests, progress). */
  readonly onRetry?: (event: { attempt: number; delayMs: number; failure: FailureInfo }) => void;
  /** The jitter's source of randomness, uniform in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
}

/** Replaces every occurrence of a secret (API key) in a message. */
function redactor(secrets: readonly string[]): (text: string) => string {
  const real = secrets.filter((secret) => secret.length >= 4);
  return (text) => real.reduce((out, secret) => out.split(secret).join("***"), text);
}

/** Why an attempt failed, and the error to name as the final error's cause. */
function classifyAttempt(error: unknown, driver: LayerContext["driver"]): { failure: FailureInfo; cause: unknown } {
  // A timeout is retryable whatever the driver says about its other errors.
  if (error instanceof AttemptTimeoutError)
    return { failure: { retryable: true, description: error.message }, cause: error.cause };
  return { failure: driver.classifyError?.(error) ?? classifyFailure(error), cause: error };
}

/** The failure to give up with after `attempts`, or undefined to try again. */
function finalFailure(failure: FailureInfo, attempts: number, policy: RetryPolicy): FailureInfo | undefined {
  if (!failure.retryable || attempts > policy.maxRetries) return failure;
  if (failure.retryAfterMs !== undefined && failure.retryAfterMs > policy.maxRetryAfterMs) {
    return {
      ...failure,
      description: `${failure.description} (server asked to wait ${Math.ceil(failure.retryAfterMs / 1000)} s)`,
    };
  }
  return undefined;
}

/**
 * Sends a call again after a retryable failure, up to `policy.maxRetries` times; the caller's abort
 * stops the retries (and a backoff) with the signal's reason.
 */
export function withRetries(options: RetryOptions = {}): ChatBackendMiddleware {
  const policy = options.policy ?? DEFAULT_RETRY_POLICY;
  const redact = redactor(options.secrets ?? []);
  const random = options.random ?? Math.random;
  /** The error a request that fails for good throws: one line, no secret, and no cause that holds one. */
  const giveUp = (
    { backendId, driver }: LayerContext,
    failure: FailureInfo,
    attempts: number,
    cause: unknown,
  ): Error => {
    const detail = attempts > 1 ? `${failure.description} (gave up after ${attempts} attempts)` : failure.description;
    // A server may echo the key back (e.g. "Incorrect API key provided: sk-…"): drop such a cause.
    const causeText = cause instanceof Error ? cause.message : String(cause);
    return backendError(
      backendId,
      driver.endpoint,
      redact(detail),
      redact(causeText) === causeText ? cause : undefined,
    );
  };
  return {
    async wrapCall<T>(layer: CallLayerOptions<T>): Promise<CallResult<T>> {
      const { call, next } = layer;
      const signal = call.options.signal;
      for (let attempt = 1; ; attempt++) {
        let failed: { failure: FailureInfo; cause: unknown };
        try {
          const result = await next(call);
          return { ...result, attempts: result.attempts + attempt - 1 };
        } catch (error) {
          if (signal?.aborted) throw signal.reason;
          failed = classifyAttempt(error, layer.driver);
        }
        const final = finalFailure(failed.failure, attempt, policy);
        if (final) throw giveUp(layer, final, attempt, failed.cause);
        const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
        const delayMs = failed.failure.retryAfterMs ?? Math.round(random() * ceiling);
        options.onRetry?.({ attempt, delayMs, failure: failed.failure });
        await sleep(delayMs, signal);
      }
    },
  };
}
