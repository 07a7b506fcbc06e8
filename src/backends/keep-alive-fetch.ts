/**
 * A `fetch` over `node:http` / `node:https` with keep-alive agents, for the LLM client libraries.
 *
 * Why not the global `fetch`: Node 20's fetch (undici behind WHATWG streams) spends about 0.45 ms of
 * CPU on one small local request, against 0.1 ms for `http.request` and 0.2–0.25 ms for this one
 * (bench/http-transport.ts). At concurrency 32 against a 50 ms server the client's one event loop, not
 * the server, set the pace: an official-protocol request cost the client 1.1–1.3 ms of CPU over the
 * global fetch and 0.75–0.85 ms over this one (bench/backends.ts).
 *
 * It covers what the OpenAI and Ollama clients send: a string or byte body, any headers, abort
 * signals. JSON answers are read whole, so that {@link BufferedResponse.bodyText} can be checked without
 * teeing the stream; streamed answers (server-sent events, NDJSON) are passed on as a web stream.
 * gzip, deflate and br bodies are decoded. Anything else (a `Request` object, a form or stream body, a
 * redirect to follow) goes to the global `fetch`, so behaviour never depends on which path was taken.
 * Failures look like fetch's: a `TypeError("fetch failed")` with the socket error as its `cause`, and
 * the signal's reason (an `AbortError` by default) on abort.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

/** One pool of kept-alive sockets per scheme for the whole process (idle sockets do not hold it open). */
const AGENTS = { "http:": new HttpAgent({ keepAlive: true }), "https:": new HttpsAgent({ keepAlive: true }) } as const;

/** Answers whose body arrives piece by piece and must be handed on as it comes. */
const STREAMED_CONTENT = /event-stream|ndjson/i;

/** Statuses whose responses have no body (the `Response` constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** A response whose whole body was read as text: checks read {@link bodyText} instead of cloning. */
export class BufferedResponse extends Response {
  constructor(
    readonly bodyText: string,
    init: ResponseInit,
  ) {
    super(NULL_BODY_STATUSES.has(init.status ?? 200) ? null : bodyText, init);
  }
}

type FetchInput = Parameters<typeof fetch>[0];
type FetchInit = NonNullable<Parameters<typeof fetch>[1]>;

/** The body as bytes or text, or undefined when it is of a kind left to the global fetch. */
function plainBody(body: FetchInit["body"]): string | Uint8Array | null | undefined {
  if (body === undefined || body === null) return null;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return undefined;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** The decoded body stream of an answer (`content-encoding` gzip, deflate or br). */
function decodedBody(answer: IncomingMessage): Readable {
  const encoding = (answer.headers["content-encoding"] ?? "").trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : undefined;
  if (!decoder) return answer;
  answer.on("error", (error) => decoder.destroy(error));
  return answer.pipe(decoder);
}

/** The answer's headers, repeated ones kept, without the length and encoding of a body handed on decoded. */
function answerHeaders(answer: IncomingMessage): Headers {
  const headers = new Headers();
  for (let index = 0; index < answer.rawHeaders.length; index += 2)
    headers.append(answer.rawHeaders[index]!, answer.rawHeaders[index + 1]!);
  if (headers.has("content-encoding")) {
    headers.delete("content-encoding");
    headers.delete("content-length");
  }
  return headers;
}

/** The whole body as text (by its events: an async iterator costs a busy event loop more). */
function readText(body: Readable): Promise<string> {
  return new Promise((resolve, reject) => {
    body.setEncoding("utf8");
    let text = "";
    body.on("data", (chunk: string) => (text += chunk));
    body.once("end", () => resolve(text));
    body.once("error", reject);
    // A socket closed before the end of the body ("aborted") ends the stream without `end`.
    body.once("close", () => {
      if (!body.readableEnded) reject(new Error("the connection closed before the end of the answer"));
    });
  });
}

/** Header names lower-cased and sorted, as a `Headers` lists them (and fetch sends them). */
function fetchHeaders(init: FetchInit): Record<string, string> {
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  return headers;
}

/**
 * Sends one request with `headers` as they are (names as fetch sends them: see {@link fetchHeaders});
 * resolves with the answer's head, rejects as fetch does.
 */
function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | null,
  signals: readonly AbortSignal[],
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    // As fetch does: a known length rather than chunked transfer, which some model servers refuse.
    if (body !== null && headers["content-length"] === undefined)
      headers = {
        ...headers,
        "content-length": String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength),
      };
    const outgoing = (url.protocol === "https:" ? httpsRequest : httpRequest)(url, {
      method,
      headers,
      agent: AGENTS[url.protocol as keyof typeof AGENTS],
    });
    const onAbort = (signal: AbortSignal) => () => {
      outgoing.destroy();
      reject(abortReason(signal));
    };
    const listeners = signals.map((signal) => [signal, onAbort(signal)] as const);
    for (const [signal, listener] of listeners) signal.addEventListener("abort", listener, { once: true });
    // The listeners stay for the body too: an abort while reading destroys the answer stream.
    outgoing.once("close", () =>
      listeners.forEach(([signal, listener]) => signal.removeEventListener("abort", listener)),
    );
    outgoing.on("error", (error) => reject(new TypeError("fetch failed", { cause: error })));
    outgoing.on("response", resolve);
    outgoing.end(body ?? undefined);
  });
}

/** A redirect to follow: rare for API endpoints, so left to the global fetch. */
function isRedirect(answer: IncomingMessage): boolean {
  const status = answer.statusCode ?? 0;
  return status >= 300 && status < 400 && answer.headers.location !== undefined;
}

/** Reads an answer into a {@link BufferedResponse}, or wraps its stream for a streamed one. */
async function toResponse(answer: IncomingMessage, signals: readonly AbortSignal[]): Promise<Response> {
  const init = {
    status: answer.statusCode ?? 502,
    statusText: answer.statusMessage ?? "",
    headers: answerHeaders(answer),
  };
  const body = decodedBody(answer);
  const aborted = () => signals.find((signal) => signal.aborted);
  if (STREAMED_CONTENT.test(answer.headers["content-type"] ?? "")) {
    const stop = () => body.destroy(abortReason(aborted()!) as Error);
    signals.forEach((signal) => signal.addEventListener("abort", stop, { once: true }));
    body.once("close", () => signals.forEach((signal) => signal.removeEventListener("abort", stop)));
    return new Response(Readable.toWeb(body) as ReadableStream<Uint8Array>, init);
  }
  try {
    return new BufferedResponse(await readText(body), init);
  } catch (error) {
    const signal = aborted();
    throw signal ? abortReason(signal) : new TypeError("fetch failed", { cause: error });
  }
}

/**
 * `fetch(input, init)` through the keep-alive agents; `extraSignals` abort the request as `init.signal`
 * does (no `AbortSignal.any`, which costs a signal and weak references per request).
 */
export async function keepAliveFetch(
  input: FetchInput,
  init: FetchInit = {},
  extraSignals: readonly AbortSignal[] = [],
): Promise<Response> {
  const signals = [...(init.signal ? [init.signal] : []), ...extraSignals];
  const viaGlobalFetch = () =>
    fetch(input, { ...init, ...(signals.length > 0 ? { signal: AbortSignal.any(signals) } : {}) });
  const body = plainBody(init.body);
  const url = typeof input === "string" ? new URL(input) : input instanceof URL ? input : undefined;
  if (!url || body === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) return viaGlobalFetch();
  const already = signals.find((signal) => signal.aborted);
  if (already) throw abortReason(already);
  const answer = await send(url, init.method ?? "GET", fetchHeaders(init), body, signals);
  if (isRedirect(answer) && init.redirect !== "manual") {
    // Redirects are rare for API endpoints: fetch follows them by its rules (method, body, limits).
    answer.resume();
    return viaGlobalFetch();
  }
  return toResponse(answer, signals);
}

/** An answer read whole as text, without the `Response` and `Headers` a fetch builds for it. */
export interface TextAnswer {
  readonly status: number;
  readonly contentType: string;
  /** The answer's headers, made when asked for (an error answer's `Retry-After`). */
  headers(): Headers;
  readonly text: string;
}

/**
 * A POST of a text body whose answer is read whole as text: {@link keepAliveFetch}'s work without its
 * `Response`, for a client that checks the status and parses the text itself (a model client with
 * many requests in flight on one event loop). `headers` go as given, so give their names as fetch
 * sends them (lower case, in order). A streamed answer is read whole too. Undefined when the answer is a
 * redirect: send the request with {@link keepAliveFetch} then, which follows it as fetch does.
 */
export async function keepAliveText(
  url: URL,
  headers: Record<string, string>,
  body: string,
  signals: readonly AbortSignal[],
): Promise<TextAnswer | undefined> {
  const already = signals.find((signal) => signal.aborted);
  if (already) throw abortReason(already);
  const answer = await send(url, "POST", headers, body, signals);
  const contentType = answer.headers["content-type"] ?? "";
  if (isRedirect(answer)) {
    answer.resume();
    return undefined;
  }
  let text: string;
  try {
    text = await readText(decodedBody(answer));
  } catch (error) {
    const signal = signals.find((candidate) => candidate.aborted);
    throw signal ? abortReason(signal) : new TypeError("fetch failed", { cause: error });
  }
  return { status: answer.statusCode ?? 502, contentType, headers: () => answerHeaders(answer), text };
}
