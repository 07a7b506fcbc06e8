import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BufferedResponse, keepAliveFetch, keepAliveText } from "../../src/backends/keep-alive-fetch.ts";

/** What the server saw of the last request. */
let seen:
  { method: string; url: string; headers: IncomingMessage["headers"]; body: string; socketPort: number } | undefined;
let server: Server;
let base: string;

const ROUTES: Record<string, (request: IncomingMessage, response: ServerResponse) => void> = {
  "/json": (_, response) => {
    response.writeHead(200, [
      ["content-type", "application/json"],
      ["set-cookie", "a=1"],
      ["set-cookie", "b=2"],
    ]);
    response.end('{"ok":"é"}');
  },
  "/gzip": (_, response) => {
    response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
    response.end(gzipSync('{"packed":"gzip"}'));
  },
  "/deflate": (_, response) => {
    response.writeHead(200, { "content-type": "application/json", "content-encoding": "deflate" });
    response.end(deflateSync('{"packed":"deflate"}'));
  },
  "/br": (_, response) => {
    response.writeHead(200, { "content-type": "application/json", "content-encoding": "br" });
    response.end(brotliCompressSync('{"packed":"br"}'));
  },
  "/empty": (_, response) => {
    response.writeHead(204);
    response.end();
  },
  "/error": (_, response) => {
    response.writeHead(503, { "retry-after": "7", "content-type": "application/json" });
    response.end('{"error":"busy"}');
  },
  "/redirect": (_, response) => {
    response.writeHead(307, { location: "/json" });
    response.end();
  },
  "/stream": (_, response) => {
    response.writeHead(200, { "content-type": "application/x-ndjson" });
    response.write('{"n":1}\n');
    setTimeout(() => response.end('{"n":2}\n'), 30);
  },
  "/endless-stream": (_, response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write("data: 1\n\n");
  },
  "/hang": () => undefined,
  "/cut": (request, response) => {
    response.writeHead(200, { "content-type": "application/json", "content-length": "100" });
    response.write('{"partial":');
    setTimeout(() => request.socket.destroy(), 10);
  },
};

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      seen = {
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body,
        socketPort: request.socket.remotePort ?? 0,
      };
      (ROUTES[request.url ?? ""] ?? ROUTES["/json"]!)(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("keepAliveFetch", () => {
  it("sends method, headers and a string body with its byte length, and reads a JSON answer whole", async () => {
    const response = await keepAliveFetch(`${base}/json`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Key": "k" },
      body: '{"q":"ü"}',
    });
    expect(seen).toMatchObject({ method: "POST", url: "/json", body: '{"q":"ü"}' });
    expect(seen!.headers).toMatchObject({ "content-type": "application/json", "x-key": "k", "content-length": "10" });
    expect(seen!.headers["transfer-encoding"]).toBeUndefined();
    expect(response).toBeInstanceOf(BufferedResponse);
    expect((response as BufferedResponse).bodyText).toBe('{"ok":"é"}');
    expect(response.status).toBe(200);
    expect(response.headers.get("set-cookie")).toBe("a=1, b=2");
    expect(await response.json()).toEqual({ ok: "é" });
  });

  it("sends byte bodies as they are", async () => {
    await keepAliveFetch(`${base}/json`, { method: "POST", body: new TextEncoder().encode("bytes") });
    expect(seen).toMatchObject({ body: "bytes" });
    expect(seen!.headers["content-length"]).toBe("5");
  });

  it("keeps the connection alive between requests", async () => {
    await keepAliveFetch(`${base}/json`);
    const first = seen!.socketPort;
    await keepAliveFetch(`${base}/json`);
    expect(seen!.socketPort).toBe(first);
  });

  it.each(["gzip", "deflate", "br"])("decodes a %s body and drops the encoding headers", async (encoding) => {
    const response = await keepAliveFetch(`${base}/${encoding}`);
    expect(await response.json()).toEqual({ packed: encoding });
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("content-length")).toBeNull();
  });

  it("answers error statuses as responses with their headers, and a 204 with no body", async () => {
    const error = await keepAliveFetch(`${base}/error`);
    expect([error.status, error.ok, error.headers.get("retry-after"), await error.text()]).toEqual([
      503,
      false,
      "7",
      '{"error":"busy"}',
    ]);
    const empty = await keepAliveFetch(`${base}/empty`);
    expect([empty.status, empty.body]).toEqual([204, null]);
  });

  it("follows a redirect as fetch does", async () => {
    const response = await keepAliveFetch(`${base}/redirect`, { method: "POST", body: "again" });
    expect(await response.json()).toEqual({ ok: "é" });
    expect(seen).toMatchObject({ url: "/json", method: "POST", body: "again" });
  });

  it("hands a streamed answer on piece by piece", async () => {
    const response = await keepAliveFetch(`${base}/stream`);
    expect(response).not.toBeInstanceOf(BufferedResponse);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('{"n":1}\n');
    let rest = "";
    for (let part = await reader.read(); !part.done; part = await reader.read())
      rest += new TextDecoder().decode(part.value);
    expect(rest).toBe('{"n":2}\n');
  });

  it("rejects with the signal's reason: already aborted, while waiting, from an extra signal, and mid-stream", async () => {
    const reason = new Error("stop now");
    await expect(keepAliveFetch(`${base}/json`, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    const waiting = new AbortController();
    const pending = keepAliveFetch(`${base}/hang`, { signal: waiting.signal });
    setTimeout(() => waiting.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    const extra = new AbortController();
    const viaExtra = keepAliveFetch(`${base}/hang`, {}, [extra.signal]);
    setTimeout(() => extra.abort(reason), 20);
    await expect(viaExtra).rejects.toBe(reason);
    const streaming = new AbortController();
    const response = await keepAliveFetch(`${base}/endless-stream`, { signal: streaming.signal });
    const reader = response.body!.getReader();
    await reader.read();
    streaming.abort(reason);
    await expect(reader.read()).rejects.toBe(reason);
  });

  it("fails as fetch does, a TypeError whose cause has the socket code: refused, and cut mid-body", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(keepAliveFetch(`http://127.0.0.1:${port}/`)).rejects.toMatchObject({
      name: "TypeError",
      message: "fetch failed",
      cause: { code: "ECONNREFUSED" },
    });
    await expect(keepAliveFetch(`${base}/cut`)).rejects.toMatchObject({
      name: "TypeError",
      message: "fetch failed",
      cause: { code: "ECONNRESET" },
    });
  });

  it("leaves what it does not cover to the global fetch (a Request object, a form body)", async () => {
    const viaRequest = await keepAliveFetch(new Request(`${base}/json`, { method: "POST", body: "r" }));
    expect(viaRequest).not.toBeInstanceOf(BufferedResponse);
    expect(await viaRequest.json()).toEqual({ ok: "é" });
    const form = new URLSearchParams({ a: "1" });
    const viaForm = await keepAliveFetch(`${base}/json`, { method: "POST", body: form });
    expect(viaForm).not.toBeInstanceOf(BufferedResponse);
    expect(seen).toMatchObject({ body: "a=1" });
  });
});

describe("keepAliveText", () => {
  const post = (path: string, signals: AbortSignal[] = []) =>
    keepAliveText(
      new URL(`${base}${path}`),
      { "content-type": "application/json", "x-key": "k" },
      '{"q":"ü"}',
      signals,
    );

  it("sends the headers as given with the body's byte length, and reads the answer whole", async () => {
    const answer = await post("/json");
    expect(seen).toMatchObject({ method: "POST", url: "/json", body: '{"q":"ü"}' });
    expect(seen!.headers).toMatchObject({ "content-type": "application/json", "x-key": "k", "content-length": "10" });
    expect(answer).toMatchObject({ status: 200, contentType: "application/json", text: '{"ok":"é"}' });
    expect(answer!.headers().get("set-cookie")).toBe("a=1, b=2");
  });

  it("decodes an encoded body, reads an error answer with its headers, and a stream whole", async () => {
    expect((await post("/gzip"))!.text).toBe('{"packed":"gzip"}');
    const error = await post("/error");
    expect([error!.status, error!.headers().get("retry-after"), error!.text]).toEqual([503, "7", '{"error":"busy"}']);
    expect((await post("/stream"))!.text).toBe('{"n":1}\n{"n":2}\n');
  });

  it("leaves a redirect to keepAliveFetch", async () => {
    expect(await post("/redirect")).toBeUndefined();
  });

  it("fails as fetch does: the abort's reason, or a TypeError for a dropped answer", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stop")), 30);
    await expect(post("/hang", [controller.signal])).rejects.toThrow("stop");
    await expect(post("/json", [AbortSignal.abort(new Error("before"))])).rejects.toThrow("before");
    await expect(post("/cut")).rejects.toThrow(TypeError);
  });
});
