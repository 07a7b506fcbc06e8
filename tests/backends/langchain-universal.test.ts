import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBackend } from "../../src/backends/registry.ts";
import { NoSuchModelError } from "../../src/backends/errors.ts";
import { runBackendContract, scriptableModel } from "./backend-contract.ts";
import { startFakeOpenAIServer, type FakeServer } from "./fake-llm-server.ts";
import { nluFramesSchema, tempDir, GOOD_FRAMES } from "./helpers.ts";

/**
 * `langchain:<provider>:<model>` goes through LangChain's initChatModel; tested with its OpenAI
 * integration (@langchain/openai) against the local fake OpenAI server.
 */

const USER = [{ role: "user", content: "I have had a cough for two days." }] as const;

runBackendContract("langchain:openai (initChatModel)", async () => {
  const model = scriptableModel("openai");
  const server = await startFakeOpenAIServer({ respond: model.respond });
  const cache = tempDir();
  const backend = await createBackend("langchain:openai:gpt-4o-mini", {
    baseUrl: server.baseUrl,
    apiKey: "sk-langchain-secret-9012",
    cacheDir: cache.path,
    env: {},
    config: {},
    retryBaseDelayMs: 1,
  });
  return {
    backend,
    secret: "sk-langchain-secret-9012",
    scriptReplies: model.scriptReplies,
    requestCount: () => server.requests.length,
    dispose: async () => {
      await server.close();
      cache.remove();
    },
  };
});

describe("langchain:<provider>:<model>", () => {
  let cache: { path: string; remove: () => void };
  let server: FakeServer | undefined;
  beforeEach(() => {
    cache = tempDir();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    cache.remove();
  });

  async function open(options: Record<string, unknown> = {}) {
    server = await startFakeOpenAIServer();
    const backend = await createBackend("langchain:openai:gpt-4o-mini", { baseUrl: server.baseUrl, apiKey: "sk-test", cacheDir: cache.path, env: {}, config: {}, ...options });
    return { server, backend };
  }

  it("reaches the server through the integration with our key, model and settings", async () => {
    const { server, backend } = await open();
    const result = await backend.generate(USER, { temperature: 0, maxTokens: 20 });
    expect(result.text).toBe(`echo: ${USER[0].content}`);
    const call = server.calls[0]!;
    expect(call.body).toMatchObject({ model: "gpt-4o-mini", temperature: 0, max_tokens: 20 });
    expect(call.headers.authorization).toBe("Bearer sk-test");
    expect(backend.id).toBe("langchain:openai:gpt-4o-mini");
  });

  it("asks for structured output as a forced tool call by default and parses the arguments", async () => {
    const { server, backend } = await open();
    const result = await backend.generateObject(USER, nluFramesSchema, { schemaName: "frames" });
    expect(result.formatError).toBeUndefined();
    expect(nluFramesSchema.safeParse(result.object).success).toBe(true);
    expect(server.calls[0]!.structured).toBe("tools");
    expect(server.calls[0]!.body.tools[0].function.name).toBe("frames");
  });

  it("puts the schema in the prompt with structuredOutput: prompt, for models without tools", async () => {
    server = await startFakeOpenAIServer({ respond: () => ({ content: JSON.stringify(GOOD_FRAMES) }) });
    const backend = await createBackend("langchain:openai:gpt-4o-mini", { baseUrl: server.baseUrl, structuredOutput: "prompt", cacheDir: cache.path, env: {}, config: {} });
    const result = await backend.generateObject(USER, nluFramesSchema);
    expect(result.object).toEqual(GOOD_FRAMES);
    expect(server.calls[0]!.body.tools).toBeUndefined();
    expect(server.calls[0]!.body.response_format).toBeUndefined();
    expect(server.calls[0]!.messages.map((m) => m.content).join("\n")).toContain("JSON");
  });

  it("names the expected form when the provider or model is missing, and LangChain's reason for an unknown provider", async () => {
    await expect(createBackend("langchain:gpt-4o-mini", { env: {}, config: {} }).then((b) => b.generate(USER))).rejects.toThrow(
      /must be langchain:<provider>:<model>/,
    );
    const unknown = await createBackend("langchain:nosuchprovider:model-x", { env: {}, config: {}, cacheDir: cache.path, maxRetries: 0 })
      .then((backend) => backend.generate(USER))
      .catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(Error);
    expect((unknown as Error).message).toMatch(/nosuchprovider/);
  });

  it("is refused early as a NoSuchModelError for a bad id", async () => {
    const error = await createBackend("langchain:", { env: {}, config: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoSuchModelError);
  });
});
