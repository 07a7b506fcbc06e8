/**
 * The concurrency-limit layer: at most `limit` attempts of one backend in flight at once. Below the
 * retries, so each attempt takes its own permit and gives it back before backing off; above the
 * attempt timeout, so time spent queueing never counts against an attempt.
 */
import type { ChatBackendMiddleware } from "./chat-backend-middleware.ts";
import { Semaphore } from "./resilience.ts";

/**
 * Holds a permit of a {@link Semaphore} of `limit` for each call passing through; a caller's abort
 * stops the wait with the signal's reason.
 * @throws AnamnesisError (INVALID_ARGUMENT) when `limit` is not a positive integer.
 */
export function withConcurrencyLimit(limit: number): ChatBackendMiddleware {
  const semaphore = new Semaphore(limit);
  return {
    async wrapCall({ call, next }) {
      const release = await semaphore.acquire(call.options.signal);
      try {
        return await next(call);
      } finally {
        release();
      }
    },
  };
}
