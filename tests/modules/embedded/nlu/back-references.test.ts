import { describe, expect, it } from "vitest";
import type { SlotEntry } from "../../../../src/cmas/schemas.ts";
import { readTurn, type Exchange } from "./nlu-harness.ts";

/**
 * An attribute given in a sentence of its own, referring back with "it"/"they"/"this"/"the pain",
 * belongs to the symptom it refers to: the last one the turn names, or, when the turn names none,
 * the one the doctor's question is about (pass "back-references"). Hand-written from how patients
 * talk; none comes from a MediTOD dialogue.
 */

/** The positive symptoms of the turn's frames. */
function positiveSymptoms(exchange: Exchange): SlotEntry[] {
  return (readTurn(exchange).frames ?? []).flatMap((frame) => frame.slots?.positive_symptom ?? []);
}

/** The positive symptoms of a presenting complaint. */
const told = (utterance: string) => positiveSymptoms({ question: "What brings you in today?", utterance });

describe("an attribute in a sentence of its own goes to the symptom 'it' refers to", () => {
  const cases: ReadonlyArray<readonly [kind: string, utterance: string, expected: SlotEntry]> = [
    ["onset", "I've had a cough. It started about three days ago.", { value: "coughing", onset: "three days ago" }],
    ["onset", "My throat is sore. It's been like that since Sunday.", { value: "pharyngitis", onset: "since sunday" }],
    ["onset", "I've got this cough. It's been about a week now.", { value: "coughing", onset: "a week ago" }],
    ["onset", "I keep getting headaches. They started last month.", { value: "headache", onset: "last month" }],
    [
      "onset",
      "I've been throwing up. Um, so this has been going on since yesterday.",
      { value: "vomiting", onset: "since yesterday" },
    ],
    ["severity", "I have a headache. It's about a 7 out of 10.", { value: "headache", severity: "7" }],
    [
      "severity",
      "My back is killing me. I'd say it's an 8 out of ten.",
      { value: "pain", location: ["back"], severity: "8" },
    ],
    [
      "progression",
      "I've got a cough. It's been getting worse.",
      { value: "coughing", progression: "gradually getting worse over time" },
    ],
    [
      "progression",
      "My knee hurts. It's getting better though.",
      { value: "pain", location: ["knee"], progression: "gradually getting better over time" },
    ],
    [
      "aggravating factor",
      "I have chest pain. It gets worse when I lie down.",
      { value: "chest pain", aggravating_factor: ["lying down"] },
    ],
    [
      "aggravating factor",
      "My stomach hurts. It's worse after I eat.",
      { value: "pain", location: ["abdomen"], aggravating_factor: ["eating"] },
    ],
    [
      "alleviating factor",
      "I have a headache. It gets better when I rest.",
      { value: "headache", alleviating_factor: ["rest"] },
    ],
    [
      "frequency",
      "I get heartburn. It happens a few times a week.",
      { value: "heartburn", frequency: "few times a week" },
    ],
    [
      "frequency",
      "I've been having nosebleeds. They happen almost every day.",
      { value: "epistaxis", frequency: "almost every day" },
    ],
    ["comes and goes", "I've got a cough. It comes and goes.", { value: "coughing", duration: "comes and goes" }],
  ];
  for (const [kind, utterance, expected] of cases) {
    it(`${kind}: "${utterance}"`, () => {
      expect(told(utterance)).toEqual([expected]);
    });
  }

  it("'the pain' in the next sentence is the specific pain just named, not a second pain", () => {
    expect(told("I have chest pain. The pain gets worse when I lie down.")).toEqual([
      { value: "chest pain", aggravating_factor: ["lying down"] },
    ]);
  });
});

describe("two symptoms in one turn: 'it' is the last one named", () => {
  it("onset", () => {
    expect(told("I have a fever and a cough. It started two days ago.")).toEqual([
      { value: "fever" },
      { value: "coughing", onset: "two days ago" },
    ]);
  });

  it("severity", () => {
    expect(told("I've had a fever, and now a headache. It's about an 8 out of 10.")).toEqual([
      { value: "fever" },
      { value: "headache", severity: "8" },
    ]);
  });

  it("aggravating factor, the symptoms in separate sentences", () => {
    expect(told("I've got a headache. And my neck is stiff. It's worse in the mornings.")).toEqual([
      { value: "headache" },
      { value: "neck stiffness", aggravating_factor: ["morning"] },
    ]);
  });

  it("a denied symptom is not what 'it' refers to", () => {
    expect(told("I have a cough but no fever. It started on Monday.")).toEqual([
      { value: "coughing", onset: "monday" },
    ]);
  });
});

describe("negative controls: 'it' that refers to something else gives no attribute", () => {
  const controls = [
    "I have a cough. It was a long day.",
    "I have a cough. It's my daughter's birthday on Monday.",
    "I have a cough. That's why I came in today.",
    "I have a cough. This morning was really busy.",
    "I have a cough. They gave me antibiotics at the clinic last week.",
  ];
  for (const utterance of controls) {
    it(`"${utterance}"`, () => {
      expect(told(utterance)).toEqual([{ value: "coughing" }]);
    });
  }
});

describe("a turn that names no symptom: 'it' is the symptom the doctor's question is about", () => {
  const history = ["What brings you in today?", "I've got a fever."];

  it("an onset after 'any cough?' reports the cough and dates it", () => {
    expect(positiveSymptoms({ history, question: "Any cough?", utterance: "It started yesterday." })).toEqual([
      { value: "coughing", onset: "yesterday" },
    ]);
  });

  it("a progression after 'and the cough?'", () => {
    expect(positiveSymptoms({ history, question: "And the cough?", utterance: "It's been getting worse." })).toEqual([
      { value: "coughing", progression: "gradually getting worse over time" },
    ]);
  });

  it("severity and a trigger after 'tell me about the headaches'", () => {
    const exchange = {
      history: ["What brings you in today?", "Headaches."],
      question: "Tell me more about the headaches.",
      utterance: "They're about a 6 out of 10. They get worse at night.",
    };
    expect(positiveSymptoms(exchange)).toEqual([{ value: "headache", severity: "6", aggravating_factor: ["night"] }]);
  });

  it("the answer to 'when did the fever start?' dates the fever", () => {
    expect(positiveSymptoms({ history, question: "When did the fever start?", utterance: "Monday." })).toEqual([
      { value: "fever", onset: "monday" },
    ]);
  });

  it("'it' that is not the symptom gives the asked symptom no attribute", () => {
    // (Whether an answer that is not a "no" reports the asked symptom is the yes/no pass's reading.)
    const described = (utterance: string) =>
      positiveSymptoms({ history, question: "And the cough?", utterance }).filter(
        (entry) => Object.keys(entry).length > 1,
      );
    expect(described("It's my daughter's birthday on Monday.")).toEqual([]);
    expect(described("That's why I came in today.")).toEqual([]);
  });
});
