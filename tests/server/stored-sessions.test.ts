import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { SqliteSessionStore } from "../../server/sqlite-session-store.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import { createModules } from "../../src/modules/builders/create-modules.ts";
import { caseFromDialogue } from "../../src/simulator/patient-simulator.ts";
import { tempDirForTest } from "../temp-dirs.ts";
import { callApi, chatServerForTest } from "./chat-server.ts";
import { flakyBackendModules } from "./flaky-backend-modules.ts";
import { STORED_SESSION_CASE, blankElapsed, type StoredSessionsFixture } from "./stored-sessions-fixture.ts";

/**
 * Sessions stored by an earlier revision resume after an upgrade: the rows a chat server wrote at
 * 8ee4bf2 (`tests/fixtures/capture-stored-sessions.ts`), loaded into a new database, are continued by
 * today's server exactly as that revision's server continued them — a red flag's advice asked for again,
 * a simulated patient answering on, an offline answer re-asked of the backend, a failed turn retried,
 * an ended conversation refusing turns.
 */

const FIXTURE = new URL("../fixtures/stored-sessions-8ee4bf2.json", import.meta.url);
const fixture = JSON.parse(readFileSync(FIXTURE, "utf8")) as StoredSessionsFixture;
const dataset = loadMeditod();
const cases = [caseFromDialogue(dataset, STORED_SESSION_CASE)];
let flaky: ReturnType<typeof flakyBackendModules>;
/**
 * The fixtures' rows carry the times they were written; a server deletes sessions idle over its limit
 * (a day by default) when it starts, so these tests keep them whatever today's date (they failed a day
 * after the fixture was captured).
 */
const KEEP_STORED = { idleMinutes: 100 * 365 * 24 * 60 } as const;

beforeAll(async () => {
  flaky = flakyBackendModules((await createModules("embedded", dataset)).modules);
});

/** A database file holding a fixture's rows as the earlier revision wrote them (the record as text). */
async function databaseOfFixture(fixture: StoredSessionsFixture): Promise<string> {
  const path = join(tempDirForTest("anamnesis-stored-"), "sessions.db");
  await new SqliteSessionStore(path).close();
  const db = new Database(path);
  const columns = (row: object) => Object.keys(row).join(", ");
  const names = (row: object) =>
    Object.keys(row)
      .map((key) => `@${key}`)
      .join(", ");
  db.transaction(() => {
    for (const { record, ...row } of fixture.sessions)
      db.prepare(`INSERT INTO sessions (${columns({ ...row, record })}) VALUES (${names({ ...row, record })})`).run({
        ...row,
        record: JSON.stringify(record),
      });
    for (const { outcome, ...row } of fixture.turns)
      db.prepare(`INSERT INTO turns (${columns({ ...row, outcome })}) VALUES (${names({ ...row, outcome })})`).run({
        ...row,
        outcome: JSON.stringify(outcome),
      });
  })();
  db.close();
  return path;
}

type ContinuationStep = StoredSessionsFixture["continuation"][number];

/**
 * A conversation's view as today's server gives it: with what its note is written from besides the
 * state (who spoke, the medicines named, the patient's requests), which these sessions never recorded.
 */
function withNoteSources(answer: unknown): unknown {
  const view = answer as Record<string, unknown>;
  if (!("state" in view) || !("history" in view)) return answer;
  return { ...view, informant: null, medicines: [], patientRequests: [] };
}

/**
 * The answer today's server owes a step: the earlier revision's, except where the product changed on
 * purpose since — the clinical note is version 2 (its `version`, `historian` and `questionsAndConcerns`
 * added; nothing recorded who spoke or what the patient asked in these sessions), and a sore throat
 * alone no longer names "viral respiratory infection" (a diagnosis now needs its required features);
 * and a conversation's view carries what its note is written from besides the state ({@link withNoteSources}).
 */
function answerToday(step: ContinuationStep): unknown {
  if (step.status !== 200) return step.answer;
  if (!step.path.endsWith("/note")) return withNoteSources(step.answer);
  const { note, ...rest } = step.answer as { note: { workingImpression: { disease: string } | null } };
  expect(note.workingImpression?.disease).toBe("viral respiratory infection");
  const v2 = { version: 2, historian: null, questionsAndConcerns: [], workingImpression: null };
  return { ...rest, note: { ...note, ...v2 } };
}

describe("sessions stored by an earlier revision", () => {
  it("resume after the upgrade and continue as that revision continued them", async () => {
    const path = await databaseOfFixture(fixture);
    const server = await chatServerForTest({
      ...KEEP_STORED,
      modules: flaky.modules,
      cases,
      store: new SqliteSessionStore(path),
    });
    expect(server.registry.size).toBe(fixture.sessions.length);
    for (const step of fixture.continuation) {
      flaky.setHealth(step.health);
      const answer = await callApi(server.url, step.method, step.path, step.body);
      expect(
        { status: answer.status, answer: blankElapsed(answer.json) },
        `${step.session}: ${step.method} ${step.path}`,
      ).toEqual({ status: step.status, answer: answerToday(step) });
    }
  });

  it("are stored again in today's format once continued, and resume from it", async () => {
    const path = await databaseOfFixture(fixture);
    const first = await chatServerForTest({
      ...KEEP_STORED,
      modules: flaky.modules,
      cases,
      store: new SqliteSessionStore(path),
    });
    const views = new Map<string, unknown>();
    for (const step of fixture.continuation) {
      flaky.setHealth(step.health);
      await callApi(first.url, step.method, step.path, step.body);
    }
    for (const { id } of fixture.sessions)
      views.set(String(id), (await callApi(first.url, "GET", `/api/sessions/${String(id)}`)).json);
    await first.close();
    const store = new SqliteSessionStore(path);
    const versions = new Map(
      (await store.all()).map((stored) => [
        stored.id,
        (stored.record as { conversation: { version?: number } }).conversation.version,
      ]),
    );
    await store.close();
    // A session is written when a turn of it is committed; one left as it was keeps the format it had.
    const continued = new Set(
      fixture.continuation
        .filter((step) => step.method === "POST" && step.status === 200)
        .map((step) => step.path.split("/")[3]),
    );
    expect(continued.size).toBe(4);
    for (const { id } of fixture.sessions)
      expect(versions.get(String(id)), String(id)).toBe(continued.has(String(id)) ? 2 : undefined);

    const second = await chatServerForTest({
      ...KEEP_STORED,
      modules: flaky.modules,
      cases,
      store: new SqliteSessionStore(path),
    });
    for (const [id, view] of views)
      expect((await callApi(second.url, "GET", `/api/sessions/${id}`)).json, id).toEqual(view);
  });
});

/**
 * Sessions stored with what their note is written from besides the state (the `note-sources`
 * session: a daughter speaking for her mother, her question, medicines with doses), by the revision
 * whose rows `NOTE_SOURCES_FIXTURE` holds: today's server continues them and writes their note exactly
 * as that revision did.
 */
const NOTE_SOURCES_FIXTURE = new URL("../fixtures/stored-sessions-b1ff403.json", import.meta.url);

/** Values that are only the data's form of a word, as the note has named them since (`ontology/record-labels.json`). */
const RENAMED: Readonly<Record<string, string>> = { coughing: "cough", "colored/excess sputum": "sputum" };

/** A note step's answer as today's server gives it: the earlier revision's, each such value (a whole string, never a quote) renamed. */
function withRenamedValues(answer: unknown): unknown {
  if (typeof answer === "string") return RENAMED[answer] ?? answer;
  if (Array.isArray(answer)) return answer.map(withRenamedValues);
  if (answer === null || typeof answer !== "object") return answer;
  return Object.fromEntries(Object.entries(answer).map(([key, value]) => [key, withRenamedValues(value)]));
}

describe("sessions stored with who spoke, the patient's questions and the medicines named", () => {
  it("resume, continue and write their note as the revision that stored them did", async () => {
    const stored = JSON.parse(readFileSync(NOTE_SOURCES_FIXTURE, "utf8")) as StoredSessionsFixture;
    const server = await chatServerForTest({
      ...KEEP_STORED,
      modules: flaky.modules,
      cases,
      store: new SqliteSessionStore(await databaseOfFixture(stored)),
    });
    for (const step of stored.continuation) {
      flaky.setHealth(step.health);
      const answer = await callApi(server.url, step.method, step.path, step.body);
      expect(
        { status: answer.status, answer: blankElapsed(answer.json) },
        `${step.session}: ${step.method} ${step.path}`,
      ).toEqual({
        status: step.status,
        answer: step.path.endsWith("/note") ? withRenamedValues(step.answer) : step.answer,
      });
    }
    const note = stored.continuation.findLast((step) => step.session === "note-sources" && step.path.endsWith("/note"));
    expect(note?.answer).toMatchObject({
      note: {
        historian: { informant: "proxy" },
        questionsAndConcerns: [{ kind: "question", text: expect.stringMatching(/serious/) }],
        medications: {
          present: expect.arrayContaining([
            expect.objectContaining({ value: "ramipril", dose: "5mg", frequency: "in the morning" }),
            expect.objectContaining({ value: "paracetamol", dose: "500mg", frequency: "when she needs it" }),
          ]),
        },
      },
    });
  });
});
