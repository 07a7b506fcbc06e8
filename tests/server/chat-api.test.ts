import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadMeditod } from "../../src/data/meditod.ts";
import { createModules } from "../../src/modules/builders/create-modules.ts";
import { loadOntologyFile } from "../../src/ontology/ontology-files.ts";
import { caseFromDialogue } from "../../src/simulator/patient-simulator.ts";
import type { DialogueModules } from "../../src/language/module-interfaces.ts";
import { tempDirForFile } from "../temp-dirs.ts";
import { callApi, chatServerForFile } from "./chat-server.ts";

const dataset = loadMeditod();
const transcripts = tempDirForFile("anamnesis-transcripts-");
let modules: DialogueModules;
let failNext = true;

beforeAll(async () => {
  ({ modules } = await createModules("embedded", dataset));
});
const server = chatServerForFile(() => ({
  modules,
  cases: [caseFromDialogue(dataset, "317")],
  transcriptsDir: transcripts,
  maxSessions: 3,
}));
// A system whose NLU fails once, to show a failed turn is reported and can be retried.
const flakyServer = chatServerForFile(() => ({
  modules: {
    ...modules,
    nlu: {
      id: "flaky",
      understand: async (input, options) => {
        if (failNext) {
          failNext = false;
          throw new Error("backend unreachable");
        }
        return modules.nlu.understand(input, options);
      },
    },
  },
}));

describe("the chat server", () => {
  it("binds 127.0.0.1 by default", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("runs a conversation and fills the profile", async () => {
    const created = await callApi(server.url, "POST", "/api/sessions", {});
    expect(created.status).toBe(201);
    expect(created.json.history).toEqual([{ speaker: "doctor", text: "What brings you in today?" }]);
    const turn = await callApi(server.url, "POST", `/api/sessions/${created.json.id}/turns`, {
      text: "I've had a bad cough for about a week, and I'm short of breath.",
    });
    expect(turn.status).toBe(200);
    expect(turn.json.outcome.error).toBeNull();
    expect(turn.json.history).toHaveLength(3);
    expect(turn.json.history[2].speaker).toBe("doctor");
    const fetched = await callApi(server.url, "GET", `/api/sessions/${created.json.id}`);
    expect(fetched.json.history).toEqual(turn.json.history);
    expect(fetched.json.state).toEqual(turn.json.state);
  });

  it("lets a simulated patient answer and saves transcripts only to the given directory", async () => {
    const created = await callApi(server.url, "POST", "/api/sessions", { case: "317" });
    const first = await callApi(server.url, "POST", `/api/sessions/${created.json.id}/simulate`);
    expect(first.status).toBe(200);
    expect(first.json.patient).toMatch(/cough/);
    const saved = JSON.parse(readFileSync(join(transcripts, `${created.json.id}.json`), "utf8"));
    expect(saved.history).toHaveLength(3);
    expect(readdirSync(transcripts).every((name) => name.endsWith(".json"))).toBe(true);
  });

  const invalid: Array<[string, string, string, unknown, string | undefined, number, string]> = [
    ["an empty utterance", "POST", "turns", { text: "   " }, undefined, 400, "invalid_request"],
    ["a missing text", "POST", "turns", {}, undefined, 400, "invalid_request"],
    ["an unknown field", "POST", "turns", { text: "hi", admin: true }, undefined, 400, "invalid_request"],
    ["a non-string text", "POST", "turns", { text: 42 }, undefined, 400, "invalid_request"],
    ["malformed JSON", "POST", "turns", undefined, "{oops", 400, "invalid_json"],
    ["an oversized body", "POST", "turns", { text: "x".repeat(20_000) }, undefined, 413, "too_large"],
    ["simulation without a case", "POST", "simulate", undefined, undefined, 409, "no_case"],
    ["a retry with nothing to retry", "POST", "retry", undefined, undefined, 409, "nothing_to_retry"],
  ];
  for (const [what, method, action, body, raw, status, code] of invalid) {
    it(`rejects ${what} with ${status} and keeps serving`, async () => {
      const created = await callApi(server.url, "POST", "/api/sessions", {});
      const response = await callApi(server.url, method, `/api/sessions/${created.json.id}/${action}`, body, raw);
      expect(response.status).toBe(status);
      expect(response.json.error.code).toBe(code);
      expect((await callApi(server.url, "GET", "/api/health")).json.ok).toBe(true);
    });
  }

  it("serves the page the ontology's status names and the record's labels (the page hard-codes none)", async () => {
    const response = await callApi(server.url, "GET", "/api/ontology");
    expect(response.json).toEqual({
      statuses: ["positive", "negative", "unknown", "avail", "unavail"],
      presentStatuses: ["positive", "avail"],
      recordLabels: loadOntologyFile("record-labels.json").labels,
    });
    expect(response.json.recordLabels["alcohol abuse"]).toMatchObject({ label: "alcohol use" });
  });

  it("answers unknown sessions, cases and endpoints with 404", async () => {
    expect((await callApi(server.url, "GET", "/api/sessions/nope")).json.error.code).toBe("unknown_session");
    expect((await callApi(server.url, "POST", "/api/sessions", { case: "407" })).json.error.code).toBe("unknown_case");
    expect((await callApi(server.url, "GET", "/api/nothing")).status).toBe(404);
  });

  it("keeps at most maxSessions sessions, dropping the client's own least recently used", async () => {
    const ids: string[] = [];
    for (let index = 0; index < 4; index += 1)
      ids.push((await callApi(server.url, "POST", "/api/sessions", {})).json.id);
    expect((await callApi(server.url, "GET", `/api/sessions/${ids[0]}`)).status).toBe(404);
    expect((await callApi(server.url, "GET", `/api/sessions/${ids[3]}`)).status).toBe(200);
    expect((await callApi(server.url, "DELETE", `/api/sessions/${ids[3]}`)).status).toBe(204);
    expect((await callApi(server.url, "GET", `/api/sessions/${ids[3]}`)).status).toBe(404);
  });

  it("escalates on a red flag: advice in the reply, the flag in the answer and the saved transcript; the patient may end there", async () => {
    const created = await callApi(server.url, "POST", "/api/sessions", {});
    expect(created.json.redFlags).toEqual([]);
    const turn = await callApi(server.url, "POST", `/api/sessions/${created.json.id}/turns`, {
      text: "I've had crushing chest pain since this morning and I'm short of breath.",
    });
    // "Since this morning" says when it began, not that it began suddenly: a possible heart attack, not a clot in the lung.
    expect(turn.json.outcome.escalation).toMatchObject([
      { id: "chest_pain_with_breathlessness_or_sweating", urgency: "emergency", turn: 1 },
    ]);
    expect(turn.json.outcome.doctor).toMatch(/^Before we go on[^\n]*ambulance[^\n]*\n\n\S/);
    expect(turn.json.redFlags).toHaveLength(1);
    const saved = JSON.parse(readFileSync(join(transcripts, `${created.json.id}.json`), "utf8"));
    expect(saved.redFlags.map((flag: { id: string }) => flag.id)).toEqual([
      "chest_pain_with_breathlessness_or_sweating",
    ]);

    const note = await callApi(server.url, "GET", `/api/sessions/${created.json.id}/note`);
    expect(note.json.note).toMatchObject({
      presentingComplaint: ["chest pain", "dyspnea"],
      redFlags: [{ id: "chest_pain_with_breathlessness_or_sweating" }],
    });
    const markdown = await fetch(`${server.url}/api/sessions/${created.json.id}/note?format=markdown`);
    expect(markdown.headers.get("content-type")).toMatch(/^text\/markdown/);
    expect(markdown.headers.get("content-disposition")).toMatch(
      /^attachment; filename="?anamnesis-note-[0-9a-f-]+\.md"?$/,
    );
    expect(await markdown.text()).toMatch(
      /^# [^\n]*\n\n## Red flags\n\n- \*\*Chest pain that may be the heart[^\n]*said: "[^\n]*\n\n## Presenting complaint\n\nchest pain, dyspnea\n/,
    );
    expect((await callApi(server.url, "GET", `/api/sessions/${created.json.id}/note?format=pdf`)).status).toBe(400);

    const ended = await callApi(server.url, "POST", `/api/sessions/${created.json.id}/end`);
    expect(ended.status).toBe(200);
    expect(ended.json).toMatchObject({ ended: true, redFlags: [{ id: "chest_pain_with_breathlessness_or_sweating" }] });
    expect(
      (await callApi(server.url, "POST", `/api/sessions/${created.json.id}/turns`, { text: "hello?" })).status,
    ).toBe(409);
  });

  it("reports a failed turn and retries it", async () => {
    const created = await callApi(flakyServer.url, "POST", "/api/sessions", {});
    const failed = await callApi(flakyServer.url, "POST", `/api/sessions/${created.json.id}/turns`, {
      text: "I have a cough.",
    });
    expect(failed.status).toBe(200);
    expect(failed.json.outcome).toMatchObject({ doctor: null, error: "backend unreachable" });
    const retried = await callApi(flakyServer.url, "POST", `/api/sessions/${created.json.id}/retry`);
    expect(retried.json.outcome.error).toBeNull();
    expect(retried.json).toMatchObject({ error: null, failed: false, turns: 1 });
    expect(retried.json.history.map((turn: { speaker: string }) => turn.speaker)).toEqual([
      "doctor",
      "patient",
      "doctor",
    ]);
    // A second retry has nothing to retry: refused, and the turn is not counted again.
    const again = await callApi(flakyServer.url, "POST", `/api/sessions/${created.json.id}/retry`);
    expect(again).toMatchObject({ status: 409, json: { error: { code: "nothing_to_retry" } } });
    expect((await callApi(flakyServer.url, "GET", `/api/sessions/${created.json.id}`)).json).toMatchObject({
      turns: 1,
      error: null,
      failed: false,
      history: retried.json.history,
    });
  });
});
