import { beforeAll, describe, expect, it } from "vitest";
import { loadMeditod } from "../../src/data/meditod.ts";
import { buildQuestionReader } from "../../src/modules/embedded/question-reader.ts";
import { loadTrainingData } from "../../src/modules/embedded/training-data.ts";
import { createModules } from "../../src/modules/builders/create-modules.ts";
import type { DialogueModules } from "../../src/language/module-interfaces.ts";
import { caseFromDialogue } from "../../src/simulator/patient-simulator.ts";
import { callApi, chatServerForFile } from "./chat-server.ts";

const dataset = loadMeditod();
const cases = [caseFromDialogue(dataset, "317")];
let modules: DialogueModules;

beforeAll(async () => {
  ({ modules } = await createModules("embedded", dataset));
});
const server = chatServerForFile(() => ({
  modules,
  cases,
  questionReader: buildQuestionReader(loadTrainingData(dataset, "train")),
}));
const withoutPractice = chatServerForFile(() => ({ modules, cases }));

describe("practice sessions (the user is the doctor)", () => {
  it("answers the trainee's questions as the case's patient and reports the coverage", async () => {
    const created = await callApi(server.url, "POST", "/api/sessions", { case: "317", role: "doctor" });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ role: "doctor", case: "317", history: [], turns: 0, ended: false });
    expect(created.json.coverage.asked).toBe(0);
    expect(created.json.coverage.total).toBeGreaterThan(0);

    const opening = await callApi(server.url, "POST", `/api/sessions/${created.json.id}/turns`, {
      text: "What brings you in today?",
    });
    expect(opening.status).toBe(200);
    expect(opening.json.patient).toMatch(/cough/);
    expect(opening.json.actions).toEqual([{ action: "inquire" }]);

    const onset = await callApi(server.url, "POST", `/api/sessions/${created.json.id}/turns`, {
      text: "When did the cough start?",
    });
    expect(onset.json.actions).toEqual([
      { action: "inquire", symptom: [{ value: "coughing", checks: [{ type: "onset" }] }] },
    ]);
    // A wh-question gets its detail, not a bare "Yes.".
    expect(onset.json.patient).toBe("It started four days ago.");
    const cough = onset.json.coverage.facts.find((fact: { label: string }) => fact.label === "coughing");
    expect(cough.asked).toBe(true);
    expect(onset.json.coverage.percent).toBeGreaterThan(0);
    expect(onset.json.history.map((turn: { speaker: string }) => turn.speaker)).toEqual([
      "doctor",
      "patient",
      "doctor",
      "patient",
    ]);
    expect(onset.json.history[2].text).toBe("When did the cough start?");

    const fetched = await callApi(server.url, "GET", `/api/sessions/${created.json.id}`);
    expect(fetched.json.history).toEqual(onset.json.history);
    expect(fetched.json.coverage).toEqual(onset.json.coverage);
    expect(fetched.json.turns).toBe(2);
  });

  const invalid: Array<[string, unknown, number, string]> = [
    ["a practice session without a case", { role: "doctor" }, 400, "invalid_request"],
    ["an unknown role", { case: "317", role: "nurse" }, 400, "invalid_request"],
    ["a practice session with an unknown case", { case: "407", role: "doctor" }, 404, "unknown_case"],
  ];
  for (const [what, body, status, code] of invalid) {
    it(`rejects ${what} with ${status}`, async () => {
      const response = await callApi(server.url, "POST", "/api/sessions", body);
      expect(response.status).toBe(status);
      expect(response.json.error.code).toBe(code);
    });
  }

  it("validates the trainee's turns as other turns", async () => {
    const created = await callApi(server.url, "POST", "/api/sessions", { case: "317", role: "doctor" });
    for (const body of [{ text: "  " }, {}, { text: "hi", extra: 1 }, { text: 7 }]) {
      const response = await callApi(server.url, "POST", `/api/sessions/${created.json.id}/turns`, body);
      expect(response.status).toBe(400);
      expect(response.json.error.code).toBe("invalid_request");
    }
    expect((await callApi(server.url, "GET", `/api/sessions/${created.json.id}`)).json.history).toEqual([]);
  });

  it("refuses the system-doctor endpoints in a practice session", async () => {
    const created = await callApi(server.url, "POST", "/api/sessions", { case: "317", role: "doctor" });
    for (const action of ["simulate", "retry"]) {
      const response = await callApi(server.url, "POST", `/api/sessions/${created.json.id}/${action}`);
      expect(response.status).toBe(409);
      expect(response.json.error.code).toBe("practice_session");
    }
    expect((await callApi(server.url, "DELETE", `/api/sessions/${created.json.id}`)).status).toBe(204);
  });

  it("keeps the patient role as before and says when practice mode is off", async () => {
    const patient = await callApi(server.url, "POST", "/api/sessions", { case: "317", role: "patient" });
    expect(patient.status).toBe(201);
    expect(patient.json.history).toEqual([{ speaker: "doctor", text: "What brings you in today?" }]);
    expect(patient.json.role).toBeUndefined();
    const off = await callApi(withoutPractice.url, "POST", "/api/sessions", { case: "317", role: "doctor" });
    expect(off.status).toBe(409);
    expect(off.json.error.code).toBe("practice_unavailable");
  });
});
