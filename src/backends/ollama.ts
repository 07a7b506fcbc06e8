/**
 * `ollama:<model>` (e.g. `ollama:llama3.1:8b`): a local or remote Ollama server through LangChain's
 * `ChatOllama` (which always streams NDJSON from `/api/chat`).
 *
 * Host: option `baseUrl` / env `OLLAMA_HOST` / config (default `http://127.0.0.1:11434`).
 * Structured output defaults to `format: <JSON schema>` (Ollama's grammar-constrained decoding).
 */
import { ChatOllama, OllamaEmbeddings } from "@langchain/ollama";
import { createChatBackend } from "./chat-backend.ts";
import { sanitizeUrl } from "./sanitize-url.ts";
import type { OllamaSettings, ResolvedSettings } from "./settings.ts";
import { attemptFetch, runAttempt, runCountedAttempt } from "./attempt-fetch.ts";
import { callChatModel, modelCache, replyText, usageOf } from "./langchain.ts";
import type { ChatBackend, CompletionRequest, ModelDriver } from "./spec.ts";

export const OLLAMA_DEFAULT_HOST = "http://127.0.0.1:11434";

/** `OLLAMA_HOST` may be `host:port` without a scheme. */
function normalizeHost(host: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host : `http://${host}`;
}

function structuredCallOptions(structured: NonNullable<CompletionRequest["structured"]>): Record<string, unknown> {
  const { method, name, jsonSchema } = structured;
  switch (method) {
    case "jsonSchema":
      return { format: jsonSchema };
    case "functionCalling":
      return { tools: [{ type: "function", function: { name, parameters: jsonSchema } }] };
    case "jsonMode":
      return { format: "json" };
    case "prompt":
      return {};
  }
}

/** Chat models of `model`, one per sampling setting (temperature, length, seed), made on first use. */
function ollamaChatModels(model: string, baseUrl: string, settings: ResolvedSettings<OllamaSettings>) {
  return modelCache(
    (fields: { temperature?: number; maxTokens?: number; seed?: number }) =>
      new ChatOllama({
        model,
        baseUrl,
        fetch: attemptFetch,
        ...(fields.temperature !== undefined ? { temperature: fields.temperature } : {}),
        ...(fields.maxTokens !== undefined ? { numPredict: fields.maxTokens } : {}),
        ...(fields.seed !== undefined ? { seed: fields.seed } : {}),
        ...(settings.contextSize !== undefined ? { numCtx: settings.contextSize } : {}),
      }),
  );
}

/** The embeddings client, made on first use. */
function ollamaEmbedder(
  model: string,
  baseUrl: string,
  settings: ResolvedSettings<OllamaSettings>,
): ModelDriver["embed"] {
  let embeddings: OllamaEmbeddings | undefined;
  return async (texts, signal) => {
    // maxConcurrency: our semaphore sets the concurrency; LangChain's own queue would hold embeddings to 1 at once.
    // maxRetries 0: our retries (backoff, Retry-After, per-attempt timeout) are the only ones; LangChain's
    // own (6 by default) made a failing /api/embed outlast the attempt timeout instead of reporting the error.
    embeddings ??= new OllamaEmbeddings({
      model: settings.embeddingModel ?? model,
      baseUrl,
      fetch: attemptFetch,
      maxConcurrency: Infinity,
      maxRetries: 0,
    });
    const client = embeddings;
    const { value: vectors, embeddingTokens } = await runCountedAttempt(signal, () =>
      client.embedDocuments([...texts]),
    );
    return { embeddings: vectors, usage: { inputTokens: embeddingTokens, outputTokens: 0 } };
  };
}

/** The `ollama:` driver: chat (and embeddings) of `model` on an Ollama server. */
export function createOllamaDriver(model: string, settings: ResolvedSettings<OllamaSettings>): ModelDriver {
  const baseUrl = normalizeHost(settings.baseUrl ?? OLLAMA_DEFAULT_HOST);
  const chatModel = ollamaChatModels(model, baseUrl, settings);
  return {
    provider: "ollama",
    model,
    endpoint: sanitizeUrl(baseUrl),
    capabilities: { structuredOutput: true, logprobs: false, embeddings: true },
    parameters: {
      ...(settings.contextSize !== undefined ? { contextSize: settings.contextSize } : {}),
      ...(settings.embeddingModel ? { embeddingModel: settings.embeddingModel } : {}),
    },
    defaultStructuredOutput: "jsonSchema",
    defaultConcurrency: 2,

    async complete(request, signal) {
      const chat = chatModel({
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
        ...(request.seed !== undefined ? { seed: request.seed } : {}),
      });
      const callOptions = {
        signal,
        ...(request.stop ? { stop: [...request.stop] } : {}),
        ...(request.structured ? structuredCallOptions(request.structured) : {}),
      };
      // ChatOllama streams even for invoke; it concatenates the NDJSON chunks and sums the usage.
      const reply = await runAttempt(signal, () => callChatModel(chat, request.messages, callOptions, false));
      return { text: replyText(reply, request.structured?.method === "functionCalling"), usage: usageOf(reply) };
    },

    embed: ollamaEmbedder(model, baseUrl, settings),
  };
}

/** The `ollama:` provider's factory: the driver with every layer of {@link createChatBackend}. */
export function createOllamaBackend(model: string, settings: ResolvedSettings<OllamaSettings>): ChatBackend {
  return createChatBackend(createOllamaDriver(model, settings), settings);
}
