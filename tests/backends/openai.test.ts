import { readdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createBackend } from "../../src/backends/registry.ts";
import type { BackendOptions } from "../../src/backends/config.ts";
import { UsageRecorder, describeBackend } from "../../src/backends/run-record.ts";
import { AnamnesisError } from "../../src/foundation/errors.ts";
import { fakeServerSubject, runBackendContract } from "./backend-contract.ts";
import { scripted, type FakeServerOptions } from "../../test-support/fake-llm-server.ts";
import {
  GOOD_ACTIONS,
  GOOD_FRAMES,
  doctorActionsSchema,
  fakeServerBackendForTest,
  nluFramesSchema,
  tempDirForTest,
} from "./helpers.ts";

const USER = [{ role: "user", content: "I have had a cough for two days." }] as const;

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

for (const streaming of [false, true]) {
  runBackendContract(`openai${streaming ? " (SSE streaming)" : ""}`, () =>
    fakeServerSubject("openai", "openai:gpt-4o-mini", { apiKey: "sk-contract-secret-1234", streaming }),
  );
}

describe("openai backend against a fake OpenAI server", () => {
  /** openai:gpt-4o-mini on a fresh fake server and cache, closed and removed when the test finishes. */
  const open = (serverOptions: FakeServerOptions = {}, options: BackendOptions = {}) =>
    fakeServerBackendForTest("openai", "openai:gpt-4o-mini", serverOptions, { retryBaseDelayMs: 10, ...options });

  it("sends a plain chat completion and reads the text and usage", async () => {
    const { server, backend } = await open({ respond: () => ({ content: "Hello." }) }, { apiKey: "sk-test-key" });
    const result = await backend.generate(USER, { temperature: 0, maxTokens: 20 });
    expect(result.text).toBe("Hello.");
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    const call = server.calls[0]!;
    expect(call.body).toMatchObject({ model: "gpt-4o-mini", temperature: 0, max_tokens: 20, stream: false });
    expect(call.messages).toEqual([{ role: "user", content: USER[0].content }]);
    expect(call.headers.authorization).toBe("Bearer sk-test-key");
  });

  it("sends the organization and project when set, by option or by the OpenAI SDK's environment variables (negative control: neither set)", async () => {
    const byOption = await open({ respond: () => ({ content: "ok" }) }, { organization: "org-1", project: "proj-1" });
    await byOption.backend.generate(USER);
    expect(byOption.server.calls[0]!.headers["openai-organization"]).toBe("org-1");
    expect(byOption.server.calls[0]!.headers["openai-project"]).toBe("proj-1");
    const byEnv = await open(
      { respond: () => ({ content: "ok" }) },
      { env: { OPENAI_ORGANIZATION: "org-2", OPENAI_PROJECT_ID: "proj-2" } },
    );
    await byEnv.backend.generate(USER);
    expect(byEnv.server.calls[0]!.headers["openai-organization"]).toBe("org-2");
    expect(byEnv.server.calls[0]!.headers["openai-project"]).toBe("proj-2");
    const neither = await open({ respond: () => ({ content: "ok" }) });
    await neither.backend.generate(USER);
    expect(neither.server.calls[0]!.headers).not.toHaveProperty("openai-organization");
    expect(neither.server.calls[0]!.headers).not.toHaveProperty("openai-project");
  });

  it("sends a dummy API key when none is configured (local servers)", async () => {
    const { server, backend } = await open();
    await backend.generate(USER);
    expect(server.calls[0]!.headers.authorization).toMatch(/^Bearer \S+/);
  });

  it("asks for json_schema with optional fields made nullable, and accepts nulls for them", async () => {
    const { server, backend } = await open({
      respond: () => ({
        content: JSON.stringify({ actions: [{ action: "inquire", symptom: [{ value: "cough", checks: null }] }] }),
      }),
    });
    const result = await backend.generateObject(USER, doctorActionsSchema, { schemaName: "doctor_actions" });
    expect(result.formatError).toBeUndefined();
    expect(result.object).toEqual({ actions: [{ action: "inquire", symptom: [{ value: "cough" }] }] });
    const format = server.calls[0]!.body.response_format;
    expect(format.type).toBe("json_schema");
    expect(format.json_schema.name).toBe("doctor_actions");
    expect(format.json_schema.strict).toBe(true);
    const item = format.json_schema.schema.properties.actions.items;
    expect(item.required).toEqual(["action", "symptom"]);
    expect(item.additionalProperties).toBe(false);
    expect(item.properties.symptom.type).toEqual(["array", "null"]);
  });

  it("sends strict: false for a schema with records (MediTOD slots)", async () => {
    const { server, backend } = await open({ respond: () => ({ content: JSON.stringify(GOOD_FRAMES) }) });
    const result = await backend.generateObject(USER, nluFramesSchema);
    expect(result.object).toEqual(GOOD_FRAMES);
    expect(server.calls[0]!.body.response_format.json_schema.strict).toBe(false);
  });

  it("reads JSON out of a fenced block with surrounding prose without a repair", async () => {
    const { backend } = await open({
      respond: () => ({
        content: `Sure, here it is:\n\`\`\`json\n${JSON.stringify(GOOD_FRAMES, null, 2)}\n\`\`\`\nAnything else?`,
      }),
    });
    const result = await backend.generateObject(USER, nluFramesSchema);
    expect(result).toMatchObject({ object: GOOD_FRAMES, repaired: false });
  });

  it("repairs malformed JSON with one extra request", async () => {
    const { server, backend } = await open({
      respond: scripted({ content: '{"frames": [{"intent": "inform",' }, { content: JSON.stringify(GOOD_FRAMES) }),
    });
    const result = await backend.generateObject(USER, nluFramesSchema);
    expect(result).toMatchObject({ object: GOOD_FRAMES, repaired: true, cached: false });
    expect(result.formatError).toBeUndefined();
    const repair = server.calls[1]!.messages;
    expect(repair.at(-2)).toEqual({ role: "assistant", content: '{"frames": [{"intent": "inform",' });
    expect(repair.at(-1)!.content).toContain("not valid JSON");
    expect(result.usage.inputTokens).toBe(
      server.calls.reduce(
        (sum, call) => sum + Math.max(1, Math.ceil(call.messages.map((m) => m.content).join(" ").length / 4)),
        0,
      ),
    );
  });

  it("puts the zod issue path into the repair request", async () => {
    const { server, backend } = await open({
      respond: scripted(
        { content: JSON.stringify({ frames: [{ intent: "greeting" }] }) },
        { content: JSON.stringify(GOOD_FRAMES) },
      ),
    });
    const result = await backend.generateObject(USER, nluFramesSchema);
    expect(result).toMatchObject({ object: GOOD_FRAMES, repaired: true });
    expect(server.calls).toHaveLength(2);
    expect(server.calls[1]!.messages.at(-1)!.content).toContain("at frames[0].intent:");
  });

  it("returns a format error with the raw text after a second schema violation, and counts it", async () => {
    const bad = JSON.stringify({ frames: [{ intent: "greeting", slots: { symptom: [{ value: 3 }] } }] });
    const recorder = new UsageRecorder();
    const { server, backend } = await open({ respond: () => ({ content: bad }) }, { recorder });
    const result = await backend.generateObject(USER, nluFramesSchema);
    expect(result.object).toBeNull();
    expect(result.raw).toBe(bad);
    expect(result.repaired).toBe(true);
    expect(result.formatError?.kind).toBe("schema_violation");
    expect(result.formatError?.message).toContain("frames[0].slots.symptom[0].value");
    expect(server.calls).toHaveLength(2);

    await backend.generateObject([{ role: "user", content: "another turn" }], nluFramesSchema, { noCache: true });
    const summary = recorder.summary();
    expect(summary).toMatchObject({ objects: 2, repaired: 2, formatErrors: 2, formatErrorRate: 1, requests: 4 });
  });

  it.each([false, true])("reads structured output from a forced tool call (streaming: %s)", async (streaming) => {
    const { server, backend } = await open({ respond: () => ({ toolArguments: GOOD_ACTIONS }) }, { streaming });
    const result = await backend.generateObject(USER, doctorActionsSchema, {
      method: "functionCalling",
      schemaName: "act",
    });
    expect(result.object).toEqual(GOOD_ACTIONS);
    const body = server.calls[0]!.body;
    expect(body.stream).toBe(streaming);
    expect(body.tools[0].function.name).toBe("act");
    expect(body.tool_choice).toEqual({ type: "function", function: { name: "act" } });
  });

  it("puts the schema into the system message in jsonMode", async () => {
    const { server, backend } = await open({ respond: () => ({ content: JSON.stringify(GOOD_ACTIONS) }) });
    const result = await backend.generateObject(
      [{ role: "system", content: "You are a doctor." }, ...USER],
      doctorActionsSchema,
      {
        method: "jsonMode",
      },
    );
    expect(result.object).toEqual(GOOD_ACTIONS);
    expect(server.calls[0]!.body.response_format).toEqual({ type: "json_object" });
    expect(server.calls[0]!.messages[0]!.content).toMatch(/^You are a doctor\.\n\nReply with only a JSON value/);
  });

  it("streams SSE and reads usage from the final chunk", async () => {
    const { server, backend } = await open(
      { respond: () => ({ content: "A streamed reply that spans several chunks." }) },
      { streaming: true },
    );
    const result = await backend.generate(USER);
    expect(result.text).toBe("A streamed reply that spans several chunks.");
    expect(result.usage.outputTokens).toBe(Math.ceil(result.text.length / 4));
    expect(server.calls[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it("honours Retry-After on 429 and then succeeds", async () => {
    const recorder = new UsageRecorder();
    const { server, backend } = await open(
      { respond: scripted({ status: 429, headers: { "retry-after": "1" } }, { content: "ok" }) },
      { recorder, retryBaseDelayMs: 1 },
    );
    const result = await backend.generate(USER);
    expect(result.text).toBe("ok");
    const waited = server.requests[1]!.at - server.requests[0]!.at;
    expect(waited).toBeGreaterThanOrEqual(990);
    expect(recorder.records[0]!.attempts).toBe(2);
  });

  it("retries a 500 and then succeeds", async () => {
    const { server, backend } = await open({ respond: scripted({ status: 500 }, { status: 503 }, { content: "ok" }) });
    expect((await backend.generate(USER)).text).toBe("ok");
    expect(server.calls).toHaveLength(3);
  });

  it("does not retry a 400 and names the endpoint", async () => {
    const { server, backend } = await open({ respond: () => ({ status: 400 }) });
    const error = await backend.generate(USER).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnamnesisError);
    expect((error as AnamnesisError).code).toBe("BACKEND_ERROR");
    expect((error as Error).message).toContain(server.baseUrl);
    expect((error as Error).message).toContain("HTTP 400");
    expect(server.calls).toHaveLength(1);
  });

  it("times out a server that never answers, once per attempt", async () => {
    const { server, backend } = await open({ respond: () => ({ hang: true }) }, { timeoutMs: 200, maxRetries: 1 });
    const error = await backend.generate(USER).catch((e: unknown) => e);
    expect((error as AnamnesisError).code).toBe("BACKEND_ERROR");
    expect((error as Error).message).toMatch(/no response within 200 ms \(timeout\) \(gave up after 2 attempts\)/);
    expect((error as Error).message).toContain(server.baseUrl);
    expect(server.calls).toHaveLength(2);
  });

  it("ends with a clear error for a dead endpoint", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const backend = await createBackend("openai:gpt-4o-mini", {
      baseUrl: `http://127.0.0.1:${port}/v1`,
      cacheDir: tempDirForTest(),
      env: {},
      config: {},
      maxRetries: 2,
      retryBaseDelayMs: 10,
    });
    const error = await backend.generate(USER).catch((e: unknown) => e);
    expect((error as AnamnesisError).code).toBe("BACKEND_ERROR");
    expect((error as Error).message).toContain(`http://127.0.0.1:${port}/v1`);
    expect((error as Error).message).toContain("connection refused (ECONNREFUSED)");
    expect((error as Error).message).toContain("gave up after 3 attempts");
  });

  it("cancels a request in flight with an AbortSignal", async () => {
    const { backend } = await open({ respond: () => ({ hang: true }) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user cancelled")), 100);
    // The server never answers: only the abort can end this call (else the test times out).
    await expect(backend.generate(USER, { signal: controller.signal })).rejects.toThrow("user cancelled");
  });

  it("never has more requests in flight than the concurrency limit", async () => {
    const { server, backend } = await open({ latencyMs: 60 }, { concurrency: 3 });
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) => backend.generate([{ role: "user", content: `question ${i}` }])),
    );
    expect(results.map((r) => r.text)).toEqual(Array.from({ length: 15 }, (_, i) => `echo: question ${i}`));
    expect(server.maxInFlight).toBe(3);
  });

  it("re-runs from the cache with zero requests and the original latency; noCache bypasses", async () => {
    const { server, backend, anotherBackend } = await open({ latencyMs: 30 });
    const prompts = ["first", "second", "third"].map((content) => [{ role: "user" as const, content }]);
    const original = await Promise.all(prompts.map((messages) => backend.generate(messages, { temperature: 0 })));
    const originalObject = await backend.generateObject(USER, nluFramesSchema);
    const sent = server.requests.length;

    const again = await anotherBackend();
    const replay = await Promise.all(prompts.map((messages) => again.generate(messages, { temperature: 0 })));
    const replayObject = await again.generateObject(USER, nluFramesSchema);
    expect(server.requests.length).toBe(sent);
    expect(replay).toEqual(original.map((result) => ({ ...result, cached: true })));
    expect(replayObject).toEqual({ ...originalObject, cached: true });
    expect(original[0]!.latencyMs).toBeGreaterThanOrEqual(25);

    const bypass = await again.generate(prompts[0]!, { temperature: 0, noCache: true });
    expect(bypass.cached).toBe(false);
    const disabled = await anotherBackend({ noCache: true });
    expect((await disabled.generate(prompts[1]!, { temperature: 0 })).cached).toBe(false);
    expect(server.requests.length).toBe(sent + 2);
  });

  it("keeps the API key out of run records, the cache and error messages", async () => {
    const secret = "sk-live-0123456789abcdef";
    const recorder = new UsageRecorder();
    const { backend, cacheDir } = await open(
      {
        respond: scripted(
          { content: "fine" },
          {
            status: 401,
            body: { error: { message: `Incorrect API key provided: ${secret}`, type: "invalid_request_error" } },
          },
        ),
      },
      { apiKey: secret, recorder },
    );
    await backend.generate(USER);
    const error = await backend.generate([{ role: "user", content: "again" }]).catch((e: unknown) => e);
    expect((error as AnamnesisError).code).toBe("BACKEND_ERROR");
    expect((error as Error).message).toContain("HTTP 401");
    expect((error as Error).message).not.toContain(secret);
    expect((error as Error).cause).toBeUndefined();

    const record = JSON.stringify({
      header: await describeBackend(backend),
      requests: recorder.records,
      summary: recorder.summary(),
      backend,
    });
    expect(record).toContain("openai:gpt-4o-mini");
    expect(record).not.toContain(secret);
    for (const file of listFiles(cacheDir)) expect(readFileSync(file, "utf8")).not.toContain(secret);
  });
});
