/** Public API of the backends layer. */
export * from "./spec.ts";
export { createBackend, registerProvider, listProviders, parseBackendId, type ProviderFactory, type ProviderRegistration } from "./registry.ts";
export { createChatBackend, DEFAULT_TIMEOUT_MS } from "./chat-backend.ts";
export {
  loadConfig,
  defaultConfigPath,
  sanitizeUrl,
  type AnamnesisConfig,
  type BackendOptions,
  type BackendSettings,
  type ResolvedSettings,
} from "./config.ts";
export { NoSuchModelError, NoSuchProviderError } from "./errors.ts";
export { ResponseCache, defaultCacheDir, cacheKey, canonicalJson } from "./response-cache.ts";
export { UsageRecorder, describeBackend, gitRevision, type RequestRecord, type RunHeader, type UsageSummary } from "./run-record.ts";
export { createAttributeJudge, LlmAttributeJudge } from "./llm-attribute-judge.ts";
export { Semaphore, DEFAULT_RETRY_POLICY, type RetryPolicy } from "./resilience.ts";
