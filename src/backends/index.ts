/** Public API of the backends layer. */
export * from "./spec.ts";
export {
  createBackend,
  registerProvider,
  listProviders,
  parseBackendId,
  describeBackendIds,
  type ProviderFactory,
  type ProviderRegistration,
  type ProviderSettings,
} from "./registry.ts";
export { createChatBackend, DEFAULT_TIMEOUT_MS } from "./chat-backend.ts";
export { loadConfig, defaultConfigPath, type AnamnesisConfig, type BackendOptions } from "./config.ts";
export { sanitizeUrl } from "./sanitize-url.ts";
export {
  type BackendSettings,
  type CommonSettings,
  type LangChainSettings,
  type LlamaCppSettings,
  type OllamaSettings,
  type OpenAISettings,
  type ResolvedSettings,
} from "./settings.ts";
export { NoSuchModelError, NoSuchProviderError } from "./errors.ts";
export { ResponseCache, defaultCacheDir, cacheKey, canonicalJson } from "./response-cache.ts";
export {
  UsageRecorder,
  describeBackend,
  gitRevision,
  type RequestRecord,
  type RunHeader,
  type UsageSummary,
} from "./run-record.ts";
export { createAttributeJudge, LlmAttributeJudge } from "./llm-attribute-judge.ts";
export { Semaphore, DEFAULT_RETRY_POLICY, type RetryPolicy } from "./resilience.ts";
