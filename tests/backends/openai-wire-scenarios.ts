/**
 * Every kind of call the `openai:` driver makes, played against the fake OpenAI server, with what the
 * server received (each request's path, body bytes and headers in the order sent) and what the call
 * gave back. `fixtures/openai-wire.json` holds what LangChain's `ChatOpenAI` and the OpenAI SDK sent
 * for the same scenarios before the driver was rewritten on `fetch`; openai-wire.test.ts compares.
 */
import type { BackendOptions } from "../../src/backends/config.ts";
import { createBackend } from "../../src/backends/registry.ts";
import type { ChatBackend, ChatMessage } from "../../src/backends/spec.ts";
import { scripted, type FakeServerOptions } from "../../test-support/fake-llm-server.ts";
import {
  GOOD_ACTIONS,
  GOOD_FRAMES,
  doctorActionsSchema,
  hermeticOptions,
  nluFramesSchema,
  startFakeServer,
  tempDir,
} from "./helpers.ts";

/** One request as the server saw it. */
export interface WireRequest {
  readonly path: string;
  readonly body: string;
  /** Header name and value pairs in the order sent; the port in `host` is replaced by `PORT`. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
}

/** One scenario: the requests it made and what the call returned or the error it ended with. */
export interface WireRecord {
  readonly scenario: string;
  readonly requests: readonly WireRequest[];
  readonly outcome: unknown;
}

interface Scenario {
  readonly name: string;
  readonly server?: FakeServerOptions;
  readonly options?: BackendOptions;
  readonly run: (backend: ChatBackend) => Promise<unknown>;
}

const USER: ChatMessage[] = [{ role: "user", content: "I have had a cough for two days." }];
const DIALOGUE: ChatMessage[] = [
  { role: "system", content: "You are a doctor taking a history." },
  { role: "user", content: "I have a headache." },
  { role: "assistant", content: "Since when?" },
  { role: "user", content: 'Since Monday, and "it\'s" worse at night — ünïcode too.' },
];

/** What a call gave back, without its latency (which varies). */
function outcomeOf(result: Record<string, unknown>): unknown {
  const { latencyMs: _latency, ...rest } = result;
  return rest;
}

const object = (method?: "jsonSchema" | "functionCalling" | "jsonMode" | "prompt") => (backend: ChatBackend) =>
  backend.generateObject(DIALOGUE, doctorActionsSchema, {
    schemaName: "doctor_actions",
    ...(method ? { method } : {}),
  });

const SCENARIOS: readonly Scenario[] = [
  { name: "plain, backend defaults", run: (backend) => backend.generate(USER) },
  {
    name: "plain, every generation option",
    run: (backend) => backend.generate(DIALOGUE, { temperature: 0.3, maxTokens: 64, seed: 7, stop: ["\n", "END"] }),
  },
  {
    name: "plain, settings' defaults",
    options: { temperature: 0, maxTokens: 20, seed: 1 },
    run: (backend) => backend.generate(DIALOGUE),
  },
  {
    name: "json_schema, strict",
    server: { respond: () => ({ content: JSON.stringify(GOOD_ACTIONS) }) },
    run: object(),
  },
  {
    name: "json_schema, records (not strict)",
    server: { respond: () => ({ content: JSON.stringify(GOOD_FRAMES) }) },
    run: (backend) => backend.generateObject(USER, nluFramesSchema, { temperature: 0 }),
  },
  {
    name: "function calling",
    server: { respond: () => ({ toolArguments: GOOD_ACTIONS }) },
    run: object("functionCalling"),
  },
  {
    name: "json mode",
    server: { respond: () => ({ content: JSON.stringify(GOOD_ACTIONS) }) },
    run: object("jsonMode"),
  },
  {
    name: "schema in the prompt",
    server: { respond: () => ({ content: JSON.stringify(GOOD_ACTIONS) }) },
    run: object("prompt"),
  },
  {
    name: "json_schema, repaired",
    server: { respond: scripted({ content: '{"actions": [' }, { content: JSON.stringify(GOOD_ACTIONS) }) },
    run: object(),
  },
  {
    name: "json_schema, format error after the repair",
    server: { respond: () => ({ content: "not json at all" }) },
    run: object(),
  },
  { name: "logprobs, top 3", run: (backend) => backend.logprobs!(USER, { topLogprobs: 3, maxTokens: 5 }) },
  { name: "logprobs, top 0", run: (backend) => backend.logprobs!(DIALOGUE) },
  { name: "streaming, plain", options: { streaming: true }, run: (backend) => backend.generate(DIALOGUE, { seed: 3 }) },
  {
    name: "streaming, json_schema",
    options: { streaming: true },
    server: { respond: () => ({ content: JSON.stringify(GOOD_ACTIONS) }) },
    run: object(),
  },
  {
    name: "streaming, function calling",
    options: { streaming: true },
    server: { respond: () => ({ toolArguments: GOOD_ACTIONS }) },
    run: object("functionCalling"),
  },
  {
    name: "streaming, logprobs (sent without streaming)",
    options: { streaming: true },
    run: (backend) => backend.logprobs!(USER, { topLogprobs: 2 }),
  },
  {
    name: "429 with Retry-After, then a reply",
    server: { respond: scripted({ status: 429, headers: { "retry-after-ms": "20" } }, { content: "ok" }) },
    run: (backend) => backend.generate(USER),
  },
  {
    name: "500, 503 and a dropped connection, then a reply",
    server: { respond: scripted({ status: 500 }, { status: 503 }, { destroy: true }, { content: "ok" }) },
    run: (backend) => backend.generate(USER),
  },
  { name: "400, not retried", server: { respond: () => ({ status: 400 }) }, run: (backend) => backend.generate(USER) },
  {
    name: "401 with a plain-text body",
    server: { respond: () => ({ status: 401, body: "unauthorised" }) },
    run: (backend) => backend.generate(USER),
  },
  {
    name: "404 with an error object",
    server: {
      respond: () => ({ status: 404, body: { error: { message: "model 'x' not found", type: "not_found" } } }),
    },
    run: (backend) => backend.generate(USER),
  },
  {
    name: "a hang, timed out, then a reply",
    server: { respond: scripted({ hang: true }, { content: "ok" }) },
    options: { timeoutMs: 300 },
    run: (backend) => backend.generate(USER),
  },
  {
    name: "garbage with status 200",
    server: { respond: () => ({ garbage: "<html>502 Bad Gateway</html>", contentType: "text/html" }) },
    run: (backend) => backend.generate(USER),
  },
  {
    name: "JSON that is not a chat completion",
    server: { respond: () => ({ garbage: '{"result": "hello"}' }) },
    run: (backend) => backend.generate(USER),
  },
  { name: "embeddings", run: (backend) => backend.embed!(["a cough", "a fever\nat night"]) },
];

/** Header pairs from `rawHeaders`, with the ephemeral port blanked. */
function headerPairs(rawHeaders: readonly string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index]!;
    const value = rawHeaders[index + 1]!;
    pairs.push([name, name.toLowerCase() === "host" ? value.replace(/:\d+$/, ":PORT") : value]);
  }
  return pairs;
}

async function play(scenario: Scenario): Promise<WireRecord> {
  const server = await startFakeServer("openai", scenario.server ?? {});
  const cache = tempDir();
  try {
    const backend = await createBackend("openai:gpt-wire", {
      ...hermeticOptions(server, cache.path),
      apiKey: "sk-wire-key",
      retryBaseDelayMs: 1,
      noCache: true,
      ...scenario.options,
    });
    const outcome = await scenario.run(backend).then(
      (result) => outcomeOf(result as Record<string, unknown>),
      (error: unknown) => ({
        error: (error instanceof Error ? error.message : String(error)).replace(/:\d+\//, ":PORT/"),
      }),
    );
    const requests = server.requests.map(({ path, raw, rawHeaders }) => ({
      path,
      body: raw,
      headers: headerPairs(rawHeaders),
    }));
    return { scenario: scenario.name, requests, outcome };
  } finally {
    await server.close();
    cache.remove();
  }
}

/** Plays every scenario, one after another. */
export async function recordOpenAIWire(): Promise<WireRecord[]> {
  const records: WireRecord[] = [];
  for (const scenario of SCENARIOS) records.push(await play(scenario));
  return records;
}
