/**
 * What a layer between a {@link ChatBackend} and its {@link ModelDriver} sees, in the spirit of
 * vercel/ai's language-model middleware: every request to the model passes down the layers as one
 * {@link ModelCall} and its {@link CallResult} comes back up, and every `generateObject` passes down
 * as an {@link ObjectRequest}. A layer wraps what it cares about and hands the rest to `next`.
 * `wrapChatBackend` (wrap-chat-backend.ts) stacks the layers; `createChatBackend` (chat-backend.ts)
 * stacks the ones every provider gets.
 */
import type * as z from "zod";
import type { RequestOperation } from "./run-record.ts";
import type {
  ChatBackend,
  ChatMessage,
  CompletionRequest,
  GenerateObjectOptions,
  GenerateObjectResult,
  GenerateOptions,
  ModelDriver,
  TokenUsage,
} from "./spec.ts";

/** What a caller may set on any request: cancellation, the per-attempt timeout, bypassing the cache. */
export type CallOptions = Pick<GenerateOptions, "signal" | "timeoutMs" | "noCache">;

/** What one attempt at the driver gives back. */
export interface AttemptResult<T> {
  readonly value: T;
  readonly usage: TokenUsage;
}

/** One request to the model on its way down the layers to the driver. */
export interface ModelCall<T> {
  /** What the backend was asked to do; usage records name it. */
  readonly operation: RequestOperation;
  /**
   * What is asked, as the response cache keys it: the {@link CompletionRequest} (generate, object,
   * repair, logprobs), `{ texts }` (embed) or `{ text, scoring }` (loglikelihood).
   */
  readonly request: unknown;
  readonly options: CallOptions;
  /** One attempt at the driver. Must stop work when `signal` aborts. */
  readonly attempt: (signal: AbortSignal) => Promise<AttemptResult<T>>;
}

/** A request's outcome on its way back up the layers. */
export interface CallResult<T> extends AttemptResult<T> {
  /** Duration of the successful attempt in milliseconds, rounded to the microsecond (a cache hit: the original's). */
  readonly latencyMs: number;
  readonly cached: boolean;
  /** Attempts made: 1 without retries, 0 for a cache hit. */
  readonly attempts: number;
}

/** Hands a call to the layer below (the last layer's `next` calls the driver). */
export type SendCall = <T>(call: ModelCall<T>) => Promise<CallResult<T>>;

/** One structured-output request of `generateObject` on its way down the layers. */
export interface ObjectRequest<S extends z.ZodType> {
  /** `object` for the first request, `repair` for a request that shows the model its invalid reply. */
  readonly operation: "object" | "repair";
  /** The conversation as sent: for `jsonMode` and `prompt`, with the schema instruction already in it. */
  readonly messages: readonly ChatMessage[];
  readonly schema: S;
  readonly structured: NonNullable<CompletionRequest["structured"]>;
  readonly options: GenerateObjectOptions;
}

/** Hands an object request to the layer below (the last one sends it as a call and parses the reply). */
export type SendObjectRequest = <S extends z.ZodType>(
  request: ObjectRequest<S>,
) => Promise<GenerateObjectResult<z.output<S>>>;

/** Who a layer works for: the driver below, and the backend id it serves (`provider:model`). */
export interface LayerContext {
  readonly driver: ModelDriver;
  readonly backendId: string;
}

/** What a layer's `wrapCall` is given: the call, and the layer below to hand it to. */
export interface CallLayerOptions<T> extends LayerContext {
  readonly call: ModelCall<T>;
  readonly next: SendCall;
}

/** What a layer's `wrapGenerateObject` is given: the object request, and the layer below to hand it to. */
export interface ObjectLayerOptions<S extends z.ZodType> extends LayerContext {
  readonly request: ObjectRequest<S>;
  readonly next: SendObjectRequest;
}

/**
 * One layer between a backend and its driver. Both hooks are optional; a layer without one passes
 * that kind of request straight through. Layers are listed outermost first (see `wrapChatBackend`).
 */
export interface ChatBackendMiddleware {
  /** Wraps every request to the model (generate, object, repair, embed, logprobs, loglikelihood). */
  wrapCall?<T>(options: CallLayerOptions<T>): Promise<CallResult<T>>;
  /** Wraps every `generateObject`: its first request and whatever the layers below add. */
  wrapGenerateObject?<S extends z.ZodType>(options: ObjectLayerOptions<S>): Promise<GenerateObjectResult<z.output<S>>>;
}

/** The backend id of a driver: `provider:model`, or the bare provider for a driver without a model. */
export function backendIdOf(driver: Pick<ModelDriver, "provider" | "model">): ChatBackend["id"] {
  return driver.model ? `${driver.provider}:${driver.model}` : driver.provider;
}
