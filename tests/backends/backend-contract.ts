/**
 * The contract every backend must pass. Call `runBackendContract(name, makeSubject)` from a test file;
 * `makeSubject` builds a fresh backend with an empty response cache (a new temp dir) each time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { describeBackend } from "../../src/backends/run-record.ts";
import { SPECIFICATION_VERSION, type ChatBackend } from "../../src/backends/spec.ts";

export interface ContractSubject {
  readonly backend: ChatBackend;
  /** Requests the model server has received so far (omit for in-process backends). */
  readonly requestCount?: () => number;
  /** A secret the backend was configured with, which must never show up in records. */
  readonly secret?: string;
  dispose(): Promise<void>;
}

export interface ContractOptions {
  /** Keeps generation short for slow backends. */
  readonly maxTokens?: number;
}

/** A small MediTOD-flavoured schema every backend must be able to fill. */
export const contractSchema = z.object({
  intent: z.enum(["inform", "chit-chat"]),
  positive: z.boolean(),
});

export function runBackendContract(name: string, makeSubject: () => Promise<ContractSubject>, options: ContractOptions = {}): void {
  const generation = { temperature: 0, ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}) };
  const messages = [
    { role: "system", content: "You are a terse assistant." },
    { role: "user", content: "The patient has had a cough for two days." },
  ] as const;

  describe(`backend contract: ${name}`, () => {
    let subject: ContractSubject;
    let backend: ChatBackend;

    beforeAll(async () => {
      subject = await makeSubject();
      backend = subject.backend;
    });
    afterAll(async () => {
      await subject?.dispose();
    });

    it("implements the v1 spec shape", () => {
      expect(backend.specificationVersion).toBe(SPECIFICATION_VERSION);
      expect(backend.id.startsWith(`${backend.provider}:`) || backend.id === backend.provider).toBe(true);
      for (const flag of ["structuredOutput", "logprobs", "embeddings"] as const) {
        expect(typeof backend.capabilities[flag]).toBe("boolean");
      }
      expect(typeof backend.embed === "function").toBe(backend.capabilities.embeddings);
      expect(typeof backend.logprobs === "function").toBe(backend.capabilities.logprobs);
      expect(typeof backend.loglikelihoodRolling === "function").toBe(backend.capabilities.loglikelihood === true);
      expect(() => JSON.stringify(backend.parameters)).not.toThrow();
    });

    it("generates text with usage and latency", async () => {
      const result = await backend.generate(messages, generation);
      expect(typeof result.text).toBe("string");
      expect(result.cached).toBe(false);
      expect(result.latencyMs).toBeGreaterThan(0);
      expect(result.usage.inputTokens).toBeGreaterThan(0);
      expect(result.usage.outputTokens).toBeGreaterThan(0);
    });

    it("returns a schema-valid object from generateObject", async () => {
      const result = await backend.generateObject(messages, contractSchema, generation);
      expect(result.formatError).toBeUndefined();
      expect(contractSchema.safeParse(result.object).success).toBe(true);
      expect(JSON.parse(result.raw)).toBeTypeOf("object");
    });

    it("serves a repeated request from the cache with the original latency and usage", async () => {
      const before = subject.requestCount?.();
      const first = await backend.generate(messages, { ...generation, seed: 7 });
      const second = await backend.generate(messages, { ...generation, seed: 7 });
      expect(first.cached).toBe(false);
      expect(second).toEqual({ ...first, cached: true });
      if (before !== undefined) expect(subject.requestCount!()).toBe(before + 1);
    });

    it("bypasses the cache with noCache", async () => {
      await backend.generate(messages, { ...generation, seed: 8 });
      const before = subject.requestCount?.();
      const again = await backend.generate(messages, { ...generation, seed: 8, noCache: true });
      expect(again.cached).toBe(false);
      if (before !== undefined) expect(subject.requestCount!()).toBe(before + 1);
    });

    it("rejects at once when the signal is already aborted", async () => {
      const controller = new AbortController();
      controller.abort(new Error("stop now"));
      await expect(backend.generate(messages, { ...generation, signal: controller.signal, noCache: true })).rejects.toThrow("stop now");
    });

    it("embeds texts when it has the capability", async () => {
      if (!backend.embed) return;
      const result = await backend.embed(["cough", "fever since Monday"]);
      expect(result.embeddings).toHaveLength(2);
      expect(result.embeddings[0]!.length).toBeGreaterThan(0);
      expect(result.embeddings[0]!.length).toBe(result.embeddings[1]!.length);
      // The input tokens the server reported (the local servers always report them).
      expect(result.usage.inputTokens).toBeGreaterThan(0);
    });

    it("returns token logprobs when it has the capability", async () => {
      if (!backend.logprobs) return;
      const result = await backend.logprobs(messages, { ...generation, topLogprobs: 1 });
      expect(result.tokens.length).toBeGreaterThan(0);
      for (const token of result.tokens) expect(token.logprob).toBeLessThanOrEqual(0);
    });

    it("keeps secrets out of the run-record header", async () => {
      const header = await describeBackend(backend);
      expect(header.backend.id).toBe(backend.id);
      if (subject.secret) expect(JSON.stringify(header)).not.toContain(subject.secret);
      if (subject.secret) expect(JSON.stringify(backend)).not.toContain(subject.secret);
    });
  });
}
