import { beforeAll, describe, expect, it } from "vitest";
import { DialogueStateTracker } from "../../src/cmas/dialogue-state.ts";
import type { DialogueState } from "../../src/cmas/schemas.ts";
import { CLINICAL_NOTE_VERSION, clinicalNote, clinicalNoteSchema } from "../../src/clinical/clinical-note.ts";
import { noteToMarkdown } from "../../src/clinical/note-markdown.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import type { NluModule } from "../../src/language/module-interfaces.ts";
import { buildEmbeddedNlu } from "../../src/modules/embedded/nlu.ts";
import { loadTrainingData } from "../../src/modules/embedded/training-data.ts";

/**
 * The note a clinician can trust (issue #20 item 7), each reading with a hand-written example and a
 * negative control. The histories are taken as in chat: each patient answer read by the embedded NLU
 * with the doctor's question as its context, the frames tracked into the CMAS state.
 */

let nlu: NluModule;
beforeAll(() => {
  nlu = buildEmbeddedNlu(loadTrainingData(loadMeditod(), "train"));
});

/** The tracked state after each (doctor's question, patient's answer) exchange. */
async function historyOf(exchanges: ReadonlyArray<readonly [string, string]>): Promise<DialogueState> {
  const tracker = new DialogueStateTracker(undefined, "value-and-site");
  for (const [question, answer] of exchanges) {
    const { frames } = await nlu.understand({ history: [{ speaker: "doctor", text: question }], utterance: answer });
    tracker.update(frames ?? []);
  }
  return tracker.state();
}

describe("the note says 'denies' only for what the patient denied", () => {
  it("a 'no' to a question is a denial; a symptom never asked is nowhere in the note", async () => {
    const state = await historyOf([
      ["What brings you in today?", "I've had a headache for three days."],
      ["Have you had any fever?", "No."],
    ]);
    const note = clinicalNote({ state });
    expect(note.reviewOfSystems.absent).toEqual(["fever"]);
    const markdown = noteToMarkdown(note);
    expect(markdown).toContain("- Denies: fever");
    // Never asked: neither denied nor mentioned.
    expect(markdown).not.toMatch(/nausea|vomit|neck stiffness/);
  });

  it("a site denied after another affirmed keeps the affirmed one; negative control: the same site denied is denied", async () => {
    const opening = [
      "What brings you in today?",
      "I've been short of breath for a week and my ankles are swollen.",
    ] as const;
    const otherSite = await historyOf([opening, ["Any swelling in your legs?", "no leg swelling, just the ankles"]]);
    const markdown = noteToMarkdown(clinicalNote({ state: otherSite }));
    expect(markdown).toContain("- swelling (ankle)");
    expect(markdown).toContain("- Denies: swelling (leg)");
    const sameSite = await historyOf([opening, ["Any swelling in your ankles?", "no, the ankles aren't swollen"]]);
    expect(noteToMarkdown(clinicalNote({ state: sameSite }))).toMatch(/Denies: swelling \(ankle/);
  });

  it("'not sure' is uncertain, never denied", async () => {
    const state = await historyOf([
      ["What brings you in today?", "I've had a headache for three days."],
      ["Any cough?", "I'm not sure."],
    ]);
    const note = clinicalNote({ state });
    expect(note.reviewOfSystems.uncertain).toEqual(["cough"]);
    expect(note.reviewOfSystems.absent).toEqual([]);
    const markdown = noteToMarkdown(note);
    expect(markdown).toContain("- Unsure: cough");
    expect(markdown).not.toContain("Denies");
  });

  it("'I couldnt tell you, she cant say' (a relative) is uncertain, never denied; negative control: 'no she hasnt' denies", async () => {
    const unsure = await historyOf([
      ["What brings you in today?", "My mum has been muddled since yesterday."],
      ["Has she had any fever?", "I couldnt tell you, she cant say"],
    ]);
    const note = clinicalNote({ state: unsure });
    expect(note.reviewOfSystems.uncertain).toEqual(["fever"]);
    expect(noteToMarkdown(note)).not.toContain("Denies");
    const denied = await historyOf([
      ["What brings you in today?", "My mum has been muddled since yesterday."],
      ["Has she had any fever?", "no she hasnt"],
    ]);
    expect(noteToMarkdown(clinicalNote({ state: denied }))).toContain("- Denies: fever");
  });

  it("a denial in the other sections is written as that section's negative, and only then", async () => {
    const state = await historyOf([
      ["What brings you in today?", "I've had a headache for three days."],
      ["Any allergies to medications?", "no"],
      ["Do you smoke?", "never"],
    ]);
    const markdown = noteToMarkdown(clinicalNote({ state }));
    expect(markdown).toContain("## Allergies\n\n- No: drug allergy");
    expect(markdown).toContain("  - No: smoking");
    // Family history was not asked: not recorded, not "no family history".
    expect(markdown).toContain("## Family history\n\n_not recorded_");
    expect(markdown).not.toContain("No family history");
  });

  it("a finding denied when asked and then told in words beside its red flag is not listed as denied", async () => {
    const state = await historyOf([
      ["What brings you in today?", "I've been feeling really low."],
      ["Have you had any thoughts of harming yourself or ending your life?", "no"],
    ]);
    expect(clinicalNote({ state }).reviewOfSystems.absent).toContain("suicidal ideation");
    const told = { id: "suicidal_thoughts", label: "Thoughts of suicide or self-harm", urgency: "emergency" as const };
    const raisedRedFlags = [{ ...told, evidence: ['said: "everyone would be better off without me"'] }];
    const note = clinicalNote({ state, raisedRedFlags });
    expect(note.redFlags.map((flag) => flag.id)).toEqual(["suicidal_thoughts"]);
    expect(note.reviewOfSystems.absent).not.toContain("suicidal ideation");
  });

  it("negative control: a flag that needs several findings together keeps its parts' denials", async () => {
    const state = await historyOf([
      ["What brings you in today?", "crushing pain in my chest and I'm sweating"],
      ["Have you had any shortness of breath?", "no"],
    ]);
    const raisedRedFlags = [
      {
        id: "chest_pain_with_breathlessness_or_sweating",
        label: "Chest pain that may be the heart",
        urgency: "emergency" as const,
        evidence: ['said: "crushing pain in my chest"'],
      },
    ];
    expect(clinicalNote({ state, raisedRedFlags }).reviewOfSystems.absent).toContain("dyspnea");
  });
});

describe("allergies name the drug the patient said, as CMAS cannot", () => {
  const noteOf = async (answer: string) => {
    const exchanges = [["Do you have any allergies?", answer]] as const;
    return noteToMarkdown(clinicalNote({ state: await historyOf(exchanges), patientWords: [answer] }));
  };

  it("'penicillin gives me a rash': a drug allergy to penicillin, with the rash", async () => {
    expect(await noteOf("penicillin gives me a rash")).toContain(
      "## Allergies\n\n- drug allergy — allergen: penicillin (rash)",
    );
  });

  it("'no allergies that I know of, but penicillin gives me a rash': the allergy, never 'No: drug allergy'", async () => {
    const markdown = await noteOf("no allergies that I know of, but penicillin gives me a rash");
    expect(markdown).toContain("- drug allergy — allergen: penicillin (rash)");
    expect(markdown).not.toContain("No: drug allergy");
  });

  it("negative controls: an allergy denied, or a drug taken, names no allergen", async () => {
    expect(await noteOf("I'm not allergic to penicillin")).not.toContain("allergen:");
    const taken = noteToMarkdown(
      clinicalNote({
        state: await historyOf([["Any medications?", "I take amoxicillin"]]),
        patientWords: ["I take amoxicillin"],
      }),
    );
    expect(taken).not.toContain("allergen:");
  });
});

describe("who gave the history", () => {
  it("is read from the state when proxy detection records the speaker's relation", () => {
    const state = { basic_information: [{ age: "2", informant: "mother" }] };
    const note = clinicalNote({ state });
    expect(note.historian).toEqual({ informant: "proxy", relation: "mother" });
    expect(noteToMarkdown(note)).toContain("History from: the patient's mother\n");
    expect(clinicalNote({ state: { basic_information: [{ informant: "self" }] } }).historian).toEqual({
      informant: "patient",
      relation: null,
    });
  });

  it("is null, and not written, when nothing recorded it", () => {
    const note = clinicalNote({ state: { basic_information: [{ age: "40" }] } });
    expect(note.historian).toBeNull();
    expect(noteToMarkdown(note)).not.toContain("History from");
  });

  it("is taken as given when the conversation recorded it apart from the state", () => {
    const note = clinicalNote({ state: {}, historian: { informant: "proxy", relation: "daughter" } });
    expect(noteToMarkdown(note)).toContain("History from: the patient's daughter");
  });
});

describe("the patient's questions and concerns", () => {
  it("are listed in the order voiced, each with its kind", () => {
    const note = clinicalNote({
      state: { positive_symptom: [{ value: "headache" }] },
      questionsAndConcerns: [
        { kind: "question", text: "Is it cancer?" },
        { kind: "concern", text: "My father had a stroke at my age." },
      ],
    });
    expect(note.questionsAndConcerns.map((voice) => voice.kind)).toEqual(["question", "concern"]);
    expect(noteToMarkdown(note)).toContain(
      "## Patient's questions and concerns\n\n- Asked: Is it cancer?\n- Worried: My father had a stroke at my age.\n",
    );
  });

  it("are an empty list, and no section, when none were recorded", () => {
    const note = clinicalNote({ state: { positive_symptom: [{ value: "headache" }] } });
    expect(note.questionsAndConcerns).toEqual([]);
    expect(noteToMarkdown(note)).not.toContain("questions and concerns");
  });
});

describe("medicines with their doses", () => {
  it("shows the dose and frequency the state records", () => {
    const note = clinicalNote({
      state: {
        positive_medication: [{ value: "ibuprofen", dose: "400 mg", frequency: "twice a day", respone_to: "headache" }],
      },
    });
    expect(note.medications.present[0]).toMatchObject({ value: "ibuprofen", dose: "400 mg", frequency: "twice a day" });
    expect(noteToMarkdown(note)).toContain("- ibuprofen 400 mg twice a day — for: headache");
  });

  it("invents no dose when the state has none, and keeps the frequency the NLU read", async () => {
    const state = await historyOf([
      ["Are you taking any medications?", "Just ibuprofen twice a day for the headache."],
    ]);
    const note = clinicalNote({ state });
    expect(note.medications.present[0]).toMatchObject({ value: "ibuprofen", dose: null, frequency: "twice a day" });
    expect(noteToMarkdown(note)).toContain("- ibuprofen twice a day — for: headache");
  });
});

describe("the note's JSON is a versioned API", () => {
  it("carries its version and validates against the schema; the fields of version 1 keep their meaning", () => {
    const note = clinicalNote({
      state: {
        positive_symptom: [{ value: "headache", onset: "two days ago" }],
        negative_symptom: [{ value: "nausea" }],
        positive_medication: [{ value: "ibuprofen", frequency: "twice a day" }],
      },
    });
    expect(note.version).toBe(CLINICAL_NOTE_VERSION);
    expect(CLINICAL_NOTE_VERSION).toBe(2);
    expect(clinicalNoteSchema.parse(note)).toEqual(note);
    expect(note.reviewOfSystems.absent).toEqual(["nausea"]);
    // A version-1 reader finds the medication as it did: its name and its details.
    expect(note.medications.present[0]).toMatchObject({
      value: "ibuprofen",
      details: [{ attribute: "frequency", label: "frequency", value: "twice a day" }],
    });
  });
});
