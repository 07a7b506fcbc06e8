/**
 * Builds a {@link ChatBackend} from a {@link ModelDriver} and a stack of {@link ChatBackendMiddleware}:
 * each backend method turns into calls (chat-backend-middleware.ts) that pass down the layers to the
 * driver. With no layers, a call is one attempt and `generateObject` one request, parsed.
 */
import type * as z from "zod";
import {
  backendIdOf,
  type CallOptions,
  type CallResult,
  type ChatBackendMiddleware,
  type LayerContext,
  type ModelCall,
  type ObjectRequest,
  type SendCall,
  type SendObjectRequest,
} from "./chat-backend-middleware.ts";
import {
  SPECIFICATION_VERSION,
  type ChatBackend,
  type ChatMessage,
  type CompletionRequest,
  type GenerateObjectResult,
  type GenerateOptions,
  type ModelDriver,
  type StructuredOutputMethod,
  type TokenLogprob,
} from "./spec.ts";
import { parseStructured, withSchemaInstruction, zodToJsonSchema } from "./structured.ts";

/** What `wrapChatBackend` builds a backend from. */
export interface WrapChatBackendOptions {
  readonly driver: ModelDriver;
  /** The layers, outermost first: the first sees a request first, the last is next to the driver. */
  readonly middleware?: readonly ChatBackendMiddleware[];
  /** Generation settings used where a call sets none. */
  readonly defaults?: Pick<GenerateOptions, "temperature" | "maxTokens" | "seed">;
  /** How `generateObject` asks for structure when the call does not say (default: the driver's). */
  readonly structuredOutput?: StructuredOutputMethod;
  /** The backend's `parameters` (default: {@link driverParameters}). */
  readonly parameters?: Readonly<Record<string, unknown>>;
}

/** What a completion attempt gives back through the layers (and what the response cache stores). */
type CompletionValue = { text: string; logprobs?: readonly TokenLogprob[] };

/** A signal for calls that reach the driver with no caller signal and no timeout layer above. */
const NEVER_ABORTED = new AbortController().signal;

/** The last step down: one attempt at the driver, timed. */
async function callDriver<T>(call: ModelCall<T>): Promise<CallResult<T>> {
  const started = performance.now();
  const { value, usage } = await call.attempt(call.options.signal ?? NEVER_ABORTED);
  const latencyMs = Math.round((performance.now() - started) * 1000) / 1000;
  return { value, usage, latencyMs, cached: false, attempts: 1 };
}

/** The layers' `wrapCall` hooks stacked over {@link callDriver}, the first layer outermost. */
function stackCalls(layers: readonly ChatBackendMiddleware[], context: LayerContext): SendCall {
  return layers.reduceRight<SendCall>((next, layer) => {
    if (!layer.wrapCall) return next;
    return (call) => layer.wrapCall!({ ...context, call, next });
  }, callDriver);
}

/** The layers' `wrapGenerateObject` hooks stacked over `last`, the first layer outermost. */
function stackObjectRequests(
  layers: readonly ChatBackendMiddleware[],
  context: LayerContext,
  last: SendObjectRequest,
): SendObjectRequest {
  return layers.reduceRight<SendObjectRequest>((next, layer) => {
    if (!layer.wrapGenerateObject) return next;
    return (request) => layer.wrapGenerateObject!({ ...context, request, next });
  }, last);
}

/** The driver's non-secret parameters as a backend shows them: endpoint, driver parameters, scoring window. */
export function driverParameters(driver: ModelDriver): Record<string, unknown> {
  return {
    endpoint: driver.endpoint,
    ...driver.parameters,
    ...(driver.capabilities.loglikelihood && driver.loglikelihoodParameters
      ? { loglikelihood: driver.loglikelihoodParameters }
      : {}),
  };
}

/** Builds a backend's requests and sends them down the stacked layers. */
class DriverRequests {
  readonly #driver: ModelDriver;
  readonly #defaults: NonNullable<WrapChatBackendOptions["defaults"]>;
  readonly send: SendCall;

  constructor(driver: ModelDriver, defaults: WrapChatBackendOptions["defaults"], send: SendCall) {
    this.#driver = driver;
    this.#defaults = defaults ?? {};
    this.send = send;
  }

  /** The driver's request for `messages`: the call's generation options, else the defaults. */
  completionRequest(messages: readonly ChatMessage[], options: GenerateOptions): CompletionRequest {
    const temperature = options.temperature ?? this.#defaults.temperature;
    const maxTokens = options.maxTokens ?? this.#defaults.maxTokens;
    const seed = options.seed ?? this.#defaults.seed;
    return {
      messages: messages.map(({ role, content }) => ({ role, content })),
      ...(temperature !== undefined ? { temperature } : {}),
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(options.stop?.length ? { stop: [...options.stop] } : {}),
    };
  }

  /** Sends one completion request down the layers. */
  complete(
    operation: ModelCall<CompletionValue>["operation"],
    request: CompletionRequest,
    options: CallOptions,
  ): Promise<CallResult<CompletionValue>> {
    return this.send({
      operation,
      request,
      options,
      attempt: async (signal) => {
        const response = await this.#driver.complete(request, signal);
        const value: CompletionValue = {
          text: response.text,
          ...(response.logprobs ? { logprobs: response.logprobs } : {}),
        };
        return { value, usage: response.usage };
      },
    });
  }

  /** The bottom of `generateObject`: one structured request, its reply parsed; a format error is a result, never a throw. */
  readonly requestObject: SendObjectRequest = async <S extends z.ZodType>(
    request: ObjectRequest<S>,
  ): Promise<GenerateObjectResult<z.output<S>>> => {
    const sent = { ...this.completionRequest(request.messages, request.options), structured: request.structured };
    const { value, usage, latencyMs, cached } = await this.complete(request.operation, sent, request.options);
    const parsed = parseStructured(value.text, request.schema);
    if (parsed.ok) return { object: parsed.object, raw: value.text, usage, latencyMs, cached, repaired: false };
    return {
      raw: value.text,
      usage,
      latencyMs,
      cached,
      repaired: false,
      object: null,
      formatError: parsed.formatError,
    };
  };
}

/** Adds `embed`, `logprobs` and `loglikelihoodRolling` where the driver has the capability. */
function addCapabilities(backend: ChatBackend, driver: ModelDriver, requests: DriverRequests): void {
  if (driver.capabilities.embeddings && driver.embed) {
    const embed = driver.embed.bind(driver);
    backend.embed = async (texts, options = {}) => {
      const list = [...texts];
      const result = await requests.send({
        operation: "embed",
        request: { texts: list },
        options,
        attempt: async (signal) => {
          const { embeddings, usage } = await embed(list, signal);
          return { value: embeddings, usage };
        },
      });
      return { embeddings: result.value, usage: result.usage, latencyMs: result.latencyMs, cached: result.cached };
    };
  }
  if (driver.capabilities.logprobs) {
    backend.logprobs = async (messages, options = {}) => {
      const request = { ...requests.completionRequest(messages, options), logprobs: { top: options.topLogprobs ?? 0 } };
      const result = await requests.complete("logprobs", request, options);
      const { text, logprobs = [] } = result.value;
      return { text, tokens: logprobs, usage: result.usage, latencyMs: result.latencyMs, cached: result.cached };
    };
  }
  if (driver.capabilities.loglikelihood && driver.loglikelihoodRolling) {
    const score = driver.loglikelihoodRolling.bind(driver);
    const scoring = driver.loglikelihoodParameters;
    backend.loglikelihoodRolling = async (text, options = {}) => {
      const result = await requests.send({
        operation: "loglikelihood",
        request: { text, ...(scoring ? { scoring } : {}) },
        options,
        attempt: async (signal) => {
          const { logLikelihood, usage } = await score(text, signal);
          return { value: logLikelihood, usage };
        },
      });
      return { logLikelihood: result.value, usage: result.usage, latencyMs: result.latencyMs, cached: result.cached };
    };
  }
}

/**
 * Wraps a driver (one completion call) with layers into a full {@link ChatBackend}, as vercel/ai's
 * `wrapLanguageModel` wraps a model: `wrapChatBackend({ driver, middleware: [withRetries(), withAttemptTimeout(60_000)] })`.
 * The layers are listed outermost first.
 */
export function wrapChatBackend(options: WrapChatBackendOptions): ChatBackend {
  const { driver, middleware = [] } = options;
  const context: LayerContext = { driver, backendId: backendIdOf(driver) };
  const requests = new DriverRequests(driver, options.defaults, stackCalls(middleware, context));
  const requestObject = stackObjectRequests(middleware, context, requests.requestObject);
  const structuredDefault = options.structuredOutput ?? driver.defaultStructuredOutput;
  const backend: ChatBackend = {
    specificationVersion: SPECIFICATION_VERSION,
    id: context.backendId,
    provider: driver.provider,
    model: driver.model,
    capabilities: driver.capabilities,
    parameters: options.parameters ?? driverParameters(driver),
    async generate(messages, callOptions = {}) {
      const result = await requests.complete(
        "generate",
        requests.completionRequest(messages, callOptions),
        callOptions,
      );
      return { text: result.value.text, usage: result.usage, latencyMs: result.latencyMs, cached: result.cached };
    },
    async generateObject(messages, schema, callOptions = {}) {
      const method = callOptions.method ?? structuredDefault;
      const jsonSchema = zodToJsonSchema(schema);
      const structured = { method, name: callOptions.schemaName ?? "response", jsonSchema };
      const prompt =
        method === "jsonMode" || method === "prompt" ? withSchemaInstruction(messages, jsonSchema) : messages;
      return requestObject({ operation: "object", messages: prompt, schema, structured, options: callOptions });
    },
    ...(driver.close ? { close: () => driver.close!() } : {}),
  };
  addCapabilities(backend, driver, requests);
  return backend;
}
