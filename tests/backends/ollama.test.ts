import { Ollama } from "ollama";
import { describe, expect, it } from "vitest";
import type { BackendOptions } from "../../src/backends/config.ts";
import { createBackend } from "../../src/backends/registry.ts";
import { AnamnesisError } from "../../src/foundation/errors.ts";
import { fakeServerSubject, runBackendContract } from "./backend-contract.ts";
import { scripted, type FakeServerOptions } from "../../test-support/fake-llm-server.ts";
import {
  GOOD_ACTIONS,
  GOOD_FRAMES,
  doctorActionsSchema,
  fakeServerBackendForTest,
  fakeServerForTest,
  nluFramesSchema,
  tempDirForTest,
} from "./helpers.ts";

const USER = [{ role: "user", content: "I have had a cough for two days." }] as const;

runBackendContract("ollama", () => fakeServerSubject("ollama", "ollama:llama3.1:8b"));

describe("ollama backend against a fake Ollama server", () => {
  /** ollama:llama3.1:8b on a fresh fake server and cache, closed and removed when the test finishes. */
  const open = (serverOptions: FakeServerOptions = {}, options: BackendOptions = {}) =>
    fakeServerBackendForTest("ollama", "ollama:llama3.1:8b", serverOptions, { retryBaseDelayMs: 10, ...options });

  it("streams /api/chat as NDJSON and sums the usage", async () => {
    const { server, backend } = await open({ respond: () => ({ content: "Since when do you have the cough?" }) });
    const result = await backend.generate(USER, { temperature: 0, maxTokens: 64, seed: 3 });
    expect(result.text).toBe("Since when do you have the cough?");
    expect(result.usage).toEqual({
      inputTokens: Math.ceil(USER[0].content.length / 4),
      outputTokens: Math.ceil(result.text.length / 4),
    });
    const body = server.calls[0]!.body;
    expect(body).toMatchObject({
      model: "llama3.1:8b",
      stream: true,
      options: { temperature: 0, num_predict: 64, seed: 3 },
    });
    expect(server.calls[0]!.messages).toEqual([{ role: "user", content: USER[0].content }]);
  });

  it("finds the host in OLLAMA_HOST, with or without a scheme", async () => {
    const server = await fakeServerForTest("ollama");
    const backend = await createBackend("ollama:qwen2.5", {
      cacheDir: tempDirForTest(),
      config: {},
      env: { OLLAMA_HOST: server.url.replace("http://", "") },
    });
    expect(backend.parameters.endpoint).toBe(server.url);
    expect((await backend.generate(USER)).text).toBe(`echo: ${USER[0].content}`);
  });

  it("sends the JSON schema as `format`, keeping optional fields optional", async () => {
    const { server, backend } = await open({ respond: () => ({ content: JSON.stringify(GOOD_FRAMES) }) });
    const result = await backend.generateObject(USER, nluFramesSchema);
    expect(result).toMatchObject({ object: GOOD_FRAMES, repaired: false });
    const format = server.calls[0]!.body.format;
    expect(format.type).toBe("object");
    expect(format.properties.frames.items.required).toEqual(["intent"]);
  });

  it("uses format: json and the schema in the prompt in jsonMode", async () => {
    const { server, backend } = await open();
    const result = await backend.generateObject(USER, doctorActionsSchema, { method: "jsonMode" });
    expect(result.formatError).toBeUndefined();
    expect(server.calls[0]!.body.format).toBe("json");
    expect(server.calls[0]!.messages[0]!.role).toBe("system");
  });

  it("reads structured output from a tool call", async () => {
    const { server, backend } = await open({ respond: () => ({ toolArguments: GOOD_ACTIONS }) });
    const result = await backend.generateObject(USER, doctorActionsSchema, {
      method: "functionCalling",
      schemaName: "act",
    });
    expect(result.object).toEqual(GOOD_ACTIONS);
    expect(server.calls[0]!.body.tools[0].function.name).toBe("act");
  });

  it("repairs a schema violation and reports a second one as a format error", async () => {
    const bad = { content: JSON.stringify({ actions: [{ action: "ask" }] }) };
    const { server, backend } = await open({ respond: scripted(bad, { content: JSON.stringify(GOOD_ACTIONS) }, bad) });
    const repaired = await backend.generateObject(USER, doctorActionsSchema);
    expect(repaired).toMatchObject({ object: GOOD_ACTIONS, repaired: true });
    expect(server.calls[1]!.messages.at(-1)!.content).toContain("at actions[0].action:");

    const failed = await backend.generateObject([{ role: "user", content: "next" }], doctorActionsSchema);
    expect(failed).toMatchObject({ object: null, raw: bad.content, repaired: true });
    expect(failed.formatError?.kind).toBe("schema_violation");
  });

  it("honours a Retry-After HTTP date on 503", async () => {
    const retryAt = () => new Date(Date.now() + 2000).toUTCString();
    const { server, backend } = await open({
      respond: scripted((_call) => ({ status: 503, headers: { "retry-after": retryAt() } }), { content: "ok" }),
    });
    expect((await backend.generate(USER)).text).toBe("ok");
    const waited = server.requests[1]!.at - server.requests[0]!.at;
    expect(waited).toBeGreaterThanOrEqual(900);
  });

  it("retries a 500 and then succeeds", async () => {
    const { server, backend } = await open({ respond: scripted({ status: 500 }, { content: "ok" }) });
    expect((await backend.generate(USER)).text).toBe("ok");
    expect(server.calls).toHaveLength(2);
  });

  it("times out a server that never answers and closes the connection", async () => {
    const { server, backend } = await open({ respond: () => ({ hang: true }) }, { timeoutMs: 200, maxRetries: 1 });
    const error = await backend.generate(USER).catch((e: unknown) => e);
    expect((error as AnamnesisError).code).toBe("BACKEND_ERROR");
    expect((error as Error).message).toContain(server.url);
    expect((error as Error).message).toContain("timeout");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.inFlight).toBe(0);
  });

  it("never has more requests in flight than the concurrency limit", async () => {
    const { server, backend } = await open({ latencyMs: 60 }, { concurrency: 2 });
    await Promise.all(Array.from({ length: 8 }, (_, i) => backend.generate([{ role: "user", content: `q${i}` }])));
    expect(server.maxInFlight).toBe(2);
  });

  it("the fake server also answers non-streaming /api/chat (raw ollama client)", async () => {
    const server = await fakeServerForTest("ollama", { respond: () => ({ content: "plain" }) });
    const client = new Ollama({ host: server.url });
    const reply = await client.chat({
      model: "llama3.1:8b",
      messages: [{ role: "user", content: "hi" }],
      stream: false,
    });
    expect(reply.message.content).toBe("plain");
    expect(reply.done).toBe(true);
  });
});
