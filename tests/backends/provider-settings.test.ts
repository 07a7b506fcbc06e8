import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createChatBackend } from "../../src/backends/chat-backend.ts";
import { loadConfig, resolveSettings } from "../../src/backends/config.ts";
import { createBackend, describeBackendIds, registerProvider } from "../../src/backends/registry.ts";
import type { AnamnesisError } from "../../src/foundation/errors.ts";
import { tempDirForTest } from "./helpers.ts";
import { scriptedDriver } from "./scripted-driver.ts";

/** Each provider declares its id syntax and the settings it reads; the config file, environment and flags are checked by them. */

/** The config file format as documented before providers declared their settings (config.ts). */
const TODAYS_CONFIG = {
  cacheDir: "/data/anamnesis-cache",
  defaults: { concurrency: 8, timeoutMs: 120000, maxRetries: 4, temperature: 0, gpu: false, contextSize: 2048 },
  providers: {
    openai: { baseUrl: "http://127.0.0.1:8000/v1", apiKey: "sk-config-key", structuredOutput: "jsonSchema" },
    ollama: { baseUrl: "http://127.0.0.1:11434", concurrency: 2 },
    mine: "./my-provider.js",
    other: { module: "./other-provider.js", baseUrl: "http://127.0.0.1:9000" },
  },
  backends: { "openai:gpt-4o-mini": { maxTokens: 512 } },
};

function configFile(content: unknown): string {
  const file = join(tempDirForTest(), "config.json");
  writeFileSync(file, JSON.stringify(content));
  return file;
}

function configError(content: unknown): AnamnesisError {
  try {
    loadConfig(configFile(content));
  } catch (error) {
    return error as AnamnesisError;
  }
  throw new Error("the config loaded");
}

describe("provider settings", () => {
  it("load today's config file shape, and give each backend what its provider reads", () => {
    const config = loadConfig(configFile(TODAYS_CONFIG));
    expect(config.providers?.openai).toEqual(TODAYS_CONFIG.providers.openai);
    const openai = resolveSettings("openai:gpt-4o-mini", "openai", { env: {}, config });
    expect(openai).toMatchObject({
      baseUrl: "http://127.0.0.1:8000/v1",
      apiKey: "sk-config-key",
      maxTokens: 512,
      concurrency: 8,
      temperature: 0,
    });
    expect(openai).not.toHaveProperty("gpu");
    expect(openai).not.toHaveProperty("contextSize");
    const llamacpp = resolveSettings("llamacpp:/m.gguf", "llamacpp", {
      env: {},
      config,
      baseUrl: "http://flag/v1",
      threads: 1,
    });
    expect(llamacpp).toMatchObject({ gpu: false, contextSize: 2048, threads: 1, concurrency: 8 });
    expect(llamacpp).not.toHaveProperty("baseUrl");
  });

  it("keep the environment variables: OPENAI_BASE_URL, OPENAI_API_KEY and OLLAMA_HOST", async () => {
    const cacheDir = tempDirForTest();
    const openai = await createBackend("openai:m", {
      env: { OPENAI_BASE_URL: "http://env-box:8000/v1", OPENAI_API_KEY: "sk-env" },
      config: {},
      cacheDir,
    });
    expect(openai.parameters.endpoint).toBe("http://env-box:8000/v1");
    const ollama = await createBackend("ollama:m", { env: { OLLAMA_HOST: "gpu-box:11434" }, config: {}, cacheDir });
    expect(ollama.parameters.endpoint).toBe("http://gpu-box:11434");
  });

  it("reject in a provider's section a setting it does not read, with the path", () => {
    expect(configError({ providers: { openai: { gpu: false } } }).message).toContain(
      'providers.openai: Unrecognized key: "gpu"',
    );
    expect(configError({ backends: { "llamacpp:/m.gguf": { apiKey: "sk-x" } } }).message).toContain(
      'backends["llamacpp:/m.gguf"]: Unrecognized key: "apiKey"',
    );
    expect(configError({ defaults: { colour: "red" } }).message).toContain('defaults: Unrecognized key: "colour"');
    expect(configError({ providers: { ollama: { concurrency: 0 } } }).code).toBe("INVALID_DATA");
  });

  it("leave out the flags only other providers read, and reject a name no provider reads", () => {
    const ollama = resolveSettings("ollama:m", "ollama", {
      env: {},
      config: {},
      gpu: false,
      streaming: true,
      apiKey: "sk-x",
      temperature: 0.1,
    });
    expect(ollama).toMatchObject({ temperature: 0.1 });
    for (const name of ["gpu", "streaming", "apiKey"]) expect(ollama).not.toHaveProperty(name);
    const unknown = { env: {}, config: {}, colour: "red" } as Parameters<typeof resolveSettings>[2];
    expect(() => resolveSettings("ollama:m", "ollama", unknown)).toThrow(
      /backend ollama:m: \$: Unrecognized key: "colour"/,
    );
  });

  it("check a plug-in's own settings by its schema, in its sections and in defaults once it is registered", async () => {
    const seen: unknown[] = [];
    registerProvider(
      "regional",
      (model, settings) => {
        seen.push(settings.region);
        return createChatBackend(scriptedDriver([], { provider: "regional", model }), settings);
      },
      { usage: "regional:<model> (a test plug-in)", settings: z.object({ region: z.enum(["eu", "us"]) }) },
    );
    const file = configFile({
      defaults: { region: "us" },
      providers: { regional: { region: "eu", temperature: 0.2 } },
    });
    const backend = await createBackend("regional:m", { env: {}, configPath: file, cacheDir: tempDirForTest() });
    expect(seen).toEqual(["eu"]);
    expect(backend.parameters).toMatchObject({ temperature: 0.2 });
    expect(configError({ backends: { "regional:m": { region: "mars" } } }).message).toContain(
      'backends["regional:m"].region: Invalid option',
    );
    expect(configError({ providers: { regional: { baseUrl: "http://x" } } }).message).toContain(
      'providers.regional: Unrecognized key: "baseUrl"',
    );
    expect(describeBackendIds()).toContain("regional:<model> (a test plug-in)");
  });

  it("take in a section of a provider its module defines any setting, checked by the provider once loaded", async () => {
    const plugin = join(tempDirForTest(), "typo-checked.mjs");
    writeFileSync(
      plugin,
      `import mock from ${JSON.stringify(new URL("../../examples/mock-provider/mock-provider.mjs", import.meta.url).pathname)};\nexport default { ...mock, name: "typo-checked" };\n`,
    );
    const file = configFile({ providers: { "typo-checked": { module: plugin, temprature: 0.2 } } });
    expect(loadConfig(file).providers?.["typo-checked"]).toMatchObject({ temprature: 0.2 });
    await expect(
      createBackend("typo-checked:m", { env: {}, configPath: file, cacheDir: tempDirForTest() }),
    ).rejects.toThrow(/backend typo-checked:m: \$: Unrecognized key: "temprature"/);
  });
});

describe("describeBackendIds", () => {
  it("lists every provider's id syntax in registration order, chat models only when asked", () => {
    expect(describeBackendIds()).toMatch(
      /^openai:<model> \(OpenAI-compatible server\), ollama:<model>, llamacpp:<path to \.gguf>, langchain:<provider>:<model> \(any installed LangChain chat-model integration\), embedded(, |$)/,
    );
    expect(describeBackendIds({ chatModelsOnly: true })).toMatch(
      /^openai:<model> \(OpenAI-compatible server\), ollama:<model>, llamacpp:<path to \.gguf>, langchain:<provider>:<model> \(any installed LangChain chat-model integration\)(, |$)/,
    );
    expect(describeBackendIds({ chatModelsOnly: true })).not.toContain("embedded");
  });
});
