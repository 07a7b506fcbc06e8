import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { SqliteSessionStore, defaultDatabasePath } from "../../server/sqlite-session-store.ts";
import type { SessionStore } from "../../server/session-store.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import { createModules } from "../../src/modules/builders/create-modules.ts";
import { buildQuestionReader } from "../../src/modules/embedded/question-reader.ts";
import { loadTrainingData } from "../../src/modules/embedded/training-data.ts";
import { caseFromDialogue } from "../../src/simulator/patient-simulator.ts";
import type { DialogueModules } from "../../src/language/module-interfaces.ts";
import { tempDirForFile } from "../temp-dirs.ts";
import { callApi, chatServerForTest } from "./chat-server.ts";

const dataset = loadMeditod();
const cases = [caseFromDialogue(dataset, "317")];
const questionReader = buildQuestionReader(loadTrainingData(dataset, "train"));
let modules: DialogueModules;
const folder = tempDirForFile("anamnesis-durable-");
const transcripts = join(folder, "transcripts");

beforeAll(async () => {
  modules = (await createModules("embedded", dataset)).modules;
});

/** A chat server on `store` (a new process on the same database file), closed when the test finishes. */
const start = (store: SessionStore, extra: { idleMinutes?: number } = {}) =>
  chatServerForTest({ modules, cases, questionReader, store, transcriptsDir: transcripts, ...extra });

describe("durable chat sessions (SQLite)", () => {
  const path = join(folder, "sessions.db");
  const ids: Record<string, string> = {};
  const seen: Record<string, any> = {};

  it("commits every turn before answering it; a new process on the same file resumes every session where it was", async () => {
    const first = await start(new SqliteSessionStore(path));
    ids.typed = (await callApi(first.url, "POST", "/api/sessions", {})).json.id;
    ids.simulated = (await callApi(first.url, "POST", "/api/sessions", { case: "317" })).json.id;
    ids.practice = (await callApi(first.url, "POST", "/api/sessions", { case: "317", role: "doctor" })).json.id;
    await callApi(first.url, "POST", `/api/sessions/${ids.typed}/turns`, {
      text: "I've had a bad cough for about a week.",
    });
    for (let turn = 0; turn < 3; turn += 1) await callApi(first.url, "POST", `/api/sessions/${ids.simulated}/simulate`);
    await callApi(first.url, "POST", `/api/sessions/${ids.practice}/turns`, { text: "What brings you in today?" });
    for (const [name, id] of Object.entries(ids))
      seen[name] = (await callApi(first.url, "GET", `/api/sessions/${id}`)).json;
    // What another process sees in the file right now, with the first one still running (as after a kill -9).
    const reader = new Database(path, { readonly: true });
    expect(reader.prepare("SELECT count(*) AS n FROM turns").get()).toEqual({ n: 5 });
    expect(reader.pragma("journal_mode", { simple: true })).toBe("wal");
    reader.close();

    const second = await start(new SqliteSessionStore(path));
    expect(second.registry.size).toBe(3);
    for (const [name, id] of Object.entries(ids))
      expect((await callApi(second.url, "GET", `/api/sessions/${id}`)).json, name).toEqual(seen[name]);
    // Each continues: the typed one takes a new turn, the simulated patient answers the last question, the trainee asks on.
    const next = await callApi(second.url, "POST", `/api/sessions/${ids.typed}/turns`, { text: "No fever." });
    expect(next.json.history).toHaveLength(5);
    expect(next.json.turns).toBe(2);
    const simulated = await callApi(second.url, "POST", `/api/sessions/${ids.simulated}/simulate`);
    expect(simulated.json.turns).toBe(4);
    const practice = await callApi(second.url, "POST", `/api/sessions/${ids.practice}/turns`, {
      text: "Do you have a cough?",
    });
    expect(practice.json.history).toHaveLength(4);
  });

  it("exports transcripts atomically: whole JSON files equal to what the API shows, no temporary files left", async () => {
    writeFileSync(join(transcripts, `${ids.typed}.json.123.deadbeef.tmp`), '{"torn');
    const server = await start(new SqliteSessionStore(path));
    const names = readdirSync(transcripts).sort();
    expect(names).toEqual(
      Object.values(ids)
        .map((id) => `${id}.json`)
        .sort(),
    );
    for (const id of Object.values(ids)) {
      const transcript = JSON.parse(readFileSync(join(transcripts, `${id}.json`), "utf8"));
      const { created: _created, updated: _updated, ...shown } = transcript;
      expect(shown).toEqual((await callApi(server.url, "GET", `/api/sessions/${id}`)).json);
    }
  });

  it("deleting a session deletes its rows", async () => {
    const store = new SqliteSessionStore(path);
    const server = await start(store);
    expect((await store.turns(ids.typed!)).map((turn) => turn.input)).toEqual([
      "I've had a bad cough for about a week.",
      "No fever.",
    ]);
    expect((await callApi(server.url, "DELETE", `/api/sessions/${ids.typed}`)).status).toBe(204);
    expect(await store.turns(ids.typed!)).toEqual([]);
    expect((await store.all()).map((session) => session.id)).not.toContain(ids.typed);
    await server.close();
    const after = await start(new SqliteSessionStore(path));
    expect((await callApi(after.url, "GET", `/api/sessions/${ids.typed}`)).status).toBe(404);
  });

  it("expires sessions idle longer than the configured time, rows included", async () => {
    const store = new SqliteSessionStore(path);
    const server = await start(store, { idleMinutes: 5 });
    const fresh = (await callApi(server.url, "POST", "/api/sessions", {})).json.id;
    const expired = await server.registry.expireIdle(Date.now() + 3 * 60_000);
    expect(expired).toEqual([]);
    const later = await server.registry.expireIdle(Date.now() + 6 * 60_000);
    expect(later).toContain(fresh);
    expect(await store.all()).toEqual([]);
    expect((await callApi(server.url, "GET", `/api/sessions/${fresh}`)).status).toBe(404);
  });

  it("answers 503 when a turn cannot be stored, and the session stays as it was stored", async () => {
    const store = new SqliteSessionStore(":memory:");
    let failCommits = false;
    const failing: SessionStore = Object.assign(Object.create(store), {
      commitTurn: (...args: Parameters<SessionStore["commitTurn"]>) =>
        failCommits ? Promise.reject(new Error("disk full")) : store.commitTurn(...args),
    });
    const server = await chatServerForTest({ modules, store: failing });
    const id = (await callApi(server.url, "POST", "/api/sessions", {})).json.id;
    failCommits = true;
    const refused = await callApi(server.url, "POST", `/api/sessions/${id}/turns`, { text: "I have a cough." });
    expect(refused).toMatchObject({ status: 503, json: { error: { code: "storage_failed" } } });
    expect((await callApi(server.url, "GET", `/api/sessions/${id}`)).json).toMatchObject({
      turns: 0,
      history: [{ speaker: "doctor" }],
    });
    failCommits = false;
    expect(
      (await callApi(server.url, "POST", `/api/sessions/${id}/turns`, { text: "I have a cough." })).json.turns,
    ).toBe(1);
  });

  it("keeps its database under the user's data directory by default", () => {
    expect(defaultDatabasePath({ XDG_DATA_HOME: "/data/home" })).toBe("/data/home/anamnesis/sessions.db");
    expect(defaultDatabasePath({ HOME: "/home/x" })).toMatch(/\/\.local\/share\/anamnesis\/sessions\.db$/);
    expect(existsSync(path)).toBe(true);
  });
});
