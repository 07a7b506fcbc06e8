/**
 * `openai:<model>`: any OpenAI-compatible chat-completions server (OpenAI, vLLM, llama.cpp server,
 * LM Studio, a private gateway) through LangChain's `ChatOpenAI`.
 *
 * Base URL: option `baseUrl` / env `OPENAI_BASE_URL` / config (default `https://api.openai.com/v1`).
 * API key: option `apiKey` / env `OPENAI_API_KEY` / config; a dummy key is sent when none is set, which
 * local servers accept. Structured output defaults to `response_format: json_schema` with the strict
 * (nullable instead of optional) schema; `strict` is false for schemas with records.
 */
import { ChatOpenAICompletions, OpenAIEmbeddings, wrapOpenAIClientError, type OpenAIClient } from "@langchain/openai";

/** A chat-completions request, streaming or not. */
type CompletionParams =
  OpenAIClient.Chat.ChatCompletionCreateParamsStreaming | OpenAIClient.Chat.ChatCompletionCreateParamsNonStreaming;
import { createChatBackend } from "./chat-backend.ts";
import { sanitizeUrl } from "./sanitize-url.ts";
import type { OpenAISettings, ResolvedSettings } from "./settings.ts";
import {
  attemptFetch,
  callChatModel,
  logprobsOf,
  modelCache,
  replyText,
  runAttempt,
  runCountedAttempt,
  usageOf,
} from "./langchain.ts";
import type { ChatBackend, CompletionRequest, ModelDriver } from "./spec.ts";
import { toStrictJsonSchema } from "./structured.ts";

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";
/** Sent when no key is configured: local OpenAI-compatible servers need some key, not a real one. */
const DUMMY_API_KEY = "sk-no-key-required";

/**
 * LangChain's chat-completions model, except that a non-streaming `json_schema` request goes through
 * the SDK's `create()` instead of `parse()`: `parse()` JSON-parses the reply itself and throws on
 * invalid JSON or a reply cut at max_tokens, losing the raw text our parsing and repair need.
 * (Using the completions class directly also keeps model names like `…codex` off the Responses API.)
 */
class ChatCompletionsKeepingRawJson extends ChatOpenAICompletions {
  // One implementation of the base class's two overloads (streaming or not): only `any` satisfies
  // both of their return types.
  override async completionWithRetry(
    request: CompletionParams,
    requestOptions?: OpenAIClient.RequestOptions,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ): Promise<any> {
    if (request.stream === true) return super.completionWithRetry(request, requestOptions);
    if (request.response_format?.type !== "json_schema") return super.completionWithRetry(request, requestOptions);
    const { maxRetries: _retries, ...sdkOptions } = requestOptions ?? {};
    const clientOptions = this._getClientOptions(sdkOptions);
    try {
      return await this.client.chat.completions.create(request, clientOptions);
    } catch (error) {
      throw wrapOpenAIClientError(error);
    }
  }
}

/** Call options that ask ChatOpenAI for structured output with the given method. */
function structuredCallOptions(structured: NonNullable<CompletionRequest["structured"]>): Record<string, unknown> {
  const { method, name, jsonSchema } = structured;
  switch (method) {
    case "jsonSchema": {
      const { schema, strict } = toStrictJsonSchema(jsonSchema);
      return { response_format: { type: "json_schema", json_schema: { name, strict, schema } } };
    }
    case "functionCalling":
      return {
        tools: [{ type: "function", function: { name, parameters: jsonSchema } }],
        tool_choice: { type: "function", function: { name } },
      };
    case "jsonMode":
      return { response_format: { type: "json_object" } };
    case "prompt":
      return {};
  }
}

/** Where and as whom the driver connects. */
interface Connection {
  readonly baseURL: string;
  readonly apiKey: string;
}

/** One ChatOpenAI per distinct set of constructor fields, all without LangChain's retries (ours replace them). */
function chatModels(model: string, { baseURL, apiKey }: Connection) {
  return modelCache(
    (fields: { temperature?: number; maxTokens?: number; logprobs?: number }) =>
      new ChatCompletionsKeepingRawJson({
        model,
        apiKey,
        configuration: { baseURL, fetch: attemptFetch },
        maxRetries: 0,
        streamUsage: true,
        ...(fields.temperature !== undefined ? { temperature: fields.temperature } : {}),
        ...(fields.maxTokens !== undefined ? { maxTokens: fields.maxTokens } : {}),
        ...(fields.logprobs !== undefined ? { logprobs: true, topLogprobs: fields.logprobs } : {}),
      }),
  );
}

/** The embeddings client, made on first use. */
function embeddingsClient(model: string, { baseURL, apiKey }: Connection): OpenAIEmbeddings {
  return new OpenAIEmbeddings({
    model,
    apiKey,
    configuration: { baseURL, fetch: attemptFetch },
    maxRetries: 0,
    // Embed the texts as given: LangChain would otherwise replace every newline with a space.
    stripNewLines: false,
    // Our semaphore sets the concurrency; LangChain's own queue would hold embeddings to 2 at once.
    maxConcurrency: Infinity,
  });
}

/** The `openai:` driver: chat completions (and embeddings) of `model` on an OpenAI-compatible server. */
export function createOpenAIDriver(model: string, settings: ResolvedSettings<OpenAISettings>): ModelDriver {
  const connection = { baseURL: settings.baseUrl ?? OPENAI_DEFAULT_BASE_URL, apiKey: settings.apiKey ?? DUMMY_API_KEY };
  const streaming = settings.streaming ?? false;
  const chatModel = chatModels(model, connection);
  let embeddings: OpenAIEmbeddings | undefined;

  return {
    provider: "openai",
    model,
    endpoint: sanitizeUrl(connection.baseURL),
    capabilities: { structuredOutput: true, logprobs: true, embeddings: true },
    parameters: settings.embeddingModel ? { embeddingModel: settings.embeddingModel } : {},
    defaultStructuredOutput: "jsonSchema",
    defaultConcurrency: 8,

    async complete(request, signal) {
      const chat = chatModel({
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
        ...(request.logprobs ? { logprobs: request.logprobs.top } : {}),
      });
      const callOptions = {
        signal,
        ...(request.seed !== undefined ? { seed: request.seed } : {}),
        ...(request.stop ? { stop: [...request.stop] } : {}),
        ...(request.structured ? structuredCallOptions(request.structured) : {}),
      };
      // Logprobs are read from the non-streaming response.
      const stream = streaming && !request.logprobs;
      const reply = await runAttempt(signal, () => callChatModel(chat, request.messages, callOptions, stream));
      return {
        text: replyText(reply, request.structured?.method === "functionCalling"),
        usage: usageOf(reply),
        ...(request.logprobs ? { logprobs: logprobsOf(reply) } : {}),
      };
    },

    async embed(texts, signal) {
      const client = (embeddings ??= embeddingsClient(settings.embeddingModel ?? model, connection));
      const { value: vectors, embeddingTokens } = await runCountedAttempt(signal, () =>
        client.embedDocuments([...texts]),
      );
      return { embeddings: vectors, usage: { inputTokens: embeddingTokens, outputTokens: 0 } };
    },
  };
}

/** The `openai:` provider's factory: the driver with every layer of {@link createChatBackend}, the API key kept out of errors. */
export function createOpenAIBackend(model: string, settings: ResolvedSettings<OpenAISettings>): ChatBackend {
  return createChatBackend(createOpenAIDriver(model, settings), settings, {
    secrets: settings.apiKey ? [settings.apiKey] : [],
  });
}
