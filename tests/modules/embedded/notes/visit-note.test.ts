import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { loadMeditod } from "../../../../src/data/meditod.ts";
import type { NluModule } from "../../../../src/language/module-interfaces.ts";
import { buildEmbeddedNlu } from "../../../../src/modules/embedded/nlu.ts";
import { readVisitNote, VisitNoteWriter } from "../../../../src/modules/embedded/notes/visit-note-reader.ts";
import { loadTrainingData } from "../../../../src/modules/embedded/training-data.ts";

/** A short visit written for these tests (not from any dataset): a twisted knee, examined, x-rayed and planned. */
const KNEE_VISIT = readFileSync(new URL("../../../fixtures/visit-notes/knee-visit.txt", import.meta.url), "utf8");

let nlu: NluModule;
beforeAll(() => {
  nlu = buildEmbeddedNlu(loadTrainingData(loadMeditod(), "train"));
});

describe("the embedded engine's visit note", () => {
  it("writes the sections clinicians' visit notes use, in their order, leaving out what the visit did not give", async () => {
    const { text } = await new VisitNoteWriter(nlu).write({ instructions: "", input: KNEE_VISIT });
    expect([...text.matchAll(/^([A-Z][A-Z ]+)$/gm)].map((match) => match[1])).toEqual([
      "CHIEF COMPLAINT",
      "HISTORY OF PRESENT ILLNESS",
      "REVIEW OF SYSTEMS",
      "PAST MEDICAL HISTORY",
      "MEDICATIONS",
      "PHYSICAL EXAMINATION",
      "RESULTS",
      "ASSESSMENT AND PLAN",
    ]);
    expect(text).toContain("PHYSICAL EXAMINATION\n\n• Musculoskeletal: On right knee exam, there is moderate swelling");
    expect(text).toContain("1. Right knee pain.\n• Medical Reasoning: I think you have a medial meniscus tear.");
    expect(text).toMatch(/Patient Agreements: The patient understands and agrees/);
  });

  it("reads the history as the chat does: who the patient is, the complaint, and the denials the patient made", async () => {
    const note = await readVisitNote(nlu, KNEE_VISIT);
    expect(note.chiefComplaint).toEqual(["Knee pain."]);
    expect(note.historyOfPresentIllness[0]).toBe(
      "The patient is a 45-year-old male with a past medical history significant for hypertension who presents with knee pain.",
    );
    expect(note.reviewOfSystems).toContain("• Constitutional: Denies fever and chills.");
    expect(note.medications).toEqual(["Patient reports taking ibuprofen."]);
  });

  it("denies nothing for a 'no' to a question that asked whether the patient could work (negative control)", async () => {
    const note = await readVisitNote(nlu, KNEE_VISIT);
    const denials = [...note.historyOfPresentIllness, ...note.reviewOfSystems].join(" ").match(/Denies [^.]*/gi);
    expect(denials).toEqual(["denies fever and chills", "Denies fever and chills"]);
  });

  it("lists the patient's question and never reads it as history", async () => {
    const note = await readVisitNote(nlu, KNEE_VISIT);
    expect(note.historyOfPresentIllness).toContain('He asked: "Do you think I will need surgery?"');
    expect(note.pastMedicalHistory).toEqual(["Patient reports a history of hypertension."]);
  });

  it("says the history was given by a companion when one answered for the patient, and by no one when the patient did", async () => {
    const proxy = await readVisitNote(
      nlu,
      "[doctor] what brings her in today ?\n[patient_guest] she's had a cough for three days .\n[doctor] any fever ?\n[patient_guest] no .",
    );
    expect(proxy.historyOfPresentIllness[0]).toBe(
      "The patient presents with cough. The history is given by a companion.",
    );
    expect(proxy.chiefComplaint).toEqual(["Cough."]);
    const own = await readVisitNote(nlu, KNEE_VISIT);
    expect(own.historyOfPresentIllness.join(" ")).not.toContain("history is given by");
  });
});

describe("a no to a follow-up question about a reported symptom", () => {
  it("does not deny the symptom the patient reported (the no answers the follow-up)", async () => {
    const note = await readVisitNote(
      nlu,
      "[doctor] what brings you in ?\n[patient] i've had a cough for a week .\n[doctor] okay . any does the cough bring anything up ?\n[patient] no not really .",
    );
    const text = [...note.historyOfPresentIllness, ...note.reviewOfSystems].join(" ");
    expect(note.chiefComplaint).toEqual(["Cough."]);
    expect(text).not.toMatch(/denies[^.]*cough/i);
  });

  it("still denies what a question asked about and the patient had not reported (control)", async () => {
    const note = await readVisitNote(
      nlu,
      "[doctor] what brings you in ?\n[patient] i've had a cough for a week .\n[doctor] okay . any fever ?\n[patient] no not really .",
    );
    expect(note.reviewOfSystems.join(" ")).toMatch(/Denies fever/);
  });
});
