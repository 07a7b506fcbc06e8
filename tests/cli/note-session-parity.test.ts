import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadMeditod } from "../../src/data/meditod.ts";
import type { DialogueModules } from "../../src/language/module-interfaces.ts";
import { createModules } from "../../src/modules/builders/create-modules.ts";
import { callApi, chatServerForTest } from "../server/chat-server.ts";
import { tempDirForTest } from "../temp-dirs.ts";
import { runCli } from "./helpers.ts";

/**
 * `anamnesis note --session` writes the note the chat server writes for the same conversation: the
 * saved transcript carries who gave the history, the patient's questions, the red flags raised and the
 * medicines named, so none of them is lost from a note written after the chat. Needs `npm run build`.
 */

let modules: DialogueModules;
beforeAll(async () => {
  ({ modules } = await createModules("embedded", loadMeditod()));
});

/** A conversation told by a daughter: a red flag, a question, two medicines with doses, tiredness and a little wine. */
const DAUGHTER = [
  "I'm ringing about my mum, she's 78 and she's been very tired and muddled since yesterday.",
  "Could it be a stroke?",
  "She takes ramipril 5mg in the morning and atorvastatin 20mg at night.",
  "She has a small glass of wine on a Sunday.",
];

async function savedConversation(
  lines: readonly string[],
): Promise<{ id: string; transcript: string; server: string }> {
  const transcripts = tempDirForTest("anamnesis-parity-");
  const server = await chatServerForTest({ modules, transcriptsDir: transcripts });
  const { json: created } = await callApi(server.url, "POST", "/api/sessions", {});
  for (const text of lines) await callApi(server.url, "POST", `/api/sessions/${created.id}/turns`, { text });
  return {
    id: created.id as string,
    transcript: join(transcripts, `${created.id as string}.json`),
    server: server.url,
  };
}

describe("anamnesis note --session and the chat server's note", () => {
  it("are the same note for the same conversation, as JSON and as Markdown", async () => {
    const { id, transcript, server } = await savedConversation(DAUGHTER);
    const { json } = await callApi(server, "GET", `/api/sessions/${id}/note`);
    const markdown = await (await fetch(`${server}/api/sessions/${id}/note?format=markdown`)).text();
    const fromFile = await runCli(["note", "--session", transcript, "--format", "json"]);
    expect(fromFile.status, fromFile.stderr).toBe(0);
    expect(JSON.parse(fromFile.stdout)).toEqual(json.note);
    expect((await runCli(["note", "--session", transcript])).stdout).toBe(markdown);

    // What only the conversation knows is in both.
    expect(json.note.historian).toEqual({ informant: "proxy", relation: expect.stringMatching(/daughter|child/) });
    expect(json.note.questionsAndConcerns).toEqual([{ kind: "question", text: expect.stringMatching(/stroke/i) }]);
    expect(json.note.medications.present.slice(0, 2)).toEqual([
      { value: "ramipril", details: [], dose: "5mg", frequency: "in the morning" },
      { value: "atorvastatin", details: [], dose: "20mg", frequency: "at night" },
    ]);
    expect(markdown).toContain("- ramipril 5mg in the morning\n- atorvastatin 20mg at night\n");
    // The data's labels of everyday words are not put in the patient's mouth.
    expect(markdown).not.toMatch(/alcohol abuse|bedridden/);
  });

  it("writes the note of a session saved before the transcript carried them, without them", async () => {
    const { transcript } = await savedConversation(DAUGHTER);
    const saved = JSON.parse(readFileSync(transcript, "utf8")) as Record<string, unknown>;
    for (const added of ["informant", "medicines", "patientRequests"]) delete saved[added];
    writeFileSync(transcript, JSON.stringify(saved));
    const result = await runCli(["note", "--session", transcript, "--format", "json"]);
    expect(result.status, result.stderr).toBe(0);
    const note = JSON.parse(result.stdout);
    expect(note).toMatchObject({ historian: null, questionsAndConcerns: [] });
    expect(note.medications.present.map((medication: { value: string }) => medication.value)).not.toContain("ramipril");
  });
});
