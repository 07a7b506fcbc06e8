/**
 * The llamacpp backend on a tiny random-weight LLaMA written by the test itself (tiny-gguf.ts).
 *
 * Needs the optional package node-llama-cpp@3.21.1 (CPU build is enough). When it is missing these
 * tests FAIL with the install instruction; they never skip. The lean install (83 MB instead of ~730 MB
 * with the CUDA/Vulkan builds that a plain `npm install node-llama-cpp` pulls in), as CI does it:
 *
 *   npm install --prefix .cache/node-llama-cpp --no-save --no-package-lock --omit=optional \
 *     node-llama-cpp@3.21.1 @node-llama-cpp/linux-x64@3.21.1
 *   ln -sfn ../.cache/node-llama-cpp/node_modules/node-llama-cpp node_modules/node-llama-cpp
 *
 * (A separate prefix because `--omit=optional` in the project itself would also remove esbuild's and
 * rolldown's platform binaries. A later `npm install`/`npm ci` in the project prunes the link: re-run
 * the `ln`.)
 *
 * One CPU thread: with more, llama.cpp's threads spin-wait for each other and a tiny model gets ~100x
 * slower on a busy 2-core machine.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { toGrammarSchema } from "../../src/backends/llamacpp.ts";
import { createBackend } from "../../src/backends/registry.ts";
import { toStrictJsonSchema, zodToJsonSchema } from "../../src/backends/structured.ts";
import { contractSchema, runBackendContract } from "./backend-contract.ts";
import { doctorActionsSchema, tempDir, tempDirForTest } from "./helpers.ts";
import { writeTinyLlamaGguf } from "../../test-support/tiny-gguf.ts";

/** Enough for the contract's JSON under the grammar (whitespace and indentation included). */
const MAX_TOKENS = 80;

describe("toGrammarSchema", () => {
  it("narrows a strict schema to node-llama-cpp's grammar subset", () => {
    const schema = toGrammarSchema(toStrictJsonSchema(zodToJsonSchema(doctorActionsSchema)).schema) as any;
    const action = schema.properties.actions.items;
    expect(action.properties.action).toEqual({
      enum: ["inquire", "chit-chat", "nod_prompt_salutations", "diagnosis", "other"],
    });
    expect(action.properties.symptom.oneOf).toHaveLength(2);
    expect(action.properties.symptom.oneOf[0].type).toBe("array");
    expect(action.properties.symptom.oneOf[1]).toEqual({ type: "null" });
    expect(toGrammarSchema({ type: "string", pattern: "^a", title: "t" })).toEqual({ type: "string" });
  });
});

runBackendContract(
  "llamacpp (tiny random-weight GGUF, CPU)",
  async () => {
    const dir = tempDir();
    const modelPath = writeTinyLlamaGguf(join(dir.path, "tiny-llama.gguf"));
    expect(statSync(modelPath).size).toBeLessThan(1_000_000);
    const backend = await createBackend(`llamacpp:${modelPath}`, {
      gpu: false,
      threads: 1,
      contextSize: 512,
      cacheDir: join(dir.path, "cache"),
      env: {},
      config: {},
    });
    return {
      backend,
      dispose: async () => {
        await backend.close?.();
        dir.remove();
      },
    };
  },
  { maxTokens: MAX_TOKENS },
);

describe("llamacpp grammar", () => {
  it("constrains even a random model to schema-valid JSON", async () => {
    const modelPath = writeTinyLlamaGguf(join(tempDirForTest(), "tiny-llama.gguf"), { seed: 99 });
    const backend = await createBackend(`llamacpp:${modelPath}`, {
      gpu: false,
      threads: 1,
      contextSize: 512,
      noCache: true,
      env: {},
      config: {},
    });
    onTestFinished(() => backend.close?.());
    expect(backend.parameters).toMatchObject({ endpoint: modelPath, structuredOutput: "jsonSchema", concurrency: 1 });
    const result = await backend.generateObject([{ role: "user", content: "Is the cough dry?" }], contractSchema, {
      maxTokens: MAX_TOKENS,
      temperature: 0,
    });
    expect(result.formatError).toBeUndefined();
    expect(result.repaired).toBe(false);
    expect(contractSchema.parse(JSON.parse(result.raw))).toEqual(result.object);
  });
});
