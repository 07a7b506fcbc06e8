/**
 * The attempt-timeout layer: each attempt that reaches it gets its own signal, aborted when the caller
 * aborts or when the attempt has had no answer for `timeoutMs`. A timed-out attempt fails with an
 * {@link AttemptTimeoutError}, which the retries layer treats like a 503. Below the concurrency limit,
 * so the clock starts when the attempt holds its permit.
 */
import type { CallLayerOptions, CallResult, ChatBackendMiddleware } from "./chat-backend-middleware.ts";
import { raceWithSignal } from "./resilience.ts";

/** Per-attempt timeout when none is configured. Generous, because local models can be slow. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** An attempt that had no answer within its timeout; `cause` is how the attempt itself ended. */
export class AttemptTimeoutError extends Error {
  readonly timeoutMs: number;

  constructor(timeoutMs: number, options?: { cause?: unknown }) {
    super(`no response within ${timeoutMs} ms (timeout)`, options);
    this.name = "AttemptTimeoutError";
    this.timeoutMs = timeoutMs;
  }
}

/**
 * Ends each attempt after `timeoutMs` (a call's own `timeoutMs` wins; 0 or less: no timeout). The
 * caller's abort ends the attempt too, and rejects with the caller's reason.
 */
export function withAttemptTimeout(timeoutMs: number = DEFAULT_TIMEOUT_MS): ChatBackendMiddleware {
  return {
    async wrapCall<T>({ call, next }: CallLayerOptions<T>): Promise<CallResult<T>> {
      const caller = call.options.signal;
      caller?.throwIfAborted();
      const limit = call.options.timeoutMs ?? timeoutMs;
      const attempt = new AbortController();
      let timedOut = false;
      const onCallerAbort = () => attempt.abort(caller?.reason);
      caller?.addEventListener("abort", onCallerAbort, { once: true });
      const timer =
        limit > 0
          ? setTimeout(() => {
              timedOut = true;
              attempt.abort(new Error(`no response within ${limit} ms`));
            }, limit)
          : undefined;
      try {
        return await raceWithSignal(
          next({ ...call, options: { ...call.options, signal: attempt.signal } }),
          attempt.signal,
        );
      } catch (error) {
        if (caller?.aborted) throw caller.reason;
        throw timedOut ? new AttemptTimeoutError(limit, { cause: error }) : error;
      } finally {
        clearTimeout(timer);
        caller?.removeEventListener("abort", onCallerAbort);
      }
    },
  };
}
