/**
 * Local fake LLM servers on 127.0.0.1 (random port) speaking the real wire protocols, for driving the
 * real LangChain clients in tests and benchmarks:
 * - OpenAI chat completions (`POST /v1/chat/completions`): plain content, `response_format`
 *   (json_schema / json_object), forced tool calls, logprobs, SSE streaming ending in `data: [DONE]`
 *   with a usage chunk; `POST /v1/embeddings` (float or base64);
 * - Ollama (`POST /api/chat`): NDJSON streaming (ChatOllama always streams) and non-streaming,
 *   `format` (schema or "json"), tool calls; `POST /api/embed`.
 *
 * A responder decides each reply; the default one behaves like an obedient model: it echoes plain
 * prompts and answers structured requests with a minimal instance of the requested JSON schema.
 * Faults for the fault-injection suite: an error status (with `Retry-After` or any body), a hang, a
 * dropped connection, garbage with status 200 (`garbage`), and a reply cut off mid-stream (`cut`);
 * `embed` answers embedding requests the same way. The server records every request and the maximum
 * number in flight at once.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatCall {
  /** 0-based order of arrival among chat calls. */
  readonly index: number;
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: Record<string, any>;
  readonly messages: Array<{ role: string; content: string }>;
  /** The JSON schema the client asked for (response_format, format, tool parameters, or from the prompt). */
  readonly schema?: Record<string, unknown>;
  readonly structured?: "json_schema" | "json_object" | "tools" | "format" | "format_json";
  readonly stream: boolean;
}

export type Reply =
  | { readonly content: string }
  | { readonly toolArguments: string | Record<string, unknown> }
  | { readonly status: number; readonly headers?: Record<string, string>; readonly body?: unknown }
  | { readonly hang: true }
  | { readonly destroy: true }
  /** Status 200 with this body as it is (an HTML error page, a truncated JSON, another API's answer). */
  | { readonly garbage: string; readonly contentType?: string }
  /** The start of a valid reply (headers and part of the body), then the connection is dropped. */
  | { readonly cut: true };

/** The replies a model gives (not faults). */
type ModelReply = Extract<Reply, { content: string } | { toolArguments: unknown }>;

export type Responder = (call: ChatCall) => Reply | Promise<Reply>;

export interface FakeServer {
  readonly url: string;
  /** What a client is configured with: `<url>/v1` for OpenAI, `<url>` for Ollama. */
  readonly baseUrl: string;
  readonly calls: ChatCall[];
  /** Every request, including embeddings, with the time it arrived (performance.now()). */
  readonly requests: Array<{
    path: string;
    body: Record<string, any>;
    /** The body's bytes as text, as the client sent them (key order, spacing). */
    raw: string;
    headers: IncomingMessage["headers"];
    /** The headers as sent: names in the client's case and order, alternating with their values. */
    rawHeaders: string[];
    at: number;
  }>;
  readonly maxInFlight: number;
  /** Requests whose connection is still open (a cancelled client request closes its connection). */
  readonly inFlight: number;
  close(): Promise<void>;
}

export interface FakeServerOptions {
  readonly respond?: Responder;
  /** A fault to answer an embedding request with (`undefined`: the normal answer). */
  readonly embedFault?: (body: Record<string, any>) => Reply | undefined;
  /** Delay before each reply. */
  readonly latencyMs?: number;
  /** The embedding of a text (default: a small deterministic vector of its character codes). */
  readonly embed?: (text: string) => number[];
}

/** A minimal value that satisfies a JSON schema (first enum value, empty arrays, required members). */
export function instanceOf(schema: unknown): unknown {
  if (schema === null || typeof schema !== "object") return null;
  const node = schema as Record<string, any>;
  if (node.const !== undefined) return node.const;
  if (Array.isArray(node.enum)) return node.enum[0];
  if (Array.isArray(node.anyOf)) return instanceOf(node.anyOf[0]);
  if (Array.isArray(node.oneOf)) return instanceOf(node.oneOf[0]);
  const type = Array.isArray(node.type) ? (node.type.find((t: string) => t !== "null") ?? "null") : node.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const name of node.required ?? []) out[name] = instanceOf(node.properties?.[name]);
      return out;
    }
    case "array":
      return Array.from({ length: node.minItems ?? 0 }, () => instanceOf(node.items));
    case "string":
      return "x";
    case "number":
    case "integer":
      return 0;
    case "boolean":
      return false;
    default:
      return null;
  }
}

const SCHEMA_IN_PROMPT = /JSON Schema, with no other text:\n(\{[\s\S]*\})\s*$/;

/** The default responder: echo plain prompts, follow requested schemas. */
export const obedientModel: Responder = (call) => {
  if (call.schema) {
    const value = instanceOf(call.schema);
    return call.structured === "tools" ? { toolArguments: JSON.stringify(value) } : { content: JSON.stringify(value) };
  }
  const lastUser = [...call.messages].reverse().find((message) => message.role === "user");
  return { content: `echo: ${lastUser?.content ?? ""}` };
};

/** Replies in order, one per chat call; the last one repeats. Entries may be responders. */
export function scripted(...replies: Array<Reply | Responder>): Responder {
  return (call) => {
    const reply = replies[Math.min(call.index, replies.length - 1)]!;
    return typeof reply === "function" ? reply(call) : reply;
  };
}

function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((part) => (typeof part === "string" ? part : (part?.text ?? ""))).join("");
  return "";
}

function pieces(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += 7) out.push(text.slice(i, i + 7));
  return out.length > 0 ? out : [""];
}

function fakeEmbedding(text: string): number[] {
  const vector = [0, 0, 0, 0];
  for (let i = 0; i < text.length; i++) vector[i % 4]! += text.charCodeAt(i) / 1000;
  return vector;
}

/** The request body as sent, and parsed. */
async function readBody(request: IncomingMessage): Promise<{ raw: string; body: Record<string, any> }> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  return { raw, body: raw ? (JSON.parse(raw) as Record<string, any>) : {} };
}

function describeOpenAICall(
  index: number,
  path: string,
  headers: IncomingMessage["headers"],
  body: Record<string, any>,
): ChatCall {
  const messages = (body.messages ?? []).map((m: any) => ({ role: m.role, content: textOf(m.content) }));
  const base = { index, path, headers, body, messages, stream: body.stream === true };
  if (body.response_format?.type === "json_schema") {
    return { ...base, schema: body.response_format.json_schema.schema, structured: "json_schema" };
  }
  if (body.tools?.length) return { ...base, schema: body.tools[0].function.parameters, structured: "tools" };
  const system = messages.find((m: { role: string }) => m.role === "system");
  const inPrompt = system ? SCHEMA_IN_PROMPT.exec(system.content) : null;
  const promptSchema = inPrompt ? (JSON.parse(inPrompt[1]!) as Record<string, unknown>) : undefined;
  if (body.response_format?.type === "json_object") {
    return { ...base, structured: "json_object", ...(promptSchema ? { schema: promptSchema } : {}) };
  }
  return promptSchema ? { ...base, schema: promptSchema } : base;
}

function describeOllamaCall(
  index: number,
  path: string,
  headers: IncomingMessage["headers"],
  body: Record<string, any>,
): ChatCall {
  const messages = (body.messages ?? []).map((m: any) => ({ role: m.role, content: textOf(m.content) }));
  const base = { index, path, headers, body, messages, stream: body.stream !== false };
  if (body.format && typeof body.format === "object") return { ...base, schema: body.format, structured: "format" };
  if (body.tools?.length) return { ...base, schema: body.tools[0].function.parameters, structured: "tools" };
  const system = messages.find((m: { role: string }) => m.role === "system");
  const inPrompt = system ? SCHEMA_IN_PROMPT.exec(system.content) : null;
  const promptSchema = inPrompt ? (JSON.parse(inPrompt[1]!) as Record<string, unknown>) : undefined;
  if (body.format === "json")
    return { ...base, structured: "format_json", ...(promptSchema ? { schema: promptSchema } : {}) };
  return promptSchema ? { ...base, schema: promptSchema } : base;
}

function sendOpenAIChat(response: ServerResponse, call: ChatCall, reply: ModelReply): void {
  const id = `chatcmpl-${call.index}`;
  const model = call.body.model;
  const promptTokens = tokens(call.messages.map((m) => m.content).join(" "));
  const isTool = "toolArguments" in reply;
  const toolArguments = isTool
    ? typeof reply.toolArguments === "string"
      ? reply.toolArguments
      : JSON.stringify(reply.toolArguments)
    : "";
  const content = isTool ? "" : reply.content;
  const usage = { prompt_tokens: promptTokens, completion_tokens: tokens(content || toolArguments), total_tokens: 0 };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  const toolName = call.body.tools?.[0]?.function?.name ?? "extract";
  const logprobs =
    !isTool && call.body.logprobs
      ? {
          content: pieces(content).map((token, i) => ({
            token,
            logprob: -0.5 * (i + 1),
            bytes: null,
            top_logprobs: [{ token, logprob: -0.5 * (i + 1) }],
          })),
        }
      : null;

  if (!call.stream) {
    const message = isTool
      ? {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_0", type: "function", function: { name: toolName, arguments: toolArguments } }],
        }
      : { role: "assistant", content };
    response.writeHead(200, { "content-type": "application/json" });
    response.end(
      JSON.stringify({
        id,
        object: "chat.completion",
        created: 1_700_000_000,
        model,
        choices: [{ index: 0, message, finish_reason: isTool ? "tool_calls" : "stop", logprobs }],
        usage,
      }),
    );
    return;
  }
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    response.write(
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 1_700_000_000, model, choices, ...extra })}\n\n`,
    );
  chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]);
  if (isTool) {
    pieces(toolArguments).forEach((part, i) =>
      chunk([
        {
          index: 0,
          delta: {
            tool_calls: [
              {
                index: 0,
                ...(i === 0 ? { id: "call_0", type: "function" } : {}),
                function: { ...(i === 0 ? { name: toolName } : {}), arguments: part },
              },
            ],
          },
          finish_reason: null,
        },
      ]),
    );
  } else {
    for (const part of pieces(content)) chunk([{ index: 0, delta: { content: part }, finish_reason: null }]);
  }
  chunk([{ index: 0, delta: {}, finish_reason: isTool ? "tool_calls" : "stop" }]);
  if (call.body.stream_options?.include_usage) chunk([], { usage });
  response.end("data: [DONE]\n\n");
}

function sendOllamaChat(response: ServerResponse, call: ChatCall, reply: ModelReply): void {
  const model = call.body.model;
  const createdAt = "2024-01-01T00:00:00Z";
  const isTool = "toolArguments" in reply;
  const toolArguments = isTool
    ? typeof reply.toolArguments === "string"
      ? JSON.parse(reply.toolArguments)
      : reply.toolArguments
    : undefined;
  const content = isTool ? "" : reply.content;
  const counts = {
    total_duration: 1000,
    load_duration: 10,
    prompt_eval_count: tokens(call.messages.map((m) => m.content).join(" ")),
    prompt_eval_duration: 100,
    eval_count: tokens(content || JSON.stringify(toolArguments ?? "")),
    eval_duration: 500,
  };
  const toolCalls = isTool
    ? [{ function: { name: call.body.tools?.[0]?.function?.name ?? "extract", arguments: toolArguments } }]
    : undefined;
  if (!call.stream) {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(
      JSON.stringify({
        model,
        created_at: createdAt,
        message: { role: "assistant", content, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
        done: true,
        done_reason: "stop",
        ...counts,
      }),
    );
    return;
  }
  response.writeHead(200, { "content-type": "application/x-ndjson" });
  const line = (value: unknown) => response.write(`${JSON.stringify(value)}\n`);
  if (toolCalls)
    line({
      model,
      created_at: createdAt,
      message: { role: "assistant", content: "", tool_calls: toolCalls },
      done: false,
    });
  else
    for (const part of pieces(content))
      line({ model, created_at: createdAt, message: { role: "assistant", content: part }, done: false });
  line({
    model,
    created_at: createdAt,
    message: { role: "assistant", content: "" },
    done: true,
    done_reason: "stop",
    ...counts,
  });
  response.end();
}

function sendEmbeddings(
  response: ServerResponse,
  protocol: "openai" | "ollama",
  body: Record<string, any>,
  embed: (text: string) => number[],
): void {
  const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
  const vectors = inputs.map((text) => embed(text));
  response.writeHead(200, { "content-type": "application/json" });
  if (protocol === "ollama") {
    response.end(
      JSON.stringify({
        model: body.model,
        embeddings: vectors,
        total_duration: 10,
        load_duration: 1,
        prompt_eval_count: inputs.length,
      }),
    );
    return;
  }
  const data = vectors.map((vector, index) => ({
    object: "embedding",
    index,
    embedding:
      body.encoding_format === "base64" ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector,
  }));
  const used = tokens(inputs.join(" "));
  response.end(
    JSON.stringify({ object: "list", data, model: body.model, usage: { prompt_tokens: used, total_tokens: used } }),
  );
}

/** Sends `reply` if it is a fault; false for a normal reply. */
function sendFault(
  request: IncomingMessage,
  response: ServerResponse,
  protocol: "openai" | "ollama",
  reply: Reply,
): boolean {
  if ("hang" in reply) return true;
  if ("destroy" in reply) {
    request.socket.destroy();
    return true;
  }
  if ("status" in reply) {
    const errorBody =
      reply.body ??
      (protocol === "openai"
        ? { error: { message: `fake error ${reply.status}`, type: "server_error" } }
        : { error: `fake error ${reply.status}` });
    response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
    response.end(typeof errorBody === "string" ? errorBody : JSON.stringify(errorBody));
    return true;
  }
  if ("garbage" in reply) {
    response.writeHead(200, { "content-type": reply.contentType ?? "application/json" });
    response.end(reply.garbage);
    return true;
  }
  if ("cut" in reply) {
    response.writeHead(200, {
      "content-type": protocol === "openai" ? "application/json" : "application/x-ndjson",
      "content-length": "4096",
    });
    response.write(
      protocol === "openai"
        ? '{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"I ha'
        : '{"model":"m","message":{"role":"assistant","content":"I ha"},"done":false}\n{"model":"m","mess',
    );
    setTimeout(() => request.socket.destroy(), 5);
    return true;
  }
  return false;
}

async function startFakeServer(protocol: "openai" | "ollama", options: FakeServerOptions): Promise<FakeServer> {
  const respond = options.respond ?? obedientModel;
  const calls: ChatCall[] = [];
  const requests: FakeServer["requests"] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const chatPath = protocol === "openai" ? "/v1/chat/completions" : "/api/chat";
  const embedPath = protocol === "openai" ? "/v1/embeddings" : "/api/embed";

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let counted = true;
    const done = () => {
      if (counted) inFlight--;
      counted = false;
    };
    response.on("close", done);
    try {
      const { raw, body } = await readBody(request);
      const path = (request.url ?? "").split("?")[0]!;
      requests.push({
        path,
        body,
        raw,
        headers: request.headers,
        rawHeaders: request.rawHeaders,
        at: performance.now(),
      });
      if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
      if (request.method === "POST" && path === embedPath) {
        const fault = options.embedFault?.(body);
        if (fault && sendFault(request, response, protocol, fault)) return;
        return sendEmbeddings(response, protocol, body, options.embed ?? fakeEmbedding);
      }
      if (request.method !== "POST" || path !== chatPath) {
        response.writeHead(404, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: `no route ${request.method} ${path}` }));
        return;
      }
      const call = (protocol === "openai" ? describeOpenAICall : describeOllamaCall)(
        calls.length,
        path,
        request.headers,
        body,
      );
      calls.push(call);
      const reply = await respond(call);
      if (sendFault(request, response, protocol, reply)) return;
      (protocol === "openai" ? sendOpenAIChat : sendOllamaChat)(response, call, reply as ModelReply);
    } catch (error) {
      if (!response.headersSent) response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: String(error) }));
    }
  };
  const server: Server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseUrl: protocol === "openai" ? `${url}/v1` : url,
    calls,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    get inFlight() {
      return inFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function startFakeOpenAIServer(options: FakeServerOptions = {}): Promise<FakeServer> {
  return startFakeServer("openai", options);
}

export function startFakeOllamaServer(options: FakeServerOptions = {}): Promise<FakeServer> {
  return startFakeServer("ollama", options);
}
