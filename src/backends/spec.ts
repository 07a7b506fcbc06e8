/**
 * The backend specification, version `v1`: what every LLM backend offers the rest of Anamnesis.
 *
 * Two layers, in the spirit of small versioned provider specs:
 * - {@link ChatBackend} is what modules and suites call (`generate`, `generateObject`, `embed`, …).
 *   `createChatBackend` (chat-backend.ts) builds one from a driver with the middleware every provider
 *   gets (chat-backend-middleware.ts): usage records, structured-output parsing and repair, the response
 *   cache, retries, the concurrency limit and the attempt timeout.
 * - {@link ModelDriver} is what a new kind of backend implements: one completion call against one model,
 *   nothing else. `openai.ts`, `ollama.ts`, `llamacpp.ts` and `langchain-universal.ts` are drivers, each
 *   registered as a provider whose factory wraps it with `createChatBackend`.
 *
 * The embedded engine is neither: it is no chat model and answers no free-text prompt. `bench`, `chat`
 * and `simulate` build its NLU, policy and NLG modules directly (modules/builders/create-modules.ts), and
 * its `embedded` provider (embedded.ts) builds no backend: where a command asks for a chat backend (an
 * LLM judge, dense retrieval) it says so and names what to use instead.
 */
import type * as z from "zod";

/** The version of the backend specification these types describe. */
export const SPECIFICATION_VERSION = "v1";
/** The backend specification version, as a type. */
export type SpecificationVersion = typeof SPECIFICATION_VERSION;

/** Who says a chat message. */
export type ChatRole = "system" | "user" | "assistant";

/** One chat message. */
export interface ChatMessage {
  readonly role: ChatRole;
  readonly content: string;
}

/** Tokens a request used, as the server counted them. */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** Per-call generation options. Unset values fall back to the backend's defaults. */
export interface GenerateOptions {
  readonly temperature?: number;
  readonly maxTokens?: number;
  readonly seed?: number;
  readonly stop?: readonly string[];
  /** Cancels the call (queued, in flight or waiting to retry); the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Per-attempt timeout in milliseconds; a timed-out attempt is retried like a 503. */
  readonly timeoutMs?: number;
  /** Bypass the response cache for this call: neither read nor written. */
  readonly noCache?: boolean;
}

/** The text a model generated, with usage and latency. */
export interface GenerateResult {
  readonly text: string;
  readonly usage: TokenUsage;
  /** Duration of the successful request (for a cache hit: of the original request). */
  readonly latencyMs: number;
  readonly cached: boolean;
}

/**
 * How structured output is requested from the model:
 * - `jsonSchema`: constrained decoding against the JSON schema (OpenAI `response_format: json_schema`,
 *   Ollama `format: <schema>`, llama.cpp grammar);
 * - `functionCalling`: a forced tool call whose parameters are the schema;
 * - `jsonMode`: "any JSON" mode (`json_object` / `format: "json"`), the schema is given in the prompt;
 * - `prompt`: no server support needed, the schema is given in the prompt.
 */
export type StructuredOutputMethod = "jsonSchema" | "functionCalling" | "jsonMode" | "prompt";

/** Options of `generateObject`: generation options plus how the schema is asked for. */
export interface GenerateObjectOptions extends GenerateOptions {
  /** Name of the schema sent to the server (OpenAI `json_schema.name`, tool name). Default `response`. */
  readonly schemaName?: string;
  /** Overrides the backend's structured-output method for this call. */
  readonly method?: StructuredOutputMethod;
}

/** One problem with a model's structured output. */
export interface FormatIssue {
  /** Path into the JSON value, e.g. `["frames", 0, "intent"]`. */
  readonly path: ReadonlyArray<string | number>;
  readonly message: string;
}

/** Why a model's structured output was rejected: not JSON, or not the schema. */
export interface FormatError {
  readonly kind: "invalid_json" | "schema_violation";
  /** One-line summary, with the issue paths. */
  readonly message: string;
  readonly issues: readonly FormatIssue[];
}

interface GenerateObjectBase {
  /** The model's reply the object was read from (after a repair: the repaired reply). */
  readonly raw: string;
  /** Usage summed over the original request and the repair request, if any. */
  readonly usage: TokenUsage;
  readonly latencyMs: number;
  /** True when every request behind this result came from the response cache. */
  readonly cached: boolean;
  /** True when the first reply was invalid and a repair request was sent. */
  readonly repaired: boolean;
}

/** A schema-valid object, or a format error with the raw text kept. `generateObject` never throws for bad output. */
export type GenerateObjectResult<T> =
  | (GenerateObjectBase & { readonly object: T; readonly formatError?: undefined })
  | (GenerateObjectBase & { readonly object: null; readonly formatError: FormatError });

/** Embedding vectors, one per input text. */
export interface EmbedResult {
  readonly embeddings: number[][];
  readonly usage: TokenUsage;
  readonly latencyMs: number;
  readonly cached: boolean;
}

/** One generated token and its log-probability. */
export interface TokenLogprob {
  readonly token: string;
  readonly logprob: number;
  /** The most likely alternatives at this position, when requested. */
  readonly top?: ReadonlyArray<{ readonly token: string; readonly logprob: number }>;
}

/** Options of `logprobs`. */
export interface LogprobsOptions extends GenerateOptions {
  /** Number of alternatives per position (OpenAI `top_logprobs`, 0–20). Default 0. */
  readonly topLogprobs?: number;
}

/** Generated text with the log-probability of every generated token. */
export interface LogprobsResult extends GenerateResult {
  /** Log-probabilities of the generated tokens. */
  readonly tokens: readonly TokenLogprob[];
}

/** What a backend can do beyond generating text. */
export interface BackendCapabilities {
  /** The server constrains decoding to a JSON schema (otherwise the schema is only in the prompt). */
  readonly structuredOutput: boolean;
  readonly logprobs: boolean;
  readonly embeddings: boolean;
  /** The backend scores the log-likelihood of a given text ({@link LoglikelihoodScorer}); absent means no. */
  readonly loglikelihood?: boolean;
}

/** The log-likelihood of a text (lm-eval's `loglikelihood_rolling`). */
export interface LoglikelihoodResult {
  /** Natural-log likelihood of the whole text, every token predicted from those before it. */
  readonly logLikelihood: number;
  readonly latencyMs: number;
  readonly cached: boolean;
  readonly usage?: TokenUsage;
}

/**
 * Scores a text as lm-evaluation-harness's `loglikelihood_rolling` does: the total log-likelihood of
 * the text with nothing before it (no prompt, no end-of-text).
 */
export interface LoglikelihoodScorer {
  readonly id: string;
  loglikelihoodRolling(
    text: string,
    options?: Pick<GenerateOptions, "signal" | "timeoutMs" | "noCache">,
  ): Promise<LoglikelihoodResult>;
}

/** What modules and suites call: one model behind the v1 specification (see the top of this file). */
export interface ChatBackend {
  readonly specificationVersion: SpecificationVersion;
  /** `provider:model`, e.g. `openai:gpt-4o-mini`, `ollama:llama3.1:8b`, `llamacpp:/models/x.gguf`, `embedded`. */
  readonly id: string;
  readonly provider: string;
  readonly model: string;
  readonly capabilities: BackendCapabilities;
  /**
   * Non-secret settings that shape the output (base URL without credentials, default temperature,
   * structured-output method, …). Safe to write into run records; never contains an API key.
   */
  readonly parameters: Readonly<Record<string, unknown>>;

  generate(messages: readonly ChatMessage[], options?: GenerateOptions): Promise<GenerateResult>;

  /**
   * Asks for JSON matching `schema` and validates it. Invalid JSON or a schema violation gets one repair
   * request (the model sees its reply and the zod issues with their paths); if that fails too the result
   * carries `formatError` and the raw text. Only transport failures (BACKEND_ERROR) and cancellation throw.
   */
  generateObject<S extends z.ZodType>(
    messages: readonly ChatMessage[],
    schema: S,
    options?: GenerateObjectOptions,
  ): Promise<GenerateObjectResult<z.output<S>>>;

  /** Present when `capabilities.embeddings`. */
  embed?(
    texts: readonly string[],
    options?: Pick<GenerateOptions, "signal" | "timeoutMs" | "noCache">,
  ): Promise<EmbedResult>;

  /** Present when `capabilities.logprobs`: generates and returns the log-probability of every generated token. */
  logprobs?(messages: readonly ChatMessage[], options?: LogprobsOptions): Promise<LogprobsResult>;

  /** Present when `capabilities.loglikelihood`: see {@link LoglikelihoodScorer}. */
  loglikelihoodRolling?: LoglikelihoodScorer["loglikelihoodRolling"];

  /** Releases native resources (llama.cpp models). Safe to call more than once. */
  close?(): Promise<void>;
}

/** What a driver is asked to do in one attempt. Retries, caching and parsing happen around it. */
export interface CompletionRequest {
  readonly messages: readonly ChatMessage[];
  readonly temperature?: number;
  readonly maxTokens?: number;
  readonly seed?: number;
  readonly stop?: readonly string[];
  /** Present for `generateObject`. `jsonSchema` is the zod schema as JSON Schema (draft 2020-12). */
  readonly structured?: {
    readonly method: StructuredOutputMethod;
    readonly name: string;
    readonly jsonSchema: Record<string, unknown>;
  };
  /** Present for `logprobs`: return per-token log-probabilities with this many alternatives. */
  readonly logprobs?: { readonly top: number };
}

/** What a driver's completion call returns. */
export interface CompletionResponse {
  /** The reply text; for `functionCalling`, the tool call's JSON arguments. */
  readonly text: string;
  readonly usage: TokenUsage;
  readonly logprobs?: readonly TokenLogprob[];
}

/** Details a driver can extract from an error so the retry policy can act on it. */
export interface FailureInfo {
  readonly retryable: boolean;
  /** Short description for the final error message, e.g. `HTTP 503`, `connection refused (ECONNREFUSED)`. */
  readonly description: string;
  readonly status?: number;
  /** Server-requested wait (from `Retry-After` / `retry-after-ms`). */
  readonly retryAfterMs?: number;
}

/**
 * One kind of model, seen as a single completion call. Implement this (one file) and register a
 * provider factory that wraps it with {@link createChatBackend} to add a new kind of backend.
 */
export interface ModelDriver {
  readonly provider: string;
  readonly model: string;
  /** Where requests go, without credentials (for error messages, run records and the cache key). */
  readonly endpoint: string;
  readonly capabilities: BackendCapabilities;
  /** Non-secret settings that change outputs; part of the cache key and of run records. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** Used when `generateObject` is not told otherwise. */
  readonly defaultStructuredOutput: StructuredOutputMethod;
  /** Concurrency used when the user sets none (a local in-process model: 1). */
  readonly defaultConcurrency: number;
  /** One attempt. Must stop work when `signal` aborts. */
  complete(request: CompletionRequest, signal: AbortSignal): Promise<CompletionResponse>;
  embed?(texts: readonly string[], signal: AbortSignal): Promise<{ embeddings: number[][]; usage: TokenUsage }>;
  /**
   * Present when `capabilities.loglikelihood`: one attempt at {@link LoglikelihoodScorer.loglikelihoodRolling}
   * (natural log). Must stop work when `signal` aborts.
   */
  loglikelihoodRolling?(text: string, signal: AbortSignal): Promise<{ logLikelihood: number; usage: TokenUsage }>;
  /**
   * What besides `parameters` shapes a log-likelihood (llamacpp: the window length): part of its cache key,
   * and of run records as `parameters.loglikelihood`.
   */
  readonly loglikelihoodParameters?: Readonly<Record<string, unknown>>;
  /** Provider-specific error details; the generic classifier handles HTTP status codes and socket errors. */
  classifyError?(error: unknown): FailureInfo | undefined;
  close?(): Promise<void>;
}
