/**
 * `langchain:<provider>:<model>`: any chat-model integration LangChain's `initChatModel` knows and the
 * user has installed (`@langchain/anthropic`, `@langchain/google-genai`, `@langchain/mistralai`,
 * `@langchain/aws`, … ; `@langchain/openai` and `@langchain/ollama` come with us) becomes a backend with
 * our structured output and repair, retries, cache and judge. `langchain:anthropic:claude-sonnet-4-5`,
 * `langchain:openai:gpt-4o-mini`.
 *
 * Settings: `apiKey` and `baseUrl` go to the integration (OpenAI's as `configuration.baseURL`); without
 * them the integration reads its own environment variables (`ANTHROPIC_API_KEY`, …). Structured output
 * defaults to a forced tool call (`functionCalling`), which the major integrations support;
 * `structuredOutput: "prompt"` works with any chat model. Embeddings and logprobs are not offered.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AIMessage, AIMessageChunk } from "@langchain/core/messages";
import { createChatBackend } from "./chat-backend.ts";
import { sanitizeUrl } from "./sanitize-url.ts";
import type { LangChainSettings, ResolvedSettings } from "./settings.ts";
import { AnamnesisError } from "../foundation/errors.ts";
import { NoSuchModelError } from "./errors.ts";
import { attemptFetch, runAttempt } from "./attempt-fetch.ts";
import { callChatModel, modelCache, replyText, toLangChainMessages, usageOf } from "./langchain.ts";
import type { ChatBackend, CompletionRequest, ModelDriver } from "./spec.ts";
import { importExternal } from "../foundation/external-import.ts";

/** Sent to a local OpenAI-compatible server (a base URL, no key configured). */
const LOCAL_SERVER_API_KEY = "sk-no-key-required";

/** Splits `<provider>:<model>` (the part after `langchain:`); the model may contain colons. */
export function parseLangChainModel(id: string, model: string): { provider: string; model: string } {
  const colon = model.indexOf(":");
  if (colon <= 0 || colon === model.length - 1) {
    throw new NoSuchModelError(
      id,
      `backend id "${id}" must be langchain:<provider>:<model>, e.g. langchain:anthropic:claude-sonnet-4-5`,
    );
  }
  return { provider: model.slice(0, colon), model: model.slice(colon + 1) };
}

/** Constructor fields for the integration, from our settings. */
function integrationFields(
  provider: string,
  settings: ResolvedSettings<LangChainSettings>,
  fields: { temperature?: number; maxTokens?: number },
): Record<string, unknown> {
  const openai = provider === "openai";
  // OpenAI's client refuses to start without a key, which a local OpenAI-compatible server does not need.
  const apiKey = settings.apiKey ?? (openai && settings.baseUrl !== undefined ? LOCAL_SERVER_API_KEY : undefined);
  return {
    maxRetries: 0, // our retry policy, not the integration's (6 by default)
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(settings.baseUrl !== undefined && !openai ? { baseUrl: settings.baseUrl } : {}),
    // OpenAI's client takes our fetch, so cancellation and Retry-After reach the real request.
    ...(openai
      ? {
          configuration: {
            fetch: attemptFetch,
            ...(settings.baseUrl !== undefined ? { baseURL: settings.baseUrl } : {}),
          },
        }
      : {}),
    ...(fields.temperature !== undefined ? { temperature: fields.temperature } : {}),
    ...(fields.maxTokens !== undefined ? { maxTokens: fields.maxTokens } : {}),
  };
}

async function initModel(
  id: string,
  provider: string,
  model: string,
  fields: Record<string, unknown>,
): Promise<BaseChatModel> {
  const { initChatModel } = await importExternal<typeof import("langchain/chat_models/universal")>(
    "langchain/chat_models/universal",
  );
  try {
    return await initChatModel(model, { modelProvider: provider, ...fields });
  } catch (error) {
    throw new NoSuchModelError(
      id,
      `LangChain cannot make a chat model for ${provider}:${model}: ${(error as Error).message.split("\n")[0]}`,
    );
  }
}

/**
 * One structured call, the raw reply kept for our parser and repair: a forced tool call bound with
 * `bindTools` (LangChain's own structured-output parsing would throw or warn on invalid arguments), or
 * the integration's response format for `jsonSchema` / `jsonMode`.
 */
async function callStructured(
  chat: BaseChatModel,
  request: CompletionRequest,
  structured: NonNullable<CompletionRequest["structured"]>,
  callOptions: Record<string, unknown>,
) {
  const messages = toLangChainMessages(request.messages);
  if (structured.method === "functionCalling") {
    if (!chat.bindTools)
      throw new AnamnesisError(
        "INVALID_ARGUMENT",
        "this LangChain chat model has no tool calling; set structuredOutput to prompt",
      );
    const tool = { type: "function" as const, function: { name: structured.name, parameters: structured.jsonSchema } };
    return (await chat.bindTools([tool], { tool_choice: structured.name }).invoke(messages, callOptions)) as
      AIMessage | AIMessageChunk;
  }
  const method = structured.method === "jsonMode" ? "jsonMode" : "jsonSchema";
  const runnable = chat.withStructuredOutput(structured.jsonSchema, {
    name: structured.name,
    method,
    includeRaw: true,
  });
  const result = (await runnable.invoke(messages, callOptions)) as { raw: AIMessage | AIMessageChunk };
  return result.raw;
}

export function createLangChainDriver(
  id: string,
  model: string,
  settings: ResolvedSettings<LangChainSettings>,
): ModelDriver {
  const target = parseLangChainModel(id, model);
  const chatModel = modelCache((fields: { temperature?: number; maxTokens?: number }) =>
    initModel(id, target.provider, target.model, integrationFields(target.provider, settings, fields)),
  );
  return {
    provider: "langchain",
    model,
    endpoint: settings.baseUrl !== undefined ? sanitizeUrl(settings.baseUrl) : `langchain:${target.provider}`,
    capabilities: { structuredOutput: true, logprobs: false, embeddings: false },
    parameters: settings.baseUrl !== undefined ? { baseUrl: sanitizeUrl(settings.baseUrl) } : {},
    defaultStructuredOutput: "functionCalling",
    defaultConcurrency: 4,

    async complete(request, signal) {
      const chat = await chatModel({
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
      });
      const callOptions = { signal, ...(request.stop ? { stop: [...request.stop] } : {}) };
      const structured = request.structured;
      const native = structured !== undefined && structured.method !== "prompt";
      const reply = await runAttempt(signal, () =>
        native
          ? callStructured(chat, request, structured, callOptions)
          : callChatModel(chat, request.messages, callOptions, false),
      );
      return { text: replyText(reply, structured?.method === "functionCalling"), usage: usageOf(reply) };
    },
  };
}

/** The `langchain:` provider's factory. */
export function createLangChainBackend(
  model: string,
  settings: ResolvedSettings<LangChainSettings>,
  id: string,
): ChatBackend {
  return createChatBackend(createLangChainDriver(id, model, settings), settings, {
    secrets: settings.apiKey ? [settings.apiKey] : [],
  });
}
