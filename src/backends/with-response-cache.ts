/**
 * The response-cache layer: a request answered before is answered from disk (response-cache.ts) without
 * reaching the layers below — no retries, no concurrency permit, no timeout. A request answered by the
 * model is stored with its usage and latency; failures are never stored.
 */
import type { CallLayerOptions, CallResult, ChatBackendMiddleware, ModelCall } from "./chat-backend-middleware.ts";
import { cacheKey, type CacheKeyParts, type ResponseCache } from "./response-cache.ts";

/** The key's operation: generate, object and repair requests are all completions, keyed alike. */
function keyOperation(operation: ModelCall<unknown>["operation"]): CacheKeyParts["operation"] {
  return operation === "embed" || operation === "logprobs" || operation === "loglikelihood" ? operation : "complete";
}

/** Answers from `cache` what it holds and stores what the model answers; a call with `noCache` passes by it. */
export function withResponseCache(cache: ResponseCache): ChatBackendMiddleware {
  return {
    async wrapCall<T>({ call, next, driver }: CallLayerOptions<T>): Promise<CallResult<T>> {
      if (call.options.noCache) return next(call);
      const { provider, model, endpoint, parameters } = driver;
      const key = cacheKey({
        operation: keyOperation(call.operation),
        provider,
        model,
        endpoint,
        parameters,
        request: call.request,
      });
      const hit = await cache.get<T>(key);
      if (hit) return { value: hit.value, usage: hit.usage, latencyMs: hit.latencyMs, cached: true, attempts: 0 };
      const result = await next(call);
      await cache.set(key, { value: result.value, usage: result.usage, latencyMs: result.latencyMs });
      return result;
    },
  };
}
