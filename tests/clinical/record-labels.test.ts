import { describe, expect, it } from "vitest";
import { clinicalNote } from "../../src/clinical/clinical-note.ts";
import { noteToMarkdown } from "../../src/clinical/note-markdown.ts";
import { recordLabeller } from "../../src/clinical/record-labels.ts";
import type { DialogueState } from "../../src/cmas/schemas.ts";
import { loadOntologyFile } from "../../src/ontology/ontology-files.ts";

/**
 * The note names what the patient said in their terms (issue 20, items 2, 3 and 7): MediTOD files any
 * drinking as "alcohol abuse" and any tiredness as "bedridden"; the note says so only when the
 * patient did. Medicines named are listed first with their doses, once each. Hand-written states.
 */

const DRINKS_AND_TIRED: DialogueState = {
  positive_symptom: [{ value: "bedridden", onset: "2 weeks ago" }],
  negative_symptom: [{ value: "fever" }],
  positive_habit: [{ value: "alcohol abuse", frequency: "a few glasses of wine a week" }],
};

describe("the record's labels (ontology/record-labels.json)", () => {
  for (const example of loadOntologyFile("record-labels.json").examples)
    it(`"${example.value}" after "${example.patient}" is shown as "${example.shown}"`, () => {
      expect(recordLabeller([example.patient])(example.value)).toBe(example.shown);
    });

  it("with the patient's words unknown, the lay label is shown", () => {
    expect(recordLabeller(null)("alcohol abuse")).toBe("alcohol use");
  });
});

describe("the clinical note in the patient's terms", () => {
  const words = ["I've been really tired for two weeks but I'm still up and about.", "A few glasses of wine a week."];

  it("never says 'alcohol abuse' or 'bedridden' of a patient who did not", () => {
    const note = clinicalNote({ state: DRINKS_AND_TIRED, patientWords: words });
    expect(note.presentingComplaint).toEqual(["tiredness"]);
    expect(note.socialHistory.habits.present).toEqual([
      {
        value: "alcohol use",
        details: [{ attribute: "frequency", label: "frequency", value: "a few glasses of wine a week" }],
      },
    ]);
    const markdown = noteToMarkdown(note);
    expect(markdown).not.toMatch(/alcohol abuse|bedridden/);
    // Only the denied fever is denied (nothing else was asked).
    expect(markdown.match(/Denies/g)).toHaveLength(1);
    expect(markdown).toContain("- Denies: fever\n");
  });

  it("finds the presenting complaint the conversation recorded under the data's label", () => {
    const state: DialogueState = {
      positive_symptom: [{ value: "coughing" }, { value: "bedridden", onset: "2 weeks ago" }],
    };
    const note = clinicalNote({ state, presenting: ["bedridden"], patientWords: words });
    expect(note.presentingComplaint).toEqual(["tiredness"]);
    expect(note.historyOfPresentingComplaint.map((finding) => finding.value)).toEqual(["tiredness"]);
    expect(note.reviewOfSystems.present.map((finding) => finding.value)).toEqual(["cough"]);
  });

  it("negative control: a patient who says it keeps the data's label", () => {
    const note = clinicalNote({
      state: DRINKS_AND_TIRED,
      patientWords: ["I'm bedridden most days now.", "I'm an alcoholic, I've been drinking a bottle of vodka a day."],
    });
    expect(note.presentingComplaint).toEqual(["bedridden"]);
    expect(note.socialHistory.habits.present[0]!.value).toBe("alcohol abuse");
  });

  it("names a value that is only the data's form of a word in the word, whatever the patient said (negative control: the visit note keeps it)", () => {
    const state: DialogueState = {
      positive_symptom: [{ value: "coughing" }],
      negative_symptom: [{ value: "colored/excess sputum" }, { value: "dermatologic problem" }],
    };
    const note = clinicalNote({ state, patientWords: ["I've been coughing for weeks", "no phlegm"] });
    expect(note.presentingComplaint).toEqual(["cough"]);
    expect(note.reviewOfSystems.absent).toEqual(["sputum", "rash or skin change"]);
    const visit = clinicalNote({ state, dataLabels: true });
    expect(visit.reviewOfSystems.absent).toEqual(["colored/excess sputum", "dermatologic problem"]);
  });

  it("a writer that names values itself (the visit note) gets the data's labels", () => {
    const note = clinicalNote({ state: DRINKS_AND_TIRED, dataLabels: true });
    expect(note.socialHistory.habits.present[0]!.value).toBe("alcohol abuse");
  });
});

describe("the note's medicines", () => {
  const state: DialogueState = {
    positive_medication: [
      { value: "antihypertensive agents" },
      { value: "acetaminophen", impact: "no" },
      { value: "antibiotics" },
    ],
    negative_medication: [{ value: "anticoagulants" }],
  };
  const medicines = [
    { name: "ramipril", dose: "5mg", frequency: "in the morning" },
    { name: "paracetamol", dose: "500mg", frequency: "when I need it" },
  ];

  it("says whether a medicine helped in words: 'maybe' (it helped a bit) is 'helps partly', never 'maybe'", () => {
    const helped = (impact: string) =>
      clinicalNote({ state: { positive_medication: [{ value: "acetaminophen", impact }] } }).medications.present[0]!
        .details;
    expect(helped("maybe")).toEqual([{ attribute: "impact", label: "effect", value: "helps partly" }]);
    expect(helped("yes")).toEqual([{ attribute: "impact", label: "effect", value: "helps" }]);
    // Negative control: a value the data does not use is written as it is.
    expect(helped("a lot")).toEqual([{ attribute: "impact", label: "effect", value: "a lot" }]);
  });

  it("lists the medicines named first, with their doses, each once: a class standing for one is folded into it", () => {
    const note = clinicalNote({ state, medicines });
    expect(note.medications.present).toEqual([
      { value: "ramipril", details: [], dose: "5mg", frequency: "in the morning" },
      {
        value: "paracetamol",
        details: [{ attribute: "impact", label: "effect", value: "does not help" }],
        dose: "500mg",
        frequency: "when I need it",
      },
      { value: "antibiotics", details: [], dose: null, frequency: null },
    ]);
    expect(noteToMarkdown(note)).toContain(
      "## Medications\n\n- ramipril 5mg in the morning\n- paracetamol 500mg when I need it — effect: does not help\n- antibiotics\n- Not taking: anticoagulants\n",
    );
  });

  it("negative control: without medicines named, the slot's entries are the list, as before", () => {
    expect(clinicalNote({ state }).medications.present.map((medication) => medication.value)).toEqual([
      "antihypertensive agents",
      "acetaminophen",
      "antibiotics",
    ]);
  });
});
