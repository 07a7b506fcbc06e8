import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { clinicalNote, clinicalNoteSchema } from "../../src/clinical/clinical-note.ts";
import { noteToMarkdown } from "../../src/clinical/note-markdown.ts";
import { loadRedFlags } from "../../src/clinical/red-flags.ts";
import type { DialogueState } from "../../src/cmas/schemas.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import { caseFromDialogue } from "../../src/simulator/patient-simulator.ts";

const dataset = loadMeditod();
const development = loadMeditod(fileURLToPath(new URL("../../data/meditod-dev/", import.meta.url)));

describe("the clinical note from the tracked CMAS state", () => {
  it("writes every section of RES0001's gold history, in its own words", () => {
    const note = clinicalNote({
      state: caseFromDialogue(development, "RES0001").profile,
      presenting: ["chest pain", "dyspnea"],
    });
    expect(clinicalNoteSchema.parse(note)).toEqual(note);
    expect(note.patient).toEqual({ age: "52", sex: null });
    expect(note.presentingComplaint).toEqual(["chest pain", "dyspnea"]);
    expect(note.historyOfPresentingComplaint[0]).toEqual({
      value: "chest pain",
      details: [
        { attribute: "onset", label: "onset", value: "8 days ago" },
        { attribute: "duration", label: "duration", value: "15-20 minutes" },
        { attribute: "aggravating_factor", label: "worse with", value: "deep breathing" },
        { attribute: "positive_characteristics", label: "character", value: "sharp" },
        { attribute: "progression", label: "course", value: "unchanged with time" },
      ],
    });
    // Pertinent positives and negatives: the leg swelling keeps its site; the denied fever is listed.
    expect(note.reviewOfSystems.present.map((finding) => finding.value)).toEqual([
      "cough",
      "palpitations",
      "pain (left leg)",
      "swelling (left leg)",
    ]);
    expect(note.reviewOfSystems.absent).toContain("fever");
    expect(note.allergies).toEqual({ present: [], absent: ["drug allergy"], uncertain: [] });
    expect(note.pastMedicalHistory.present.map((finding) => finding.value)).toContain("hysterectomy");
    expect(note.pastMedicalHistory.absent).not.toContain("drug allergy");
    expect(note.medications.present[0]).toMatchObject({
      value: "acetaminophen",
      details: [
        { label: "for", value: "chest pain" },
        { label: "effect", value: "does not help" },
      ],
    });
    expect(note.familyHistory.present).toEqual([
      { value: "myocardial infarction", details: [{ attribute: "relation", label: "relative", value: "mother" }] },
    ]);
    expect(note.socialHistory).toMatchObject({
      occupation: "administrator at a bank",
      travel: "no recent travel",
      residence: null,
    });
    expect(note.investigations.notDone).toEqual(["pulmonary function tests"]);
    expect(note.redFlags.map((flag) => flag.id)).toEqual(["chest_pain_with_breathlessness_or_sweating"]);
    expect(note.workingImpression?.disease).toBe("pulmonary embolism");
  });

  it("takes the first positive symptom as the presenting complaint when none is given, and the doctors' diagnoses for 115 and 317", () => {
    const copd = clinicalNote({ state: caseFromDialogue(dataset, "115").profile });
    expect(copd.presentingComplaint).toEqual(["cough"]);
    expect(copd.workingImpression?.disease).toBe("chronic bronchitis");
    expect(copd.socialHistory.habits.present[0]).toMatchObject({ value: "smoking" });
    expect(clinicalNote({ state: caseFromDialogue(dataset, "317").profile }).workingImpression?.disease).toBe(
      "covid-19 virus disease",
    );
  });

  it("says 'none' for the working impression, and what was not asked, when the history supports no diagnosis", () => {
    const note = clinicalNote({
      state: {
        positive_symptom: [{ value: "headache", onset: "two days ago", severity: "5" }],
        negative_symptom: [{ value: "nausea" }],
      },
    });
    expect(note.workingImpression).toBeNull();
    expect(note.redFlags).toEqual([]);
    const markdown = noteToMarkdown(note);
    expect(markdown).toContain(
      "## Working impression\n\nNone: the history does not meet the criteria of any single diagnosis",
    );
    expect(markdown).toContain("- headache — onset: two days ago; severity: 5/10");
    expect(markdown).toContain("- Denies: nausea");
    expect(markdown).toContain("## Medications\n\n_not recorded_");
    expect(markdown).toContain("## Red flags\n\nNone identified.");
  });

  it("puts the red flags the conversation raised at the top, the patient's words as evidence, merged with the state's", () => {
    // The words fired the flag; the NLU filled only a vague symptom: only the conversation knows the flag.
    const state = { positive_symptom: [{ value: "back pain" }] };
    const said = "I've gone numb down below and I can't pee since my back went";
    const raised = loadRedFlags().evaluateSaid([said]);
    expect(raised.map((flag) => flag.id)).toEqual(["saddle_numbness_or_sphincter_change"]);
    // Negative control: from the state alone the note would raise nothing.
    expect(clinicalNote({ state }).redFlags).toEqual([]);
    const note = clinicalNote({ state, raisedRedFlags: raised });
    const { id, label, urgency, evidence } = raised[0]!;
    expect(note.redFlags).toEqual([{ id, label, urgency, evidence }]);
    expect(note.redFlags[0]!.evidence.join(" ")).toMatch(/said: "/);
    const markdown = noteToMarkdown(note, "Note");
    expect(markdown).toMatch(
      /^# Note\n\n## Red flags\n\n- \*\*[^\n]+\*\* \(emergency\): said: "[^\n]*\n\n## Presenting complaint/,
    );

    // A flag both raised in the conversation and met by the final state is listed once, with both evidences.
    const chest: DialogueState = {
      positive_symptom: [{ value: "chest pain", positive_characteristics: ["crushing"] }, { value: "dyspnea" }],
    };
    const fromState = clinicalNote({ state: chest }).redFlags;
    expect(fromState.map((flag) => flag.id)).toEqual(["chest_pain_with_breathlessness_or_sweating"]);
    const both = clinicalNote({
      state: chest,
      raisedRedFlags: [{ ...fromState[0]!, evidence: ['said: "crushing pain in my chest"'] }],
    });
    expect(both.redFlags).toEqual([
      { ...fromState[0]!, evidence: ['said: "crushing pain in my chest"', ...fromState[0]!.evidence] },
    ]);
  });

  it("renders the sections in a clinician's order, the red flags first", () => {
    const markdown = noteToMarkdown(clinicalNote({ state: caseFromDialogue(development, "RES0001").profile }), "Note");
    const headings = [...markdown.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    expect(headings).toEqual([
      "Red flags",
      "Presenting complaint",
      "History of presenting complaint",
      "Review of systems",
      "Past medical history",
      "Medications",
      "Allergies",
      "Family history",
      "Social history",
      "Investigations so far",
      "Working impression",
    ]);
  });
});

describe("light use of a habit, told with its amount", () => {
  const note = (entry: Record<string, string>) =>
    clinicalNote({ state: { positive_symptom: [{ value: "headache" }], unknown_habit: [entry] } });

  it("'a few glasses of wine a week' (MediTOD's unknown status for light use) is listed as alcohol use with the amount", () => {
    const habits = note({ value: "alcohol abuse", frequency: "few glasses of wine a week" }).socialHistory.habits;
    expect(habits.uncertain).toEqual([]);
    expect(habits.present).toEqual([
      { value: "alcohol use", details: [expect.objectContaining({ value: "few glasses of wine a week" })] },
    ]);
  });

  it("negative control: an unknown habit without an amount is still listed as unsure", () => {
    const habits = note({ value: "alcohol abuse" }).socialHistory.habits;
    expect(habits.present).toEqual([]);
    expect(habits.uncertain).toEqual(["alcohol use"]);
  });
});

describe("a smoker's pack-years", () => {
  const habitsOf = (entry: Record<string, string>) =>
    clinicalNote({ state: { positive_symptom: [{ value: "coughing" }], positive_habit: [entry] } }).socialHistory
      .habits;

  it("are counted from the amount and the years smoked", () => {
    expect(habitsOf({ value: "former smoker", frequency: "20 a day for 30 years" }).present[0]!.details).toContainEqual(
      { attribute: "pack_years", label: "pack-years", value: "30" },
    );
  });

  it("negative control: no count without the years", () => {
    const details = habitsOf({ value: "smoking", frequency: "20 a day" }).present[0]!.details;
    expect(details.map((detail) => detail.attribute)).not.toContain("pack_years");
  });
});
