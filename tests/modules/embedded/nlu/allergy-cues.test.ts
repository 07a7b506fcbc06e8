import { describe, expect, it } from "vitest";
import type { SlotEntry } from "../../../../src/cmas/schemas.ts";
import { lexiconFile } from "../../../../src/modules/embedded/nlu/lexicon.ts";
import { readTurn } from "./nlu-harness.ts";

/**
 * A drug in a sentence with a symptom is not an allergy (pass "allergic reactions"). An allergy needs
 * an allergy cue: the words ("allergic", "allergy", "a reaction to", "anaphylaxis"), a drug or food
 * that causes a reaction ("penicillin gives me a rash", "I can't take ibuprofen because it makes me
 * wheezy"), or an allergic reaction (rash, hives, swelling, itching, wheezing) after taking it. A
 * medication that relieves a symptom is a medication taken, and the symptom stays. Hand-written from
 * how patients talk; none comes from a MediTOD dialogue.
 */

/** Every entry of a prefixed slot in the frames of the exchange. */
function entriesOf(question: string, utterance: string, slot: string): SlotEntry[] {
  return (readTurn({ history: [], question, utterance }).frames ?? []).flatMap((frame) => frame.slots?.[slot] ?? []);
}

const valuesOf = (question: string, utterance: string, slot: string) =>
  entriesOf(question, utterance, slot).map((entry) => entry.value);

describe("a medication that relieves a symptom is taken, never an allergy", () => {
  const cases: ReadonlyArray<readonly [utterance: string, symptom: string, medication: string]> = [
    ["I have a headache that eases off when I take Tylenol.", "headache", "acetaminophen"],
    ["My headache goes away when I take ibuprofen.", "headache", "ibuprofen"],
    ["The headache settles down after I take some paracetamol.", "headache", "acetaminophen"],
    ["I've had this headache all week, it only clears up once I take an Advil.", "headache", "ibuprofen"],
    ["Tylenol takes the edge off my headache.", "headache", "acetaminophen"],
    ["My back pain calms down whenever I take ibuprofen.", "pain", "ibuprofen"],
  ];
  for (const [utterance, symptom, medication] of cases) {
    it(`"${utterance}"`, () => {
      const question = "What brings you in today?";
      expect(valuesOf(question, utterance, "positive_medical_history")).not.toContain("drug allergy");
      expect(valuesOf(question, utterance, "positive_symptom")).toContain(symptom);
      expect(valuesOf(question, utterance, "positive_medication")).toContain(medication);
    });
  }

  it("the relieving drug is the medication for the symptom (respone_to); relief by it is no trend over time", () => {
    const utterance = "I have a headache that eases off when I take Tylenol.";
    expect(entriesOf("What brings you in today?", utterance, "positive_medication")).toEqual([
      { value: "acetaminophen", respone_to: "headache" },
    ]);
    expect(entriesOf("What brings you in today?", utterance, "positive_symptom")).toEqual([{ value: "headache" }]);
  });
});

describe("a drug named beside a symptom, with no allergy cue, is no allergy", () => {
  it.each([
    "I've got a headache and I took some Tylenol this morning.",
    "I had a fever last night so I took ibuprofen when I got home.",
    "When I take my Tylenol I still have a headache.",
    "I get dizzy when I take my blood pressure pills.",
  ])("%s", (utterance) => {
    const question = "What brings you in today?";
    expect(valuesOf(question, utterance, "positive_medical_history")).not.toContain("drug allergy");
    expect(valuesOf(question, utterance, "positive_symptom").length).toBeGreaterThan(0);
  });
});

describe("a drug taken for an allergy is no drug allergy", () => {
  it.each([
    "I take Claritin because I'm allergic to pollen.",
    "I use an inhaler for my asthma and Claritin for allergic rhinitis.",
  ])("%s", (utterance) => {
    const question = "Are you taking any medications?";
    expect(valuesOf(question, utterance, "positive_medical_history")).not.toContain("drug allergy");
    expect(valuesOf(question, utterance, "positive_medical_history")).toContain("allergic rhinitis");
    expect(valuesOf(question, utterance, "positive_medication")).toContain("antihistamines");
  });
});

describe("an allergy cue still reads as an allergy", () => {
  it.each([
    ["I'm allergic to penicillin.", "Do you have any allergies?"],
    ["I get a rash when I take amoxicillin.", "Do you have any allergies?"],
    ["My lips swelled up after I took penicillin.", "Any allergies to medications?"],
    ["I came out in hives after taking sulfa drugs.", "Is there anything else I should know?"],
    ["I can't take ibuprofen because it makes me wheezy.", "Are you taking any medications?"],
    ["I had a bad reaction to codeine once.", "Any allergies?"],
    ["Penicillin, I went into anaphylaxis as a kid.", "Do you have any allergies?"],
    ["Aspirin makes me itchy all over.", "Any allergies?"],
    ["I tried amoxicillin once and it gave me hives.", "Any allergies?"],
  ])("%s (to: %s)", (utterance, question) => {
    expect(valuesOf(question, utterance, "positive_medical_history")).toContain("drug allergy");
    expect(valuesOf(question, utterance, "positive_medication")).toEqual([]);
    expect(valuesOf(question, utterance, "positive_symptom")).toEqual([]);
  });

  it("a headache in one sentence and a drug allergy in the next are both kept", () => {
    const utterance = "I've had a headache since Monday. I'm allergic to penicillin though.";
    expect(valuesOf("What brings you in today?", utterance, "positive_symptom")).toContain("headache");
    expect(valuesOf("What brings you in today?", utterance, "positive_medical_history")).toContain("drug allergy");
  });
});

it("every allergic reaction of ontology/lexicon.json is a symptom concept", () => {
  const symptoms = Object.keys(lexiconFile.concepts.symptom ?? {});
  expect(lexiconFile.allergic_reactions.filter((value) => !symptoms.includes(value))).toEqual([]);
});
