/**
 * The structured-output repair layer: a reply that is not JSON or not the schema gets one repair
 * request, which shows the model its reply and the problems with their paths (structured.ts). If the
 * repaired reply fails too, the result falls back to the format error with the raw text kept: bad
 * output is an outcome to count and score, never a throw.
 */
import type { ChatBackendMiddleware } from "./chat-backend-middleware.ts";
import type { TokenUsage } from "./spec.ts";
import { repairMessages } from "./structured.ts";

function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
}

/** One repair request after an invalid structured reply; the result sums both requests' usage and latency. */
export function withStructuredOutputRepair(): ChatBackendMiddleware {
  return {
    async wrapGenerateObject({ request, next }) {
      const first = await next(request);
      if (first.formatError === undefined) return first;
      const second = await next({
        ...request,
        operation: "repair",
        messages: repairMessages(request.messages, first.raw, first.formatError),
      });
      const totals = {
        raw: second.raw,
        usage: addUsage(first.usage, second.usage),
        latencyMs: first.latencyMs + second.latencyMs,
        cached: first.cached && second.cached,
        repaired: true,
      };
      return second.formatError === undefined
        ? { ...totals, object: second.object }
        : { ...totals, object: null, formatError: second.formatError };
    },
  };
}
