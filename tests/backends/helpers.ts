/**
 * What the backend tests share: fake LLM servers with a backend and a response cache of their own,
 * torn down by the helper (`...ForTest`: when the current test finishes, passed or failed), and
 * MediTOD-shaped schemas with a valid instance of each.
 */
import { onTestFinished } from "vitest";
import { z } from "zod";
import type { BackendOptions } from "../../src/backends/config.ts";
import { createBackend } from "../../src/backends/registry.ts";
import type { ChatBackend } from "../../src/backends/spec.ts";
import { tempDirForTest } from "../temp-dirs.ts";
import {
  startFakeOllamaServer,
  startFakeOpenAIServer,
  type FakeServer,
  type FakeServerOptions,
} from "../../test-support/fake-llm-server.ts";

export { tempDir, tempDirForTest } from "../temp-dirs.ts";

/** The wire protocols the fake server speaks (fake-llm-server.ts). */
export type FakeProtocol = "openai" | "ollama";

/** A fake server speaking `protocol` on 127.0.0.1. */
export function startFakeServer(protocol: FakeProtocol, options: FakeServerOptions = {}): Promise<FakeServer> {
  return protocol === "openai" ? startFakeOpenAIServer(options) : startFakeOllamaServer(options);
}

/** A fake server speaking `protocol`, closed when the current test finishes, passed or failed. */
export async function fakeServerForTest(protocol: FakeProtocol, options: FakeServerOptions = {}): Promise<FakeServer> {
  const server = await startFakeServer(protocol, options);
  onTestFinished(() => server.close());
  return server;
}

/**
 * Backend options for a test: talk to `server`, cache under `cacheDir`, and read neither the
 * environment nor a config file (so a developer's OPENAI_API_KEY or anamnesis.config.json never leaks in).
 */
export function hermeticOptions(server: FakeServer, cacheDir: string): BackendOptions {
  return { baseUrl: server.baseUrl, cacheDir, env: {}, config: {} };
}

/** A backend on a fake server, with the response cache it writes to. */
export interface FakeServerBackend {
  readonly server: FakeServer;
  readonly backend: ChatBackend;
  readonly cacheDir: string;
  /** Another backend of the same id on the same server and cache, with only the hermetic options and `options` (a re-run). */
  readonly anotherBackend: (options?: BackendOptions) => Promise<ChatBackend>;
}

/**
 * Backend `id` against a fresh fake server speaking `protocol`, with an empty response cache of its
 * own and {@link hermeticOptions} under `options`: the server is closed and the cache removed when the
 * current test finishes, passed or failed.
 */
export async function fakeServerBackendForTest(
  protocol: FakeProtocol,
  id: string,
  serverOptions: FakeServerOptions = {},
  options: BackendOptions = {},
): Promise<FakeServerBackend> {
  const cacheDir = tempDirForTest();
  const server = await fakeServerForTest(protocol, serverOptions);
  const anotherBackend = (more: BackendOptions = {}) =>
    createBackend(id, { ...hermeticOptions(server, cacheDir), ...more });
  return { server, backend: await anotherBackend(options), cacheDir, anotherBackend };
}

/** Shaped like MediTOD NLU output: `{"frames":[{"intent":"inform","slots":{"symptom":[{"value":"cough","status":"positive"}]}}]}`. */
export const nluFramesSchema = z.object({
  frames: z.array(
    z.object({
      intent: z.enum(["inform", "chit-chat", "nod_prompt_salutations"]),
      slots: z
        .record(
          z.string(),
          z.array(z.object({ value: z.string(), status: z.enum(["positive", "negative", "unknown"]).optional() })),
        )
        .optional(),
    }),
  ),
});

/** Shaped like MediTOD doctor actions: `{"actions":[{"action":"inquire","symptom":[{"value":"cough","checks":[{"type":"onset"}]}]}]}`. */
export const doctorActionsSchema = z.object({
  actions: z.array(
    z.object({
      action: z.enum(["inquire", "chit-chat", "nod_prompt_salutations", "diagnosis", "other"]),
      symptom: z
        .array(
          z.object({
            value: z.string(),
            checks: z.array(z.object({ type: z.string(), values: z.array(z.string()).optional() })).optional(),
          }),
        )
        .optional(),
    }),
  ),
});

export const GOOD_FRAMES = {
  frames: [{ intent: "inform", slots: { symptom: [{ value: "cough", status: "positive" }] } }],
};
export const GOOD_ACTIONS = {
  actions: [{ action: "inquire", symptom: [{ value: "cough", checks: [{ type: "onset" }] }] }],
};
