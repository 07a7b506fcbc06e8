import { describe, expect, it } from "vitest";
import type { BackendOptions } from "../../src/backends/config.ts";
import { createBackend } from "../../src/backends/registry.ts";
import { NoSuchModelError } from "../../src/backends/errors.ts";
import { fakeServerSubject, runBackendContract } from "./backend-contract.ts";
import type { FakeServerOptions } from "../../test-support/fake-llm-server.ts";
import { nluFramesSchema, fakeServerBackendForTest, tempDirForTest, GOOD_FRAMES } from "./helpers.ts";

/**
 * `langchain:<provider>:<model>` goes through LangChain's initChatModel; tested with its OpenAI
 * integration (@langchain/openai) against the local fake OpenAI server.
 */

const USER = [{ role: "user", content: "I have had a cough for two days." }] as const;

runBackendContract("langchain:openai (initChatModel)", () =>
  fakeServerSubject("openai", "langchain:openai:gpt-4o-mini", {
    apiKey: "sk-langchain-secret-9012",
    retryBaseDelayMs: 1,
  }),
);

describe("langchain:<provider>:<model>", () => {
  /** langchain:openai:gpt-4o-mini on a fresh fake OpenAI server and cache, closed and removed when the test finishes. */
  const open = (serverOptions: FakeServerOptions = {}, options: BackendOptions = {}) =>
    fakeServerBackendForTest("openai", "langchain:openai:gpt-4o-mini", serverOptions, {
      apiKey: "sk-test",
      ...options,
    });

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
    const { server, backend } = await open(
      { respond: () => ({ content: JSON.stringify(GOOD_FRAMES) }) },
      { structuredOutput: "prompt" },
    );
    const result = await backend.generateObject(USER, nluFramesSchema);
    expect(result.object).toEqual(GOOD_FRAMES);
    expect(server.calls[0]!.body.tools).toBeUndefined();
    expect(server.calls[0]!.body.response_format).toBeUndefined();
    expect(server.calls[0]!.messages.map((m) => m.content).join("\n")).toContain("JSON");
  });

  it("names the expected form when the provider or model is missing, and LangChain's reason for an unknown provider", async () => {
    await expect(
      createBackend("langchain:gpt-4o-mini", { env: {}, config: {} }).then((b) => b.generate(USER)),
    ).rejects.toThrow(/must be langchain:<provider>:<model>/);
    const unknown = await createBackend("langchain:nosuchprovider:model-x", {
      env: {},
      config: {},
      cacheDir: tempDirForTest(),
      maxRetries: 0,
    })
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
