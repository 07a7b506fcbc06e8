/**
 * `openai:<model>`: any OpenAI-compatible chat-completions server (OpenAI, vLLM, llama.cpp server,
 * LM Studio, a private gateway).
 *
 * Chat completions go through our own small client on {@link keepAliveFetch}: build the body
 * (openai-chat-request.ts), `POST {baseUrl}/chat/completions`, read the answer or its server-sent
 * events with zod (openai-chat-response.ts). LangChain's `ChatOpenAI` over the OpenAI SDK did the same
 * for about 3 ms of CPU per request on the one event loop that also runs the consultations. Embeddings
 * still go through LangChain's `OpenAIEmbeddings`.
 *
 * Base URL: option `baseUrl` / env `OPENAI_BASE_URL` / config (default `https://api.openai.com/v1`).
 * API key: option `apiKey` / env `OPENAI_API_KEY` / config; a dummy key is sent when none is set, which
 * local servers accept. Structured output defaults to `response_format: json_schema` with the strict
 * (nullable instead of optional) schema; `strict` is false for schemas with records.
 */
import type { OpenAIEmbeddings } from "@langchain/openai";
import { createChatBackend } from "./chat-backend.ts";
import { ApiConnectionError } from "./errors.ts";
import { BufferedResponse, keepAliveFetch, keepAliveText } from "./keep-alive-fetch.ts";
import { attemptFetch, runCountedAttempt } from "./attempt-fetch.ts";
import { chatCompletionBody } from "./openai-chat-request.ts";
import { apiCallError, readChatCompletion, readChatCompletionStream } from "./openai-chat-response.ts";
import { sanitizeUrl } from "./sanitize-url.ts";
import type { OpenAISettings, ResolvedSettings } from "./settings.ts";
import type { ChatBackend, CompletionRequest, CompletionResponse, ModelDriver } from "./spec.ts";
import { importExternal } from "../foundation/external-import.ts";

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";
/** Sent when no key is configured: local OpenAI-compatible servers need some key, not a real one. */
const DUMMY_API_KEY = "sk-no-key-required";
/** Who is asking, as the `user-agent` header says it. */
const USER_AGENT = `anamnesis (node/${process.version}; ${process.platform}; ${process.arch})`;

/** Where and as whom the driver connects. */
interface Connection {
  readonly baseURL: string;
  readonly apiKey: string;
}

/** `{baseURL}/chat/completions`, one slash between them (as the OpenAI SDK joins them). */
function completionsUrl(baseURL: string): URL {
  return new URL(`${baseURL}${baseURL.endsWith("/") ? "" : "/"}chat/completions`);
}

/** The request's headers (`content-length` is added by the fetch); the organization and project as the OpenAI SDK sent them. */
function requestHeaders(
  apiKey: string,
  settings: Pick<OpenAISettings, "organization" | "project">,
): Record<string, string> {
  return {
    accept: "application/json",
    authorization: `Bearer ${apiKey}`,
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    ...(settings.organization ? { "openai-organization": settings.organization } : {}),
    ...(settings.project ? { "openai-project": settings.project } : {}),
  };
}

/** An answer: its status and content type, its headers when asked for, and its text or (streamed) its body. */
interface Answer {
  readonly status: number;
  readonly contentType: string;
  headers(): Headers;
  readonly text?: string;
  readonly body?: ReadableStream<Uint8Array> | null;
}

/** The answer of a {@link keepAliveFetch}, read whole unless it is to be streamed. */
async function fetchedAnswer(response: Response, stream: boolean): Promise<Answer> {
  const answer = {
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    headers: () => response.headers,
  };
  if (stream && response.ok) return { ...answer, body: response.body };
  const text = response instanceof BufferedResponse ? response.bodyText : await response.text();
  return { ...answer, text };
}

/**
 * POSTs the body: read whole through {@link keepAliveText}, streamed (or redirected) through
 * {@link keepAliveFetch}. A failure to get an answer at all is an {@link ApiConnectionError}; an
 * abort stays the abort.
 */
async function post(url: URL, headers: Record<string, string>, body: string, stream: boolean, signal: AbortSignal) {
  try {
    const whole = stream ? undefined : await keepAliveText(url, headers, body, [signal]);
    if (whole) return whole;
    return await fetchedAnswer(await keepAliveFetch(url, { method: "POST", headers, body, signal }), stream);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new ApiConnectionError(error);
  }
}

/** One chat-completions attempt: the reply, or a typed error (HTTP status, connection, malformed answer). */
async function completeChat(
  connection: Connection & { url: URL; headers: Record<string, string> },
  model: string,
  request: CompletionRequest,
  { stream, signal }: { stream: boolean; signal: AbortSignal },
): Promise<CompletionResponse> {
  const body = chatCompletionBody(model, request, stream);
  const answer: Answer = await post(connection.url, connection.headers, body, stream, signal);
  const path = connection.url.pathname;
  const toolCall = request.structured?.method === "functionCalling";
  if (answer.status < 200 || answer.status >= 300)
    throw apiCallError(answer.status, answer.headers(), answer.text ?? "");
  if (answer.body) return readChatCompletionStream(answer.body, { path, toolCall });
  const { contentType } = answer;
  return readChatCompletion(answer.text ?? "", { path, contentType, toolCall, logprobs: !!request.logprobs });
}

/**
 * The embeddings client, made on first use. LangChain's OpenAI package (with the OpenAI SDK, LangChain
 * core and LangSmith: about 500 modules) is loaded only then: a chat or a benchmark on `openai:` needs
 * none of it, and loading it took about half of `anamnesis chat --backend openai:…`'s start.
 */
async function embeddingsClient(model: string, { baseURL, apiKey }: Connection): Promise<OpenAIEmbeddings> {
  const { OpenAIEmbeddings } = await importExternal<typeof import("@langchain/openai")>("@langchain/openai");
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
  const chat = {
    ...connection,
    url: completionsUrl(connection.baseURL),
    headers: requestHeaders(connection.apiKey, settings),
  };
  let embeddings: Promise<OpenAIEmbeddings> | undefined;

  return {
    provider: "openai",
    model,
    endpoint: sanitizeUrl(connection.baseURL),
    capabilities: { structuredOutput: true, logprobs: true, embeddings: true },
    parameters: settings.embeddingModel ? { embeddingModel: settings.embeddingModel } : {},
    defaultStructuredOutput: "jsonSchema",
    defaultConcurrency: 8,

    complete(request, signal) {
      // Logprobs are read from the whole (non-streamed) answer.
      return completeChat(chat, model, request, { stream: streaming && !request.logprobs, signal });
    },

    async embed(texts, signal) {
      const client = await (embeddings ??= embeddingsClient(settings.embeddingModel ?? model, connection));
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
