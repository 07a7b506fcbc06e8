/**
 * Chat servers for the server tests, closed by the helper whether the tests pass or fail: for a whole
 * file ({@link chatServerForFile}) or for the current test ({@link chatServerForTest}); and
 * {@link callApi}, one JSON call to the server's API.
 */
import { afterAll, beforeAll, onTestFinished } from "vitest";
import { startChatServer, type ChatServerOptions } from "../../server/app.ts";

export type ChatServer = Awaited<ReturnType<typeof startChatServer>>;

/** `startChatServer`, with a `close` that may be called again (by a test, then by the helper that owns it). */
async function startChatServerClosingOnce(options: ChatServerOptions): Promise<ChatServer> {
  const server = await startChatServer(options);
  let closed: Promise<void> | undefined;
  return { ...server, close: () => (closed ??= server.close()) };
}

/**
 * A chat server for the tests of this file (or suite): started before the first with the options
 * `options()` returns then (so it may use what an earlier `beforeAll` built), closed after the last.
 * Read its `url` and `registry` inside tests.
 */
export function chatServerForFile(
  options: () => ChatServerOptions | Promise<ChatServerOptions>,
): Pick<ChatServer, "url" | "registry"> {
  let server: ChatServer | undefined;
  beforeAll(async () => {
    server = await startChatServerClosingOnce(await options());
  });
  afterAll(async () => {
    await server?.close();
  });
  const started = (): ChatServer => {
    if (!server) throw new Error("the chat server starts in beforeAll: read it inside a test");
    return server;
  };
  return {
    get url() {
      return started().url;
    },
    get registry() {
      return started().registry;
    },
  };
}

/** A chat server closed when the current test finishes (a test may close it earlier itself). Call it inside a test. */
export async function chatServerForTest(options: ChatServerOptions): Promise<ChatServer> {
  const server = await startChatServerClosingOnce(options);
  onTestFinished(() => server.close());
  return server;
}

/** What {@link callApi} answers: the status and the JSON body (`null` for 204). */
export interface ApiAnswer {
  readonly status: number;
  readonly json: any;
}

/**
 * One call to the chat server's API at `base`: `body` is sent as JSON; `raw`, when given, is sent as it
 * is with a JSON content type (malformed JSON).
 */
export async function callApi(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  raw?: string,
): Promise<ApiAnswer> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body !== undefined || raw !== undefined ? { "content-type": "application/json" } : {},
    body: raw ?? (body !== undefined ? JSON.stringify(body) : undefined),
  });
  return { status: response.status, json: response.status === 204 ? null : await response.json() };
}
