/**
 * The usage-records layer: every request that comes back (from the model or the response cache) is
 * recorded with its usage, latency and attempts, and every `generateObject` with whether it needed a
 * repair and whether it ended in a format error — what a run's cost table and format-error rate read.
 */
import type { ChatBackendMiddleware } from "./chat-backend-middleware.ts";
import type { UsageRecorder } from "./run-record.ts";

/** Records what passes back up through this layer into `recorder`; failed requests are not recorded. */
export function withUsageRecords(recorder: UsageRecorder): ChatBackendMiddleware {
  return {
    async wrapCall({ call, next, backendId }) {
      const result = await next(call);
      const { usage, latencyMs, cached, attempts } = result;
      recorder.record({ backendId, operation: call.operation, ...usage, latencyMs, cached, attempts });
      return result;
    },
    async wrapGenerateObject({ request, next }) {
      const result = await next(request);
      recorder.recordObject({ repaired: result.repaired, formatError: result.formatError !== undefined });
      return result;
    },
  };
}
