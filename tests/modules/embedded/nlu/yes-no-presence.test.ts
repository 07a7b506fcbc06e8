import { describe, expect, it } from "vitest";
import type { NluFrame } from "../../../../src/cmas/schemas.ts";
import { readTurn, type Exchange } from "./nlu-harness.ts";

/**
 * How an answer to a yes/no question about a symptom is heard, as a clinician hears it: a yes (or
 * something said about the symptom: when it started, when it comes) → present; a no → absent; "I
 * don't know" → unknown; a request to repeat or explain, or a remark about something else → nothing
 * for that symptom. Hand-written from how patients talk; none comes from a MediTOD dialogue.
 */

/** The statuses the exchange's frames give `value` ("positive", "negative", "unknown"), in order. */
function statusesOf(exchange: Exchange, value: string): string[] {
  const frames: readonly NluFrame[] = readTurn(exchange).frames ?? [];
  return frames.flatMap((frame) =>
    Object.entries(frame.slots ?? {}).flatMap(([slot, entries]) =>
      Array.isArray(entries) && entries.some((entry) => entry.value === value) ? [slot.split("_")[0]!] : [],
    ),
  );
}

/** The questions asked, each with the symptom it asks about. */
const QUESTIONS: ReadonlyArray<readonly [label: string, symptom: string, exchange: Omit<Exchange, "utterance">]> = [
  ["Any cough?", "coughing", { question: "Any cough?" }],
  [
    "And the cough? (after a fever)",
    "coughing",
    { history: ["What brings you in today?", "I've had a fever for two days."], question: "And the cough?" },
  ],
  [
    "Have you had any fevers?",
    "fever",
    { history: ["What brings you in today?", "I've got a sore throat."], question: "Have you had any fevers?" },
  ],
];

function expectStatus(utterances: readonly string[], expected: readonly string[]): void {
  for (const [label, symptom, asked] of QUESTIONS) {
    for (const utterance of utterances) {
      expect(statusesOf({ ...asked, utterance }, symptom), `${label} — "${utterance}"`).toEqual(expected);
    }
  }
}

describe("a remark about something else records nothing for the symptom asked", () => {
  it("a remark about the day, work, family or errands", () => {
    expectStatus(
      [
        "It was a long day.",
        "Well, I was at work all day.",
        "I had a busy week.",
        "My wife has been on at me to come in.",
        "I have to pick my kids up at three.",
        "I did my best to get here on time.",
        "I am so glad I got an appointment.",
      ],
      [],
    );
  });
});

describe("a request to repeat or explain records nothing for the symptom asked", () => {
  it("'sorry?', 'I'm not sure what you mean', 'I don't understand the question'", () => {
    expectStatus(
      [
        "I'm not sure what you mean.",
        "I don't know what you mean by that.",
        "I don't understand the question.",
        "Sorry, can you repeat that?",
        "Sorry, I didn't catch that.",
        "Could you say that again?",
        "I don't understand.",
        "What do you mean by cough?",
      ],
      [],
    );
  });

  it("hearing of nothing is no request: 'I didn't hear any wheezing' denies", () => {
    expect(statusesOf({ question: "Any wheezing?", utterance: "I didn't hear any wheezing." }, "wheezing")).toEqual([
      "negative",
    ]);
  });

  it("is read as chit-chat, so the doctor can ask again", () => {
    for (const utterance of [
      "I'm not sure what you mean.",
      "I don't understand the question.",
      "Sorry, I didn't catch that.",
    ]) {
      expect(readTurn({ question: "Any cough?", utterance }).frames, utterance).toEqual([{ intent: "chit-chat" }]);
    }
  });
});

describe("an unsure answer records the symptom as unknown", () => {
  it("'I don't know', 'not sure', 'hard to say'", () => {
    expectStatus(["I don't know.", "Not sure.", "I'm not really sure.", "Hard to say."], ["unknown"]);
  });
});

describe("a no records the symptom as absent", () => {
  it("'No', 'nope, not at all', 'I don't think so'", () => {
    expectStatus(["No.", "Nope, not at all.", "I don't think so.", "No, I haven't."], ["negative"]);
  });
});

describe("a yes, or something said about the symptom, records it as present", () => {
  it("an affirmative cue", () => {
    expectStatus(
      [
        "Yes.",
        "Yeah, a little.",
        "A bit, mostly at night.",
        "I do.",
        "Sometimes.",
        "I have, yeah.",
        "I do, mostly at night.",
        "I think so.",
        "I have been, a little.",
      ],
      ["positive"],
    );
  });

  it("content about the symptom", () => {
    expectStatus(
      [
        "It started yesterday.",
        "It comes and goes.",
        "Only when I lie down.",
        "Mostly in the mornings.",
        "I've had it on and off.",
      ],
      ["positive"],
    );
  });

  it("a yes that goes on to something else is still a yes", () => {
    expectStatus(["Yeah, it's been a long week."], ["positive"]);
  });
});

describe("answers about other slots keep their readings without a bare 'I had' or 'I was'", () => {
  const slotsOf = (question: string, utterance: string) =>
    (
      readTurn({ history: ["What brings you in today?", "I've had a cough for a week."], question, utterance })
        .frames ?? []
    ).flatMap((frame) => (frame.slots ? [frame.slots] : []));

  it("a relative's illness names the sick contact", () => {
    expect(slotsOf("Have you been around anyone sick?", "My son had the flu last week.")).toEqual([
      { positive_exposure: [{ value: "sick person", where: "at home" }] },
    ]);
    expect(slotsOf("Have you been around anyone sick?", "My daughter didn't have a cough.")).toEqual([
      { negative_exposure: [{ value: "sick person" }] },
    ]);
  });

  it("'I was in Mexico' is travel there; 'I was at work all week' is no travel", () => {
    expect(slotsOf("Have you travelled recently?", "I was in Mexico last month.")).toEqual([
      { travel: [{ status: "traveled", destination: "mexico" }] },
    ]);
    expect(slotsOf("Have you travelled recently?", "I was at work all week.")).toEqual([]);
  });

  it("'my dad does' confirms a family history; 'I had some last night' a symptom", () => {
    expect(slotsOf("Does anyone in your family have heart problems?", "My dad does.")).toEqual([
      { positive_family_history: [{ value: "heart diseases", relation: "father" }] },
    ]);
    expect(statusesOf({ question: "Any chest pain?", utterance: "I had some last night." }, "chest pain")).toEqual([
      "positive",
    ]);
  });
});
