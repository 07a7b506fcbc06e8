import { beforeAll, describe, expect, it } from "vitest";
import { clinicalNote } from "../../../src/clinical/clinical-note.ts";
import { noteToMarkdown } from "../../../src/clinical/note-markdown.ts";
import { loadMeditod } from "../../../src/data/meditod.ts";
import { Conversation } from "../../../src/dialogue-manager/conversation.ts";
import { noteInputOf } from "../../../src/dialogue-manager/note-input.ts";
import { dueIce, iceAsked } from "../../../src/language/ice-questions.ts";
import { buildEmbeddedEngine, type EmbeddedEngine } from "../../../src/modules/embedded/index.ts";
import { readPatientRequests } from "../../../src/modules/embedded/nlu/patient-requests.ts";

/**
 * Ideas, concerns and expectations asked as a clinician does (issue 20, item 4): each in its own
 * short question at a natural point — ideas and concerns once the complaint is explored, expectations
 * before the closing — skipped when the patient already said it, and the answers kept in the note in
 * the patient's words, never as history. Hand-written exchanges, each with a negative control.
 */

let engine: EmbeddedEngine;
beforeAll(() => {
  engine = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });
});

const IDEAS = /what might be causing this\?/;
const CONCERNS = /worrying you about it\?/;
const EXPECTATIONS = /what were you hoping we could do/;
const CLOSING = /any questions for me\?/;

/** A whole live history: the doctor's turns, the patient answering by `answer`; and its note. */
async function history(opening: string, answer: (doctor: string) => string) {
  const conversation = new Conversation(engine, { maxDoctorTurns: 80 });
  const doctor: string[] = [];
  let outcome = await conversation.say(opening);
  while (!outcome.ended && outcome.error === null && doctor.length < 80) {
    doctor.push(outcome.doctor!);
    outcome = await conversation.say(answer(outcome.doctor!));
  }
  return { doctor, note: noteToMarkdown(clinicalNote(noteInputOf(conversation.snapshot()))) };
}

const index = (turns: readonly string[], pattern: RegExp) => turns.findIndex((turn) => pattern.test(turn));

describe("ideas, concerns and expectations in a live history", () => {
  it("each asked once in its own question: ideas and concerns after the complaint, expectations before the closing", async () => {
    const { doctor, note } = await history("I've had a burning pain in my stomach for two weeks.", (question) =>
      IDEAS.test(question)
        ? "I think it might be an ulcer, my mum had one."
        : CONCERNS.test(question)
          ? "I'm worried it's something serious."
          : EXPECTATIONS.test(question)
            ? "Something to settle it, really."
            : "No.",
    );
    for (const pattern of [IDEAS, CONCERNS, EXPECTATIONS])
      expect(
        doctor.filter((turn) => pattern.test(turn)),
        String(pattern),
      ).toHaveLength(1);
    const ideas = index(doctor, IDEAS);
    expect(index(doctor, /spread or move anywhere/)).toBeLessThan(ideas);
    expect(ideas).toBeLessThan(index(doctor, CONCERNS));
    expect(index(doctor, CONCERNS)).toBeLessThan(index(doctor, EXPECTATIONS));
    expect(index(doctor, EXPECTATIONS)).toBeLessThan(index(doctor, CLOSING));
    // No combined question any more.
    expect(doctor.some((turn) => IDEAS.test(turn) && CONCERNS.test(turn))).toBe(false);
    expect(note).toContain("- Thinks: I think it might be an ulcer, my mum had one.");
    expect(note).toContain("- Worried: I'm worried it's something serious.");
    expect(note).toContain("- Hopes for: Something to settle it, really.");
    // The idea is no past history of an ulcer.
    expect(note).not.toMatch(/Past medical history[\s\S]*ulcer[\s\S]*## Medications/);
  });

  it("skipped when the patient said it first: a worry and a wish in the opening are not asked again", async () => {
    const { doctor } = await history(
      "I've had a headache for a week and I'm worried it's a brain tumour. I was hoping to get a scan.",
      () => "No.",
    );
    expect(doctor.some((turn) => CONCERNS.test(turn))).toBe(false);
    expect(doctor.some((turn) => EXPECTATIONS.test(turn))).toBe(false);
    expect(doctor.filter((turn) => IDEAS.test(turn))).toHaveLength(1);
  });

  it("negative control: 'not really' to each records nothing in the note", async () => {
    const { note } = await history("I've had a cough for a week.", () => "Not really.");
    expect(note).not.toMatch(/- (?:Thinks|Worried|Hopes for):/);
  });
});

describe("the answer to an ICE question is the patient's voice, not history", () => {
  it("'I think it might be my heart' to the ideas question is an idea", () => {
    const read = readPatientRequests(
      "I think it might be my heart.",
      "Have you had any thoughts yourself about what might be causing this?",
    );
    expect(read.requests).toEqual([{ kind: "idea", text: "I think it might be my heart." }]);
    expect(read.history).toBe("");
  });

  it("negative controls: the same words to another question stay what they were; 'no idea' is no idea", () => {
    expect(readPatientRequests("My chest is tight.", "Any chest pain?").requests).toEqual([]);
    expect(
      readPatientRequests("I don't know, sorry", "Is there anything in particular that's worrying you about it?")
        .requests,
    ).toEqual([]);
    expect(
      readPatientRequests("No idea.", "Have you had any thoughts yourself about what might be causing this?"),
    ).toEqual({ requests: [], history: "No idea." });
  });

  it("the doctor's words for each, and what covers it", () => {
    expect(iceAsked("And what were you hoping we could do for you today?")).toBe("expectations");
    expect(iceAsked("Is there anything in particular that's worrying you about it?")).toBe("concerns");
    expect(iceAsked("Have you had any fevers?")).toBeUndefined();
    expect(dueIce([{ speaker: "patient", text: "I'm scared it's cancer." }])).toBe("ideas");
    expect(dueIce([{ speaker: "patient", text: "I think it's my heart and I'm scared." }])).toBe("expectations");
  });
});

describe("what an ICE answer keeps (found with the library's scripted patients)", () => {
  const IDEAS_ASKED = "Have you had any thoughts yourself about what might be causing this?";
  const CONCERNS_ASKED = "Is there anything in particular that's worrying you about it?";

  it("an answer of several sentences is one idea, without its filler", () => {
    expect(readPatientRequests("Honestly? I reckon it's stress. Work has been mad.", IDEAS_ASKED).requests).toEqual([
      { kind: "idea", text: "I reckon it's stress. Work has been mad." },
    ]);
  });

  it("a polite non-answer is no concern: 'I couldn't tell you, I'm afraid.'", () => {
    expect(readPatientRequests("I couldn't tell you, I'm afraid.", CONCERNS_ASKED).requests).toEqual([]);
    expect(readPatientRequests("Hard to say, doctor.", IDEAS_ASKED).requests).toEqual([]);
  });

  it("'I'm afraid' as politeness does not cover the concerns question; afraid of something does", () => {
    expect(dueIce([{ speaker: "patient", text: "I couldn't tell you, I'm afraid." }], ["concerns"])).toBe("concerns");
    expect(dueIce([{ speaker: "patient", text: "I'm afraid it's something serious." }], ["concerns"])).toBeUndefined();
  });

  it("an account given in answer is history as well as the patient's voice (found trying the chat with a relative speaking)", () => {
    const said = "He used to smoke but gave up 20 years ago, maybe a glass of wine at the weekend.";
    expect(readPatientRequests(said, IDEAS_ASKED)).toEqual({ requests: [{ kind: "idea", text: said }], history: said });
  });

  it("a denial given in answer is history, never the patient's idea (found trying the chat)", () => {
    for (const said of ["no blood that I've seen", "Haven't had any fever."])
      expect(readPatientRequests(said, IDEAS_ASKED), said).toEqual({ requests: [], history: said });
    // Negative controls: an unsure opening or a no before a guess still carries the idea.
    expect(readPatientRequests("no idea, maybe stress", IDEAS_ASKED).requests).toEqual([
      { kind: "idea", text: "no idea, maybe stress" },
    ]);
    expect(readPatientRequests("No, I think it's just a bug.", IDEAS_ASKED).requests).toEqual([
      { kind: "idea", text: "No, I think it's just a bug." },
    ]);
  });

  it("negative controls: a guess, a worry in so many words, or a bare name stays the voice alone", () => {
    for (const [said, asked] of [
      ["Could it be the new tablets he started?", IDEAS_ASKED],
      ["Probably stress from the move, to be honest.", IDEAS_ASKED],
      ["Cancer.", CONCERNS_ASKED],
      ["I'm scared it's his heart again.", CONCERNS_ASKED],
    ])
      expect(readPatientRequests(said!, asked).history, said).toBe("");
  });

  it("in a live history, smoking told in answer to the ideas question reaches the note's social history", async () => {
    const { note } = await history("I've had a cough for three weeks.", (question) =>
      IDEAS.test(question) ? "I used to smoke but gave up twenty years ago." : "No.",
    );
    expect(note).toContain("- Thinks: I used to smoke but gave up twenty years ago.");
    expect(note).toMatch(/## Social history\n\n[^#]*former smoker/);
  });

  it("negative control: a real concern after the concerns question is kept in the patient's words", () => {
    expect(readPatientRequests("My dad had a stroke at my age.", CONCERNS_ASKED).requests).toEqual([
      { kind: "concern", text: "My dad had a stroke at my age." },
    ]);
  });
});
