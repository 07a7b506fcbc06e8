/**
 * Turns a {@link ModelDriver} (one completion call) into a full {@link ChatBackend} with the layers
 * every provider gets, outermost first:
 *
 * 1. usage records (with-usage-records.ts): every request that comes back, every object's outcome;
 * 2. structured-output repair (with-structured-output-repair.ts): one repair request, then the format error;
 * 3. the response cache (with-response-cache.ts): a hit comes back from here, so it takes no permit,
 *    no retry and no timeout;
 * 4. retries (with-retries.ts): backoff with jitter, `Retry-After`, the final error;
 * 5. the concurrency limit (with-concurrency-limit.ts): one permit per attempt, so each retry queues again;
 * 6. the attempt timeout (with-attempt-timeout.ts): started once the attempt holds its permit.
 */
import type { ChatBackendMiddleware } from "./chat-backend-middleware.ts";
import type { ResolvedSettings } from "./settings.ts";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./resilience.ts";
import { ResponseCache } from "./response-cache.ts";
import { UsageRecorder } from "./run-record.ts";
import type { ChatBackend, ModelDriver } from "./spec.ts";
import { DEFAULT_TIMEOUT_MS, withAttemptTimeout } from "./with-attempt-timeout.ts";
import { withConcurrencyLimit } from "./with-concurrency-limit.ts";
import { withResponseCache } from "./with-response-cache.ts";
import { withRetries } from "./with-retries.ts";
import { withStructuredOutputRepair } from "./with-structured-output-repair.ts";
import { withUsageRecords } from "./with-usage-records.ts";
import { driverParameters, wrapChatBackend } from "./wrap-chat-backend.ts";

export { DEFAULT_TIMEOUT_MS };

/** What a provider passes to {@link createChatBackend} besides the driver and settings. */
export interface ChatBackendExtras {
  /** Strings to blank out of error messages (the API key). Never stored on the backend object. */
  readonly secrets?: readonly string[];
}

/** The retry policy the settings ask for, the default where they are silent. */
function retryPolicyOf(settings: ResolvedSettings): RetryPolicy {
  return {
    ...DEFAULT_RETRY_POLICY,
    ...(settings.maxRetries !== undefined ? { maxRetries: settings.maxRetries } : {}),
    ...(settings.retryBaseDelayMs !== undefined ? { baseDelayMs: settings.retryBaseDelayMs } : {}),
    ...(settings.retryMaxDelayMs !== undefined ? { maxDelayMs: settings.retryMaxDelayMs } : {}),
  };
}

/** Only the members that are set. */
function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}

/** The settings that shape outputs or their cost, as the backend's `parameters` show them (unset ones left out). */
function shownSettings(driver: ModelDriver, settings: ResolvedSettings): Record<string, unknown> {
  return definedOnly({
    temperature: settings.temperature,
    maxTokens: settings.maxTokens,
    seed: settings.seed,
    structuredOutput: settings.structuredOutput ?? driver.defaultStructuredOutput,
    streaming: settings.streaming,
    concurrency: settings.concurrency ?? driver.defaultConcurrency,
    timeoutMs: settings.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: retryPolicyOf(settings).maxRetries,
  });
}

/**
 * The layers {@link createChatBackend} puts around a driver, outermost first (see the top of
 * chat-backend.ts for why in this order).
 */
export function defaultMiddleware(
  driver: ModelDriver,
  settings: ResolvedSettings,
  extras: ChatBackendExtras = {},
): ChatBackendMiddleware[] {
  return [
    withUsageRecords(settings.recorder ?? new UsageRecorder()),
    withStructuredOutputRepair(),
    ...(settings.noCache ? [] : [withResponseCache(new ResponseCache(settings.cacheDir))]),
    withRetries({ policy: retryPolicyOf(settings), ...(extras.secrets ? { secrets: extras.secrets } : {}) }),
    withConcurrencyLimit(settings.concurrency ?? driver.defaultConcurrency),
    withAttemptTimeout(settings.timeoutMs ?? DEFAULT_TIMEOUT_MS),
  ];
}

/** Wraps a {@link ModelDriver} (one completion call) into a full {@link ChatBackend}: response cache, concurrency limit, retries and timeouts, structured output with one repair request, usage records. What a provider plug-in's factory returns. */
export function createChatBackend(
  driver: ModelDriver,
  settings: ResolvedSettings,
  extras: ChatBackendExtras = {},
): ChatBackend {
  return wrapChatBackend({
    driver,
    middleware: defaultMiddleware(driver, settings, extras),
    defaults: definedOnly({ temperature: settings.temperature, maxTokens: settings.maxTokens, seed: settings.seed }),
    structuredOutput: settings.structuredOutput ?? driver.defaultStructuredOutput,
    parameters: { ...driverParameters(driver), ...shownSettings(driver, settings) },
  });
}
