/**
 * A `fetch` that ties every HTTP request to the attempt that made it, for the drivers whose clients
 * make their own requests (ollama.ts and langchain-universal.ts through LangChain, openai.ts's
 * embeddings), and the attempt that runs a client call in that context.
 *
 * Why the fetch: ChatOllama does not pass an AbortSignal to its HTTP client, and the ollama client's
 * errors carry no response headers. Running each attempt inside an AsyncLocalStorage context lets
 * {@link attemptFetch} abort the real request on timeout/cancellation and remember the status and
 * headers (`Retry-After`) of a failed response, whichever client made it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { answerShapeOf, malformedAnswer } from "./answer-shapes.ts";
import { MalformedAnswerError } from "./errors.ts";
import { BufferedResponse, keepAliveFetch } from "./keep-alive-fetch.ts";

interface AttemptContext {
  readonly signal: AbortSignal;
  failedResponse?: { status: number; headers: Headers };
  /** Why a 200 answer is not the protocol's (an HTML page, another API's JSON): the attempt fails with this. */
  malformed?: string;
  /** Input tokens the embedding responses of this attempt reported (LangChain's embedding clients drop them). */
  embeddingTokens: number;
}

/** Embedding endpoints of the OpenAI and Ollama protocols, and where each reports its input tokens. */
const EMBEDDING_USAGE: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [/\/embeddings$/, /"prompt_tokens"\s*:\s*(\d+)/],
  [/\/api\/embed$/, /"prompt_eval_count"\s*:\s*(\d+)/],
];

/** Adds the input tokens an embedding response reports; the count sits at the end of the body. */
async function countEmbeddingTokens(context: AttemptContext, url: string, response: Response): Promise<void> {
  const path = url.replace(/[?#].*$/, "");
  const usage = EMBEDDING_USAGE.find(([endpoint]) => endpoint.test(path))?.[1];
  if (!usage) return;
  const tail = (await bodyText(response)).slice(-512);
  const count = usage.exec(tail)?.[1];
  if (count !== undefined) context.embeddingTokens += Number(count);
}

/** The body of an answer as text, leaving the answer readable by the client library. */
function bodyText(response: Response): Promise<string> {
  return response instanceof BufferedResponse ? Promise.resolve(response.bodyText) : response.clone().text();
}

const attemptContext = new AsyncLocalStorage<AttemptContext>();

/** Records in the context why a 200 answer is not what the protocol says (streams are left to the client). */
async function checkAnswer(context: AttemptContext, path: string, response: Response): Promise<void> {
  const type = response.headers.get("content-type") ?? "";
  if (/ndjson|event-stream/.test(type) || !answerShapeOf(path)) return;
  const problem = malformedAnswer(path, type, await bodyText(response));
  if (problem) context.malformed = problem.message;
}

/**
 * An Ollama error whose `error` is an object (some gateways send OpenAI-style `{"error": {"message"}}`):
 * the ollama client would print it as "[object Object]", so the answer is rewritten with its message.
 */
async function readableOllamaError(path: string, response: Response): Promise<Response> {
  if (!path.includes("/api/")) return response;
  const text = await bodyText(response);
  let error: unknown;
  try {
    error = (JSON.parse(text) as { error?: unknown }).error;
  } catch {
    return response;
  }
  if (error === null || typeof error !== "object") return response;
  const message =
    typeof (error as { message?: unknown }).message === "string"
      ? (error as { message: string }).message
      : JSON.stringify(error);
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.delete("content-encoding");
  return new Response(JSON.stringify({ error: message }), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/** `fetch` for LangChain clients: aborts with the current attempt, records failed responses, checks answers. */
export const attemptFetch: typeof fetch = async (input, init) => {
  const context = attemptContext.getStore();
  if (!context) return keepAliveFetch(input, init);
  const response = await keepAliveFetch(input, init, [context.signal]);
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const path = new URL(url).pathname;
  if (!response.ok) {
    context.failedResponse = { status: response.status, headers: response.headers };
    return readableOllamaError(path, response);
  }
  await checkAnswer(context, path, response);
  await countEmbeddingTokens(context, url, response);
  return response;
};

/** An error annotated with the HTTP status and headers of the failed response behind it. */
class HttpResponseError extends Error {
  readonly status: number;
  readonly headers: Headers;

  constructor(status: number, headers: Headers, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "HttpResponseError";
    this.status = status;
    this.headers = headers;
  }
}

/** Runs one attempt so that {@link attemptFetch} sees its signal; annotates HTTP failures. */
export async function runAttempt<T>(signal: AbortSignal, call: () => Promise<T>): Promise<T> {
  return (await runCountedAttempt(signal, call)).value;
}

/** {@link runAttempt}, also returning the input tokens the attempt's embedding responses reported. */
export async function runCountedAttempt<T>(
  signal: AbortSignal,
  call: () => Promise<T>,
): Promise<{ value: T; embeddingTokens: number }> {
  const context: AttemptContext = { signal, embeddingTokens: 0 };
  let value: T;
  try {
    value = await attemptContext.run(context, call);
  } catch (error) {
    // The client choked on a malformed answer ("Cannot read properties of undefined"): say what was wrong with it.
    if (context.malformed) throw new MalformedAnswerError(context.malformed, { cause: error });
    const failed = context.failedResponse;
    const hasStatus = error !== null && typeof error === "object" && "status" in error && "headers" in error;
    if (failed && !hasStatus) throw new HttpResponseError(failed.status, failed.headers, error);
    throw error;
  }
  if (context.malformed) throw new MalformedAnswerError(context.malformed);
  return { value, embeddingTokens: context.embeddingTokens };
}
