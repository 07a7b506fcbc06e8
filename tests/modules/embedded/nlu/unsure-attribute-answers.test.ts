import { describe, expect, it } from "vitest";
import type { NluFrame } from "../../../../src/cmas/schemas.ts";
import { readTurn, type Exchange } from "./nlu-harness.ts";

/**
 * "Not sure" to a question about an attribute of a symptom the patient has already affirmed ("How
 * much blood have you been coughing up?" — "Hmm, I'm not really sure.") is uncertainty about the
 * attribute, not about the symptom: as a clinician hears it, the haemoptysis is still there and only
 * its amount is unknown. CMAS has no way to say "volume unknown", so nothing new is recorded: the
 * symptom keeps the presence it had. Only a question about presence itself ("Any cough?") makes "not
 * sure" an unknown presence. Hand-written from how patients talk; none comes from a MediTOD dialogue.
 */

/** What the exchange's frames say of `value`: each status it gets, and each attribute besides the value. */
function readingOf(exchange: Exchange, value: string): { statuses: string[]; attributes: string[] } {
  const frames: readonly NluFrame[] = readTurn(exchange).frames ?? [];
  const statuses: string[] = [];
  const attributes: string[] = [];
  for (const frame of frames) {
    for (const [slot, entries] of Object.entries(frame.slots ?? {})) {
      if (!Array.isArray(entries)) continue;
      for (const entry of entries as Array<Record<string, unknown>>) {
        if (entry.value !== value) continue;
        statuses.push(slot.split("_")[0]!);
        attributes.push(...Object.keys(entry).filter((key) => key !== "value"));
      }
    }
  }
  return { statuses, attributes };
}

/** Unsure answers, as patients say them. */
const UNSURE = [
  "Not sure.",
  "Don't know.",
  "Hmm, I'm not really sure.",
  "I don't know.",
  "Hard to say.",
  "Not sure, to be honest.",
  "I'm not sure how much.",
  "I'm not sure about the blood, to be honest.",
];

/** Attribute questions about a symptom the patient already affirmed: [label, symptom, exchange]. */
const ATTRIBUTE_QUESTIONS: ReadonlyArray<
  readonly [label: string, symptom: string, exchange: Omit<Exchange, "utterance">]
> = [
  [
    "blood volume",
    "hemoptysis",
    {
      history: ["What brings you in today?", "I've been coughing up blood for a couple of weeks."],
      question: "How much blood have you been coughing up?",
    },
  ],
  // The embedded doctor's own wording of a volume check (`ontology/nlg-templates.json` inquire/symptom/volume).
  [
    "blood volume, the NLG's wording",
    "hemoptysis",
    {
      history: ["What brings you in today?", "I've been coughing up blood, and I have a cough."],
      question: "OK, and how much coughing up blood are you getting?",
    },
  ],
  [
    "blood colour",
    "hemoptysis",
    {
      history: ["What brings you in today?", "I've been coughing up blood for a couple of weeks."],
      question: "What colour is the blood?",
    },
  ],
  [
    "cough onset",
    "coughing",
    { history: ["What brings you in?", "I've had a bad cough."], question: "When did the cough start?" },
  ],
  [
    "cough characteristics",
    "coughing",
    {
      history: ["What brings you in?", "I've got a cough and I'm bringing up a lot of phlegm."],
      question: "Is the cough dry or wet?",
    },
  ],
  [
    "cough frequency",
    "coughing",
    {
      history: ["What brings you in?", "I've had a bad cough for a month."],
      question: "How often do you get the coughing fits?",
    },
  ],
  [
    "headache severity",
    "headache",
    {
      history: ["What brings you in?", "I keep getting headaches."],
      question: "How bad are the headaches, on a scale of one to ten?",
    },
  ],
  [
    "headache duration",
    "headache",
    { history: ["What brings you in?", "I keep getting headaches."], question: "How long do the headaches last?" },
  ],
  // Whether a medication helps, and what was taken for it, are attributes of the medication.
  [
    "inhaler helps cough",
    "coughing",
    {
      history: ["What brings you in?", "I've had a bad cough and I've been using my inhaler."],
      question: "Has the inhaler helped the cough?",
    },
  ],
  [
    "Tylenol helps headaches",
    "headache",
    {
      history: ["What brings you in?", "I've had headaches and I take Tylenol."],
      question: "Does the Tylenol help with the headaches?",
    },
  ],
  [
    "taken for headaches",
    "headache",
    { history: ["What brings you in?", "I've had headaches."], question: "Have you taken anything for the headaches?" },
  ],
];

describe("'not sure' about an attribute of an affirmed symptom leaves the symptom present", () => {
  it("records no unknown or absent presence, and no attribute", () => {
    for (const [label, symptom, asked] of ATTRIBUTE_QUESTIONS) {
      for (const utterance of UNSURE) {
        const { statuses, attributes } = readingOf({ ...asked, utterance }, symptom);
        expect(
          statuses.filter((status) => status !== "positive"),
          `${label} — "${utterance}"`,
        ).toEqual([]);
        expect(attributes, `${label} — "${utterance}"`).toEqual([]);
      }
    }
  });

  it("an answer that names the attribute still records it", () => {
    const [, , asked] = ATTRIBUTE_QUESTIONS[0]!;
    expect(readingOf({ ...asked, utterance: "Maybe a teaspoon a day." }, "hemoptysis")).toEqual({
      statuses: ["positive"],
      attributes: ["volume"],
    });
    const [, , nlgWording] = ATTRIBUTE_QUESTIONS[1]!;
    expect(readingOf({ ...nlgWording, utterance: "About a teaspoon a day." }, "hemoptysis")).toEqual({
      statuses: ["positive"],
      attributes: ["volume"],
    });
  });
});

describe("'not sure' to a question about presence is an unknown presence (controls)", () => {
  it("a presence question with nothing affirmed", () => {
    for (const utterance of UNSURE.slice(0, 6)) {
      expect(
        readingOf({ question: "Have you coughed up any blood?", utterance }, "hemoptysis").statuses,
        utterance,
      ).toEqual(["unknown"]);
      expect(readingOf({ question: "Any cough?", utterance }, "coughing").statuses, utterance).toEqual(["unknown"]);
    }
  });

  it("a presence question about another symptom than the one affirmed", () => {
    const history = ["What brings you in?", "I've had a bad cough."];
    for (const utterance of UNSURE.slice(0, 6)) {
      expect(
        readingOf({ history, question: "Have you coughed up any blood?", utterance }, "hemoptysis").statuses,
        utterance,
      ).toEqual(["unknown"]);
    }
  });
});
