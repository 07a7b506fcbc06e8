import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createChatBackend } from "../../src/backends/chat-backend.ts";
import { loadConfig, resolveSettings } from "../../src/backends/config.ts";
import { sanitizeUrl } from "../../src/backends/sanitize-url.ts";
import { NoSuchModelError, NoSuchProviderError } from "../../src/backends/errors.ts";
import { createBackend, listProviders, parseBackendId, registerProvider } from "../../src/backends/registry.ts";
import { AnamnesisError } from "../../src/foundation/errors.ts";
import { tempDir } from "./helpers.ts";

describe("backend ids", () => {
  it("split at the first colon", () => {
    expect(parseBackendId("openai:gpt-4o-mini")).toEqual({ provider: "openai", model: "gpt-4o-mini" });
    expect(parseBackendId("ollama:llama3.1:8b")).toEqual({ provider: "ollama", model: "llama3.1:8b" });
    expect(parseBackendId("llamacpp:/models/m.gguf")).toEqual({ provider: "llamacpp", model: "/models/m.gguf" });
    expect(parseBackendId("embedded")).toEqual({ provider: "embedded", model: "" });
  });

  it("has the built-in providers", () => {
    expect(listProviders()).toEqual(expect.arrayContaining(["openai", "ollama", "llamacpp", "embedded"]));
  });

  it("rejects an unknown provider with NoSuchProviderError listing what exists", async () => {
    const error = await createBackend("anthropic:claude", { env: {}, config: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoSuchProviderError);
    expect(error).toBeInstanceOf(NoSuchModelError);
    expect((error as AnamnesisError).code).toBe("NO_SUCH_MODEL");
    expect((error as NoSuchProviderError).providerId).toBe("anthropic");
    expect((error as Error).message).toMatch(
      /no such backend provider "anthropic".*openai:<model>.*ollama:<model>.*llamacpp:<path to \.gguf>.*embedded/,
    );
  });

  it("rejects an id without provider or without model", async () => {
    const bare = await createBackend("gpt-4o", { env: {}, config: {} }).catch((e: unknown) => e);
    expect(bare).toBeInstanceOf(NoSuchModelError);
    expect((bare as Error).message).toContain("expected provider:model");
    const empty = await createBackend("openai:", { env: {}, config: {} }).catch((e: unknown) => e);
    expect((empty as Error).message).toContain('backend id "openai:" names no model');
  });

  it("rejects a missing GGUF file before loading node-llama-cpp", async () => {
    const error = await createBackend("llamacpp:/nonexistent/model.gguf", { env: {}, config: {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NoSuchModelError);
    expect((error as Error).message).toContain("no GGUF model file at /nonexistent/model.gguf");
  });

  it("registers `embedded` as an ordinary provider that explains why it is no chat backend", async () => {
    const error = await createBackend("embedded", { env: {}, config: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnamnesisError);
    expect((error as Error).message).toContain("embedded is the offline MediTOD engine");
    expect((error as Error).message).not.toContain("not available");
  });

  it("lets a registration replace a provider", async () => {
    const dir = tempDir();
    try {
      registerProvider(
        "replaceable",
        (_model, settings) =>
          createChatBackend(
            {
              provider: "replaceable",
              model: "",
              endpoint: "in-process",
              capabilities: { structuredOutput: false, logprobs: false, embeddings: false },
              parameters: {},
              defaultStructuredOutput: "prompt",
              defaultConcurrency: 1,
              complete: async (request) => ({
                text: `rule-based reply to ${request.messages.length} message(s)`,
                usage: { inputTokens: 1, outputTokens: 1 },
              }),
            },
            settings,
          ),
        { modelRequired: false },
      );
      const backend = await createBackend("replaceable", { env: {}, config: {}, cacheDir: dir.path });
      expect(backend.id).toBe("replaceable");
      expect((await backend.generate([{ role: "user", content: "hi" }])).text).toBe("rule-based reply to 1 message(s)");
    } finally {
      dir.remove();
    }
  });
});

describe("configuration", () => {
  let dir: { path: string; remove: () => void };
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.remove());

  it("layers flags over environment over the config file (backend > provider > defaults)", () => {
    const config = {
      cacheDir: "/from/config",
      defaults: { concurrency: 3, temperature: 0.5, maxRetries: 1 },
      providers: { openai: { baseUrl: "http://config-provider/v1", temperature: 0.2, maxTokens: 100 } },
      backends: { "openai:gpt-4o-mini": { maxTokens: 200 } },
    };
    const fromEnv = (env: NodeJS.ProcessEnv) => (env.OPENAI_BASE_URL ? { baseUrl: env.OPENAI_BASE_URL } : {});
    const fileOnly = resolveSettings("openai:gpt-4o-mini", "openai", { env: {}, config }, fromEnv);
    expect(fileOnly).toMatchObject({
      baseUrl: "http://config-provider/v1",
      temperature: 0.2,
      maxTokens: 200,
      concurrency: 3,
      cacheDir: "/from/config",
    });

    const env = { OPENAI_BASE_URL: "http://env/v1", ANAMNESIS_CACHE_DIR: "/from/env" };
    const withEnv = resolveSettings("openai:gpt-4o-mini", "openai", { env, config }, fromEnv);
    expect(withEnv).toMatchObject({ baseUrl: "http://env/v1", cacheDir: "/from/env" });

    const withFlags = resolveSettings(
      "openai:gpt-4o-mini",
      "openai",
      { env, config, baseUrl: "http://flag/v1", concurrency: 9, cacheDir: "/flag" },
      fromEnv,
    );
    expect(withFlags).toMatchObject({ baseUrl: "http://flag/v1", concurrency: 9, cacheDir: "/flag", maxRetries: 1 });
  });

  it("reads ANAMNESIS_CONFIG and validates it with paths", () => {
    const file = join(dir.path, "config.json");
    writeFileSync(file, JSON.stringify({ providers: { ollama: { baseUrl: "http://gpu-box:11434", concurrency: 4 } } }));
    expect(loadConfig(undefined, { ANAMNESIS_CONFIG: file })).toEqual({
      providers: { ollama: { baseUrl: "http://gpu-box:11434", concurrency: 4 } },
    });

    writeFileSync(file, JSON.stringify({ providers: { ollama: { concurrency: 0, colour: "red" } } }));
    const error = (() => {
      try {
        loadConfig(undefined, { ANAMNESIS_CONFIG: file });
      } catch (e) {
        return e as AnamnesisError;
      }
    })();
    expect(error?.code).toBe("INVALID_DATA");
    expect(error?.message).toContain("providers.ollama.concurrency");
    expect(error?.message).toContain("colour");

    writeFileSync(file, "{ not json");
    expect(() => loadConfig(undefined, { ANAMNESIS_CONFIG: file })).toThrow(/not valid JSON/);
    expect(() => loadConfig(undefined, { ANAMNESIS_CONFIG: join(dir.path, "missing.json") })).toThrow(
      /config file not found/,
    );
  });

  it("uses XDG_CONFIG_HOME/anamnesis/config.json by default and tolerates its absence", () => {
    expect(loadConfig(undefined, { XDG_CONFIG_HOME: dir.path })).toEqual({});
  });

  it("rejects bad flag values with the backend id", () => {
    expect(() => resolveSettings("openai:x", "openai", { env: {}, config: {}, concurrency: -1 })).toThrow(
      /backend openai:x: concurrency/,
    );
  });

  it("strips credentials from URLs", () => {
    expect(sanitizeUrl("https://user:pw@gateway.example/v1?api-key=abc&region=eu")).toBe(
      "https://gateway.example/v1?api-key=REDACTED&region=eu",
    );
    expect(sanitizeUrl("http://127.0.0.1:8000/v1/")).toBe("http://127.0.0.1:8000/v1");
  });
});
