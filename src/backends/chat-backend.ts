/**
 * Turns a {@link ModelDriver} (one completion call) into a full {@link ChatBackend}: response cache,
 * concurrency limit, retries and timeouts, structured output with one repair attempt, usage records.
 */
import type { z } from "zod";
import type { ResolvedSettings } from "./config.ts";
import { backendError } from "./errors.ts";
import { DEFAULT_RETRY_POLICY, Semaphore, classifyFailure, withRetries, type RetryPolicy } from "./resilience.ts";
import { ResponseCache, cacheKey } from "./response-cache.ts";
import { UsageRecorder, type RequestOperation } from "./run-record.ts";
import {
  SPECIFICATION_VERSION,
  type ChatBackend,
  type ChatMessage,
  type CompletionRequest,
  type CompletionResponse,
  type GenerateObjectOptions,
  type GenerateObjectResult,
  type GenerateOptions,
  type ModelDriver,
  type TokenLogprob,
  type TokenUsage,
} from "./spec.ts";
import { parseStructured, repairMessages, withSchemaInstruction, zodToJsonSchema } from "./structured.ts";

/** Per-attempt timeout when none is configured. Generous, because local models can be slow. */
export const DEFAULT_TIMEOUT_MS = 120_000;

interface Timed<T> {
  readonly value: T;
  readonly usage: TokenUsage;
  readonly latencyMs: number;
  readonly cached: boolean;
}

type CompletionValue = { text: string; logprobs?: readonly TokenLogprob[] };

function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
}

/** Replaces every occurrence of a secret (API key) in a message. */
function redactor(secrets: readonly string[]): (text: string) => string {
  const real = secrets.filter((secret) => secret.length >= 4);
  return (text) => real.reduce((out, secret) => out.split(secret).join("***"), text);
}

/** What a provider passes to {@link createChatBackend} besides the driver and settings. */
export interface ChatBackendExtras {
  /** Strings to blank out of error messages (the API key). Never stored on the backend object. */
  readonly secrets?: readonly string[];
}

/** Wraps a {@link ModelDriver} (one completion call) into a full {@link ChatBackend}: response cache, concurrency limit, retries and timeouts, structured output with one repair request, usage records. What a provider plug-in's factory returns. */
export function createChatBackend(driver: ModelDriver, settings: ResolvedSettings, extras: ChatBackendExtras = {}): ChatBackend {
  const id = driver.model ? `${driver.provider}:${driver.model}` : driver.provider;
  const concurrency = settings.concurrency ?? driver.defaultConcurrency;
  const semaphore = new Semaphore(concurrency);
  const policy: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY,
    ...(settings.maxRetries !== undefined ? { maxRetries: settings.maxRetries } : {}),
    ...(settings.retryBaseDelayMs !== undefined ? { baseDelayMs: settings.retryBaseDelayMs } : {}),
    ...(settings.retryMaxDelayMs !== undefined ? { maxDelayMs: settings.retryMaxDelayMs } : {}),
  };
  const cache = settings.noCache ? null : new ResponseCache(settings.cacheDir);
  const recorder = settings.recorder ?? new UsageRecorder();
  const redact = redactor(extras.secrets ?? []);
  const classify = (error: unknown) => driver.classifyError?.(error) ?? classifyFailure(error);
  const structuredDefault = settings.structuredOutput ?? driver.defaultStructuredOutput;
  const timeoutDefault = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  /** Cache lookup, then the attempt under the retry policy, then cache write and record. */
  async function send<T>(
    operation: RequestOperation,
    request: unknown,
    options: Pick<GenerateOptions, "signal" | "timeoutMs" | "noCache">,
    attempt: (signal: AbortSignal) => Promise<{ value: T; usage: TokenUsage }>,
  ): Promise<Timed<T>> {
    const keyOperation = operation === "embed" || operation === "logprobs" || operation === "loglikelihood" ? operation : "complete";
    const key =
      cache && !options.noCache
        ? cacheKey({
            operation: keyOperation,
            provider: driver.provider,
            model: driver.model,
            endpoint: driver.endpoint,
            parameters: driver.parameters,
            request,
          })
        : undefined;
    if (cache && key) {
      const hit = await cache.get<T>(key);
      if (hit) {
        recorder.record({ backendId: id, operation, ...hit.usage, latencyMs: hit.latencyMs, cached: true, attempts: 0 });
        return { value: hit.value, usage: hit.usage, latencyMs: hit.latencyMs, cached: true };
      }
    }
    const outcome = await withRetries(attempt, {
      policy,
      timeoutMs: options.timeoutMs ?? timeoutDefault,
      ...(options.signal ? { signal: options.signal } : {}),
      semaphore,
      classify,
      giveUp: (failure, attempts, cause) => {
        const detail = attempts > 1 ? `${failure.description} (gave up after ${attempts} attempts)` : failure.description;
        // A server may echo the key back (e.g. "Incorrect API key provided: sk-…"): drop such a cause.
        const causeText = cause instanceof Error ? cause.message : String(cause);
        return backendError(id, driver.endpoint, redact(detail), redact(causeText) === causeText ? cause : undefined);
      },
    });
    const { value, usage } = outcome.value;
    const latencyMs = Math.round(outcome.latencyMs * 1000) / 1000;
    if (cache && key) await cache.set(key, { value, usage, latencyMs });
    recorder.record({ backendId: id, operation, ...usage, latencyMs, cached: false, attempts: outcome.attempts });
    return { value, usage, latencyMs, cached: false };
  }

  function completionRequest(messages: readonly ChatMessage[], options: GenerateOptions): CompletionRequest {
    const temperature = options.temperature ?? settings.temperature;
    const maxTokens = options.maxTokens ?? settings.maxTokens;
    const seed = options.seed ?? settings.seed;
    return {
      messages: messages.map(({ role, content }) => ({ role, content })),
      ...(temperature !== undefined ? { temperature } : {}),
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(options.stop?.length ? { stop: [...options.stop] } : {}),
    };
  }

  function complete(operation: RequestOperation, request: CompletionRequest, options: GenerateOptions): Promise<Timed<CompletionValue>> {
    return send(operation, request, options, async (signal) => {
      const response: CompletionResponse = await driver.complete(request, signal);
      const value: CompletionValue = { text: response.text, ...(response.logprobs ? { logprobs: response.logprobs } : {}) };
      return { value, usage: response.usage };
    });
  }

  const backend: ChatBackend = {
    specificationVersion: SPECIFICATION_VERSION,
    id,
    provider: driver.provider,
    model: driver.model,
    capabilities: driver.capabilities,
    parameters: {
      endpoint: driver.endpoint,
      ...driver.parameters,
      ...(driver.capabilities.loglikelihood && driver.loglikelihoodParameters ? { loglikelihood: driver.loglikelihoodParameters } : {}),
      ...Object.fromEntries(
        Object.entries({
          temperature: settings.temperature,
          maxTokens: settings.maxTokens,
          seed: settings.seed,
          structuredOutput: structuredDefault,
          streaming: settings.streaming,
          concurrency,
          timeoutMs: timeoutDefault,
          maxRetries: policy.maxRetries,
        }).filter(([, value]) => value !== undefined),
      ),
    },

    async generate(messages, options = {}) {
      const result = await complete("generate", completionRequest(messages, options), options);
      return { text: result.value.text, usage: result.usage, latencyMs: result.latencyMs, cached: result.cached };
    },

    async generateObject<S extends z.ZodType>(
      messages: readonly ChatMessage[],
      schema: S,
      options: GenerateObjectOptions = {},
    ): Promise<GenerateObjectResult<z.output<S>>> {
      const method = options.method ?? structuredDefault;
      const jsonSchema = zodToJsonSchema(schema);
      const structured = { method, name: options.schemaName ?? "response", jsonSchema };
      const prompt = method === "jsonMode" || method === "prompt" ? withSchemaInstruction(messages, jsonSchema) : messages;

      const first = await complete("object", { ...completionRequest(prompt, options), structured }, options);
      const parsed = parseStructured(first.value.text, schema);
      if (parsed.ok) {
        recorder.recordObject({ repaired: false, formatError: false });
        const { usage, latencyMs, cached } = first;
        return { object: parsed.object, raw: first.value.text, usage, latencyMs, cached, repaired: false };
      }

      const repairPrompt = repairMessages(prompt, first.value.text, parsed.formatError);
      const second = await complete("repair", { ...completionRequest(repairPrompt, options), structured }, options);
      const reparsed = parseStructured(second.value.text, schema);
      recorder.recordObject({ repaired: true, formatError: !reparsed.ok });
      const totals = {
        raw: second.value.text,
        usage: addUsage(first.usage, second.usage),
        latencyMs: first.latencyMs + second.latencyMs,
        cached: first.cached && second.cached,
        repaired: true,
      };
      return reparsed.ok ? { ...totals, object: reparsed.object } : { ...totals, object: null, formatError: reparsed.formatError };
    },

    ...(driver.close ? { close: () => driver.close!() } : {}),
  };

  if (driver.capabilities.embeddings && driver.embed) {
    const embed = driver.embed.bind(driver);
    backend.embed = async (texts, options = {}) => {
      const list = [...texts];
      const result = await send("embed", { texts: list }, options, async (signal) => {
        const { embeddings, usage } = await embed(list, signal);
        return { value: embeddings, usage };
      });
      return { embeddings: result.value, usage: result.usage, latencyMs: result.latencyMs, cached: result.cached };
    };
  }

  if (driver.capabilities.logprobs) {
    backend.logprobs = async (messages, options = {}) => {
      const request = { ...completionRequest(messages, options), logprobs: { top: options.topLogprobs ?? 0 } };
      const result = await complete("logprobs", request, options);
      const { text, logprobs = [] } = result.value;
      return { text, tokens: logprobs, usage: result.usage, latencyMs: result.latencyMs, cached: result.cached };
    };
  }

  if (driver.capabilities.loglikelihood && driver.loglikelihoodRolling) {
    const score = driver.loglikelihoodRolling.bind(driver);
    const scoring = driver.loglikelihoodParameters;
    backend.loglikelihoodRolling = async (text, options = {}) => {
      const result = await send("loglikelihood", { text, ...(scoring ? { scoring } : {}) }, options, async (signal) => {
        const { logLikelihood, usage } = await score(text, signal);
        return { value: logLikelihood, usage };
      });
      return { logLikelihood: result.value, usage: result.usage, latencyMs: result.latencyMs, cached: result.cached };
    };
  }

  return backend;
}
