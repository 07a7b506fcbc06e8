import { beforeAll, describe, expect, it } from "vitest";
import { clinicalNote } from "../../src/clinical/clinical-note.ts";
import { noteToMarkdown } from "../../src/clinical/note-markdown.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import type { DialogueModules } from "../../src/language/module-interfaces.ts";
import { createModules } from "../../src/modules/builders/create-modules.ts";
import { callApi, chatServerForFile } from "./chat-server.ts";

let modules: DialogueModules;
beforeAll(async () => {
  ({ modules } = await createModules("embedded", loadMeditod()));
});
const server = chatServerForFile(() => ({ modules }));

describe("GET /api/sessions/:id/note", () => {
  it("is the clinical-note writer's note of the session's tracked state, as JSON and as Markdown", async () => {
    const { json: created } = await callApi(server.url, "POST", "/api/sessions", {});
    await callApi(server.url, "POST", `/api/sessions/${created.id}/turns`, {
      text: "I've had a bad headache for three days, but no fever.",
    });
    const { json: session } = await callApi(server.url, "GET", `/api/sessions/${created.id}`);
    const expected = clinicalNote({ state: session.state, presenting: session.presenting });

    const { json } = await callApi(server.url, "GET", `/api/sessions/${created.id}/note`);
    expect(json).toEqual({ id: created.id, note: expected });
    expect(json.note).toMatchObject({
      version: 2,
      historian: null,
      presentingComplaint: ["headache"],
      reviewOfSystems: { absent: ["fever"] },
      questionsAndConcerns: [],
    });

    const markdown = await fetch(`${server.url}/api/sessions/${created.id}/note?format=markdown`);
    expect(await markdown.text()).toBe(noteToMarkdown(expected, `Clinical note — session ${created.id}`));
  });

  it("says who gave the history and lists the patient's questions, as the conversation recorded them", async () => {
    const { json: created } = await callApi(server.url, "POST", "/api/sessions", {});
    await callApi(server.url, "POST", `/api/sessions/${created.id}/turns`, {
      text: "I'm calling about my dad, he's had a cough for a week. Is it something serious?",
    });
    const { json } = await callApi(server.url, "GET", `/api/sessions/${created.id}/note`);
    expect(json.note.historian).toMatchObject({ informant: "proxy" });
    expect(json.note.historian.relation).not.toBeNull();
    expect(json.note.questionsAndConcerns).toEqual([{ kind: "question", text: expect.stringMatching(/serious/i) }]);
    // The question is listed, not read as history (negative control).
    expect(JSON.stringify(json.note.pastMedicalHistory)).not.toMatch(/serious/i);
    const markdown = await (await fetch(`${server.url}/api/sessions/${created.id}/note?format=markdown`)).text();
    expect(markdown).toMatch(/History from: the patient's /);
  });
});
