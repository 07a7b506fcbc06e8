import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { ChatServerOptions } from "../../server/app.ts";
import { SqliteSessionStore } from "../../server/sqlite-session-store.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import { Conversation } from "../../src/dialogue-manager/conversation.ts";
import { createModules, type CreateModulesOptions } from "../../src/modules/builders/create-modules.ts";
import { buildEmbeddedEngine } from "../../src/modules/embedded/index.ts";
import { instanceOf, startFakeOpenAIServer, type FakeServer, type Reply } from "../../test-support/fake-llm-server.ts";
import { hermeticOptions } from "../backends/helpers.ts";
import { tempDirForFile } from "../temp-dirs.ts";
import { callApi as call, chatServerForTest } from "./chat-server.ts";

/**
 * The web chat when its LLM backend fails: the real OpenAI client against a local fake server that
 * answers 500, hangs, answers garbage or invalid output. The embedded engine answers the turn, the
 * answer and the stored session say so and why, and Retry asks the backend again once it recovers.
 */

const dataset = loadMeditod();
const scratch = tempDirForFile("anamnesis-web-fallback-");
const BACKEND = "openai:gpt-test";
/** The LLM's doctor line: whatever it is asked, so a reply shows who answered. */
const LLM_REPLY = "Thank you. Could you tell me more about how it started?";
const SECRET = "sk-test-secret-4242";
const embedded = buildEmbeddedEngine(dataset, "train", { wording: "clean" });

/** What the fake model does now: null answers like a model (valid JSON for a schema, the LLM line otherwise); "prose" answers schema requests with prose. */
let fault: Reply | "prose" | null = null;
let llm: FakeServer;

beforeAll(async () => {
  llm = await startFakeOpenAIServer({
    respond: (call) => {
      if (fault !== null && fault !== "prose") return fault;
      if (!call.schema) return { content: LLM_REPLY };
      return {
        content:
          fault === "prose" ? "The patient has had a cough for two weeks." : JSON.stringify(instanceOf(call.schema)),
      };
    },
  });
});
afterAll(async () => {
  await llm.close();
});
afterEach(() => {
  fault = null;
});

/** The chat's modules as `anamnesis chat` makes them (offline fallback on unless `fallback: false`), closed when the test finishes. */
async function chatModules(options: { fallback?: boolean; timeoutMs?: number } = {}) {
  const on = options.fallback !== false;
  const moduleOptions: CreateModulesOptions = {
    // No retries and no response cache, so each stage is one request the fake server sees.
    backendOptions: {
      ...hermeticOptions(llm, join(scratch, "cache")),
      env: { OPENAI_API_KEY: SECRET },
      noCache: true,
      maxRetries: 0,
      timeoutMs: options.timeoutMs ?? 5000,
    },
    wording: "clean",
    templates: { policy: "policy.v2" },
    ...(on ? { fallback: "embedded" as const, answerFailures: true } : {}),
  };
  const setup = await createModules(BACKEND, dataset, moduleOptions);
  onTestFinished(() => setup.close());
  return setup;
}

/** A chat server on the chat's modules (see {@link chatModules}), closed when the test finishes. */
async function chatServer(
  options: { fallback?: boolean; timeoutMs?: number } = {},
  more: Omit<ChatServerOptions, "modules"> = {},
) {
  return chatServerForTest({ modules: (await chatModules(options)).modules, ...more });
}

/** What the embedded engine alone answers to a first patient turn. */
async function embeddedReply(text: string): Promise<string> {
  return (await new Conversation(embedded).say(text)).doctor!;
}

const COUGH = "I've had a cough for two weeks.";

describe("the web chat when its LLM backend fails", () => {
  for (const [what, reply, timeoutMs, reason] of [
    ["answers 500", { status: 500 }, undefined, /500/],
    ["hangs (timeout)", { hang: true }, 300, /no response within 300 ms/],
    [
      "answers garbage (an HTML page with status 200)",
      { garbage: "<html><body>502 Bad Gateway</body></html>", contentType: "text/html" },
      undefined,
      /status 200 but not JSON \(text\/html\): "<html><body>502 Bad Gateway/,
    ],
  ] as const) {
    it(`answers the turn with the embedded engine when the backend ${what}, says why, and Retry asks the backend again once it recovers`, async () => {
      const server = await chatServer(timeoutMs ? { timeoutMs } : {});
      const id = (await call(server.url, "POST", "/api/sessions", {})).json.id;
      fault = reply;
      const before = llm.calls.length;
      const turn = await call(server.url, "POST", `/api/sessions/${id}/turns`, { text: COUGH });
      expect(turn.status).toBe(200);
      // The patient's turn is kept and answered, by the embedded engine, word for word as it alone would.
      expect(turn.json.history.map((entry: { speaker: string }) => entry.speaker)).toEqual([
        "doctor",
        "patient",
        "doctor",
      ]);
      expect(turn.json.history[1].text).toBe(COUGH);
      expect(turn.json.outcome.doctor).toBe(await embeddedReply(COUGH));
      expect(turn.json.outcome.error).toBeNull();
      expect(turn.json.outcome.fallback).toMatchObject({ turn: 1, backend: BACKEND, stages: ["nlu", "policy", "nlg"] });
      expect(turn.json.outcome.fallback.reason).toMatch(
        new RegExp(`^${BACKEND} failed at nlu: backend ${BACKEND} at ${llm.baseUrl}: `),
      );
      expect(turn.json.outcome.fallback.reason).toMatch(reason);
      expect(turn.json.outcome.fallback.reason).not.toMatch(/\n/);
      expect(turn.json).toMatchObject({
        turns: 1,
        error: null,
        failed: false,
        retryable: true,
        fallbacks: [turn.json.outcome.fallback],
      });
      // Only the NLU asked the dead backend: the later stages of the turn were left to the embedded engine.
      expect(llm.calls.length - before).toBe(1);

      fault = null;
      const asked = llm.calls.length;
      const retried = await call(server.url, "POST", `/api/sessions/${id}/retry`);
      expect(retried.status).toBe(200);
      expect(llm.calls.length).toBeGreaterThan(asked);
      expect(retried.json.outcome).toMatchObject({ doctor: LLM_REPLY, error: null, fallback: null });
      expect(retried.json).toMatchObject({ turns: 1, retryable: false, fallbacks: [] });
      expect(retried.json.history.map((entry: { text: string }) => entry.text)).toEqual([
        turn.json.history[0].text,
        COUGH,
        LLM_REPLY,
      ]);
      expect((await call(server.url, "POST", `/api/sessions/${id}/retry`)).json.error.code).toBe("nothing_to_retry");
      expect((await call(server.url, "GET", `/api/sessions/${id}`)).json).toMatchObject({
        turns: 1,
        fallbacks: [],
        history: retried.json.history,
      });
    });
  }

  it("within 30 s of a failure leaves the backend alone (one wait, not one per turn); a Retry that fails again keeps the offline answer with the new reason", async () => {
    const server = await chatServer();
    const id = (await call(server.url, "POST", "/api/sessions", {})).json.id;
    fault = { status: 503 };
    await call(server.url, "POST", `/api/sessions/${id}/turns`, { text: COUGH });
    const asked = llm.calls.length;
    const second = await call(server.url, "POST", `/api/sessions/${id}/turns`, {
      text: "No, I haven't had any fever.",
    });
    expect(llm.calls.length).toBe(asked);
    expect(second.json.outcome.fallback).toMatchObject({ turn: 3, backend: BACKEND, stages: ["nlu", "policy", "nlg"] });
    expect(second.json.outcome.fallback.reason).toMatch(
      /^openai:gpt-test failed at nlu: not asked: it failed \d+ s ago \(backend openai:gpt-test at .*503/,
    );
    expect(second.json.fallbacks.map((entry: { turn: number }) => entry.turn)).toEqual([1, 3]);

    fault = { status: 500, body: { error: { message: "model is loading" } } };
    const retried = await call(server.url, "POST", `/api/sessions/${id}/retry`);
    expect(llm.calls.length).toBe(asked + 1);
    expect(retried.json.outcome.doctor).toBe(second.json.outcome.doctor);
    expect(retried.json.outcome.fallback.reason).toMatch(/model is loading/);
    expect(retried.json).toMatchObject({ turns: 2, retryable: true });
    expect(retried.json.history).toHaveLength(5);
  });

  it("marks a format error after the repair request as a fallback too, for the stages it hit", async () => {
    const server = await chatServer();
    const id = (await call(server.url, "POST", "/api/sessions", {})).json.id;
    // Prose where JSON was asked for, even after the repair request; the NLG (plain text) still answers.
    fault = "prose";
    const turn = await call(server.url, "POST", `/api/sessions/${id}/turns`, { text: COUGH });
    expect(turn.json.outcome.doctor).toBe(LLM_REPLY);
    expect(turn.json.outcome.fallback).toMatchObject({ turn: 1, backend: BACKEND, stages: ["nlu", "policy"] });
    expect(turn.json.outcome.fallback.reason).toMatch(/^openai:gpt-test failed at nlu: format error: .*JSON/);
    // The embedded NLU read the patient: the profile holds the cough.
    expect(JSON.stringify(turn.json.state)).toMatch(/cough/);
  });

  it("keeps the backend's API key out of the reason, the answer and the stored turn", async () => {
    const store = new SqliteSessionStore(":memory:");
    const server = await chatServer({}, { store });
    const id = (await call(server.url, "POST", "/api/sessions", {})).json.id;
    fault = {
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${SECRET}.`, type: "invalid_request_error" } },
    };
    const turn = await call(server.url, "POST", `/api/sessions/${id}/turns`, { text: COUGH });
    expect(turn.json.outcome.fallback.reason).toMatch(/401/);
    expect(JSON.stringify(turn.json)).not.toContain(SECRET);
    expect(JSON.stringify(await store.turns(id))).not.toContain(SECRET);
    expect(JSON.stringify(await store.all())).not.toContain(SECRET);
  });

  it("escalates a red flag on a turn the embedded engine answered: the safety rules hold on the fallback path", async () => {
    const server = await chatServer();
    const id = (await call(server.url, "POST", "/api/sessions", {})).json.id;
    fault = { status: 500 };
    const turn = await call(server.url, "POST", `/api/sessions/${id}/turns`, {
      text: "I've had crushing chest pain since this morning and I'm short of breath.",
    });
    expect(turn.json.outcome.fallback).toMatchObject({ turn: 1, stages: ["nlu", "policy", "nlg"] });
    expect(turn.json.outcome.escalation).toMatchObject([
      { id: "chest_pain_with_breathlessness_or_sweating", urgency: "emergency", turn: 1 },
    ]);
    expect(turn.json.outcome.doctor).toMatch(/^Before we go on[^\n]*ambulance[^\n]*\n\n\S/);
    expect(turn.json.redFlags).toHaveLength(1);
  });

  it("keeps the marker across a restart (SQLite), in the stored turn and the transcript, and still lets Retry re-ask the backend", async () => {
    const path = join(scratch, "sessions.db");
    const transcripts = join(scratch, "transcripts");
    const { modules } = await chatModules();
    const first = await chatServerForTest({
      modules,
      store: new SqliteSessionStore(path),
      transcriptsDir: transcripts,
    });
    const id = (await call(first.url, "POST", "/api/sessions", {})).json.id;
    fault = { status: 500 };
    const turn = await call(first.url, "POST", `/api/sessions/${id}/turns`, { text: COUGH });
    const marker = turn.json.outcome.fallback;
    expect(marker).toMatchObject({ turn: 1, backend: BACKEND });
    await first.close();

    const store = new SqliteSessionStore(path);
    const second = await chatServerForTest({ modules, store, transcriptsDir: transcripts });
    const resumed = await call(second.url, "GET", `/api/sessions/${id}`);
    expect(resumed.json).toMatchObject({ fallbacks: [marker], retryable: true, turns: 1, history: turn.json.history });
    expect((await store.turns(id)).map((row) => (row.outcome as { fallback: unknown }).fallback)).toEqual([marker]);
    const transcript = JSON.parse(readFileSync(join(transcripts, `${id}.json`), "utf8"));
    expect(transcript.fallbacks).toEqual([marker]);

    fault = null;
    const retried = await call(second.url, "POST", `/api/sessions/${id}/retry`);
    expect(retried.json).toMatchObject({
      outcome: { doctor: LLM_REPLY, fallback: null },
      fallbacks: [],
      retryable: false,
      turns: 1,
    });
    expect(JSON.parse(readFileSync(join(transcripts, `${id}.json`), "utf8")).fallbacks).toEqual([]);
  });

  it("without the fallback (--no-fallback) fails the turn as before, and Retry answers it once the backend recovers", async () => {
    const server = await chatServer({ fallback: false });
    const id = (await call(server.url, "POST", "/api/sessions", {})).json.id;
    fault = { status: 500 };
    const failed = await call(server.url, "POST", `/api/sessions/${id}/turns`, { text: COUGH });
    expect(failed.status).toBe(200);
    expect(failed.json.outcome).toMatchObject({ doctor: null, fallback: null });
    expect(failed.json.outcome.error).toMatch(/^backend openai:gpt-test at .*500/);
    expect(failed.json).toMatchObject({ failed: true, retryable: true, fallbacks: [], turns: 0 });
    fault = null;
    const retried = await call(server.url, "POST", `/api/sessions/${id}/retry`);
    expect(retried.json).toMatchObject({
      outcome: { doctor: LLM_REPLY, error: null, fallback: null },
      failed: false,
      retryable: false,
      turns: 1,
    });
    expect(retried.json.history.map((entry: { speaker: string }) => entry.speaker)).toEqual([
      "doctor",
      "patient",
      "doctor",
    ]);
  });
});

describe("the note of a chat with an LLM backend", () => {
  it("lists each medicine the patient named by name with its dose, read offline beside the LLM's CMAS classes", async () => {
    const server = await chatServer();
    const id = (await call(server.url, "POST", "/api/sessions", {})).json.id;
    const said = "I take ramipril 5mg once a day and metformin 500mg twice a day.";
    const turn = await call(server.url, "POST", `/api/sessions/${id}/turns`, { text: said });
    expect(turn.json.outcome.fallback).toBeNull();
    const note = await call(server.url, "GET", `/api/sessions/${id}/note`);
    expect(note.json.note.medications.present).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ value: "ramipril", dose: "5mg", frequency: "once a day" }),
        expect.objectContaining({ value: "metformin", dose: "500mg", frequency: "twice a day" }),
      ]),
    );
  });

  it("negative control: a turn that names no medicine adds none", async () => {
    const server = await chatServer();
    const id = (await call(server.url, "POST", "/api/sessions", {})).json.id;
    await call(server.url, "POST", `/api/sessions/${id}/turns`, { text: COUGH });
    const note = await call(server.url, "GET", `/api/sessions/${id}/note`);
    expect(note.json.note.medications.present.filter((entry: { dose: string | null }) => entry.dose !== null)).toEqual(
      [],
    );
  });
});
