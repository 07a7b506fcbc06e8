import { describe, expect, it } from "vitest";
import { readTurn } from "./nlu-harness.ts";

/**
 * An allergy takes away only the mentions of its own clause: the allergen and the reaction. "I'm
 * allergic to peanuts, and I take Tylenol for headaches" is, as a clinician hears it, a food allergy
 * AND acetaminophen taken for headaches (a headache present). A new statement starts at ", and",
 * ", but", ";" or "but"; a clause that only goes on describing the reaction ("…, and my throat gets
 * itchy") or names the allergen "it" refers to ("I took amoxicillin once, and it gave me hives")
 * belongs to the allergy. Hand-written from how patients talk; none comes from a MediTOD dialogue.
 */

/** The values of a prefixed slot in the frames of the utterance, asked what brings the patient in. */
function valuesOf(utterance: string, slot: string): unknown[] {
  return (readTurn({ question: "What brings you in today?", utterance }).frames ?? [])
    .flatMap((frame) => frame.slots?.[slot] ?? [])
    .map((entry) => entry.value);
}

describe("the other statements of a sentence with an allergy are kept", () => {
  const cases: ReadonlyArray<
    readonly [utterance: string, allergy: string, symptoms: readonly string[], medications: readonly string[]]
  > = [
    ["I'm allergic to peanuts, and I take Tylenol for headaches.", "food allergy", ["headache"], ["acetaminophen"]],
    ["I'm allergic to penicillin, but I take ibuprofen for my back pain.", "drug allergy", ["pain"], ["ibuprofen"]],
    ["Penicillin gives me a rash; I've also had a cough for a week.", "drug allergy", ["coughing"], []],
    ["I'm allergic to shellfish and I've had a fever since Monday.", "food allergy", ["fever"], []],
    [
      "Sulfa drugs make me break out in hives, but I've been taking Tylenol for the headaches.",
      "drug allergy",
      ["headache"],
      ["acetaminophen"],
    ],
  ];
  for (const [utterance, allergy, symptoms, medications] of cases) {
    it(utterance, () => {
      expect(valuesOf(utterance, "positive_medical_history")).toContain(allergy);
      expect(valuesOf(utterance, "positive_symptom")).toEqual(symptoms);
      expect(valuesOf(utterance, "positive_medication")).toEqual(medications);
    });
  }
});

describe("the allergen and the reaction are still no symptom or medication (controls)", () => {
  it.each([
    ["I took amoxicillin once, and it gave me hives.", "drug allergy"],
    ["Peanuts make my lips swell up, and my skin gets itchy.", "food allergy"],
    ["I'm allergic to penicillin, it gives me hives.", "drug allergy"],
    ["I'm allergic to penicillin, and it gives me hives.", "drug allergy"],
    ["I'm allergic to peanuts and my lips swell up.", "food allergy"],
  ])("%s", (utterance, allergy) => {
    expect(valuesOf(utterance, "positive_medical_history")).toContain(allergy);
    expect(valuesOf(utterance, "positive_symptom")).toEqual([]);
    expect(valuesOf(utterance, "positive_medication")).toEqual([]);
  });
});
