import { beforeAll, describe, expect, it } from "vitest";
import type { DialogueState, DoctorAction } from "../../../src/cmas/schemas.ts";
import { clinicalNote } from "../../../src/clinical/clinical-note.ts";
import { noteToMarkdown } from "../../../src/clinical/note-markdown.ts";
import { loadMeditod } from "../../../src/data/meditod.ts";
import { Conversation } from "../../../src/dialogue-manager/conversation.ts";
import { NOT_RADIATING, RADIATION_CHECK_VALUE, radiatingTo } from "../../../src/language/pain-radiation.ts";
import { loadHistoryPlan } from "../../../src/language/history-plan.ts";
import { buildEmbeddedEngine, type EmbeddedEngine } from "../../../src/modules/embedded/index.ts";
import { PatientSimulator } from "../../../src/simulator/patient-simulator.ts";
import { ScriptedPatient, type ScriptedCase } from "../../../src/simulator/scripted-patient.ts";
import { mergedSlots } from "./nlu/nlu-harness.ts";

/**
 * Where a pain spreads and how long each bout lasts (issue 20, item 5): read from what lay patients
 * say, asked by the live history before the generic review, answered by the simulated patients from
 * their case, and shown in the note. Every utterance is hand-written; each reading has a negative control.
 */

let engine: EmbeddedEngine;
beforeAll(() => {
  engine = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });
});

/** The merged slots of `utterance` after alternating turns (the doctor first). */
async function slotsOf(turns: readonly string[], utterance: string): Promise<Record<string, unknown>> {
  const history = turns.map((text, index) => ({ speaker: index % 2 === 0 ? "doctor" : "patient", text }) as const);
  return mergedSlots((await engine.nlu.understand({ history, utterance })).frames);
}

const SPREAD = [
  "What brings you in today?",
  "I've got a pain in my chest.",
  "Does the pain spread or move anywhere else?",
];
const pain = (value: string, location: string[]) => ({
  positive_symptom: [expect.objectContaining({ value, location })],
});

describe("the answer to 'does the pain spread anywhere?'", () => {
  it("'goes down my left arm': radiating to the left arm", async () => {
    expect(await slotsOf(SPREAD, "goes down my left arm")).toMatchObject(
      pain("chest pain", [radiatingTo("left upper extremity")]),
    );
  });
  it("'round to my back': radiating to the back", async () => {
    expect(await slotsOf(SPREAD, "round to my back")).toMatchObject(pain("chest pain", [radiatingTo("back")]));
  });
  it("'no it stays put': not radiating, and the pain is still present", async () => {
    const slots = await slotsOf(SPREAD, "no it stays put");
    expect(slots).toMatchObject(pain("chest pain", [NOT_RADIATING]));
    expect(slots).not.toHaveProperty("negative_symptom");
  });
  it("keeps where the pain is (the state replaces a location list whole): 'no, its just there in my side'", async () => {
    const turns = ["What brings you in today?", "I've got a fever and this pain in my side.", SPREAD[2]!];
    expect(await slotsOf(turns, "no, its just there in my side")).toMatchObject(pain("pain", ["flank", NOT_RADIATING]));
    expect(await slotsOf(turns, "yes, round to my back")).toMatchObject(pain("pain", ["flank", radiatingTo("back")]));
  });
  it("negative control: 'where is the pain?' — 'in my back' is where it is, not where it spreads", async () => {
    const slots = await slotsOf(["What brings you in today?", "I've got a pain.", "Where is the pain?"], "in my back");
    expect(slots).toMatchObject(pain("pain", ["back"]));
  });
});

describe("spreading volunteered", () => {
  it("'a pain in my chest that goes down my left arm'", async () => {
    const slots = await slotsOf(
      ["What brings you in today?"],
      "I've got a pain in my chest that goes down my left arm.",
    );
    expect(slots).toMatchObject(pain("chest pain", [radiatingTo("left upper extremity")]));
  });
  it("'my back is killing me, it shoots down my right leg': the back, radiating to the right leg", async () => {
    const slots = await slotsOf(["What brings you in today?"], "My back is killing me, it shoots down my right leg.");
    expect(slots).toMatchObject(pain("pain", ["back", radiatingTo("right leg")]));
  });
  it("negative control: what a heart attack is said to feel like ('the pain that moves up your neck') is no spread", async () => {
    const slots = await slotsOf(
      ["What brings you in today?"],
      "My chest hurts, but not the crushing pain they talk about that moves up your neck.",
    );
    expect(JSON.stringify(slots)).not.toContain("radiating");
  });
  it("negative controls: a rash going up the arm and a cough that goes on all night do not spread", async () => {
    const rash = await slotsOf(["What brings you in today?"], "I have a rash going up my arm.");
    expect(JSON.stringify(rash)).not.toContain("radiating");
    const cough = await slotsOf(["What brings you in today?"], "I have a cough that goes on all night.");
    expect(JSON.stringify(cough)).not.toContain("radiating");
  });
});

/** The doctor's questions of a live history whose patient answers each with `answer(question)`. */
async function questionsAsked(opening: string, answer: (question: string) => string): Promise<string[]> {
  const conversation = new Conversation(engine, { maxDoctorTurns: 40 });
  const asked: string[] = [];
  let outcome = await conversation.say(opening);
  while (!outcome.ended && outcome.error === null && asked.length < 40) {
    asked.push(outcome.doctor!);
    outcome = await conversation.say(answer(outcome.doctor!));
  }
  return asked;
}

const SPREAD_QUESTION = /\bspread or move anywhere\b/;
const PATTERN_QUESTION = /\bcome and go, or is it there all the time\b/;
const BOUT_QUESTION = /\bhow long does each bout last\b/;

describe("the live history asks where a pain spreads and how long each bout lasts", () => {
  it("a tummy pain that comes and goes: spread asked once, the pattern, then the length of each bout", async () => {
    const asked = await questionsAsked("I've had a pain in my tummy since yesterday.", (question) =>
      PATTERN_QUESTION.test(question) ? "it comes and goes" : "not sure",
    );
    expect(asked.filter((question) => SPREAD_QUESTION.test(question))).toHaveLength(1);
    expect(asked.filter((question) => PATTERN_QUESTION.test(question))).toHaveLength(1);
    const pattern = asked.findIndex((question) => PATTERN_QUESTION.test(question));
    const bout = asked.findIndex((question) => BOUT_QUESTION.test(question));
    expect(bout).toBeGreaterThan(pattern);
  });

  it("negative control: a pain that is there all the time is never asked how long each bout lasts", async () => {
    const asked = await questionsAsked("I've had a pain in my tummy since yesterday.", (question) =>
      PATTERN_QUESTION.test(question) ? "it's there all the time" : "not sure",
    );
    expect(asked.some((question) => BOUT_QUESTION.test(question))).toBe(false);
  });

  it("a spread already volunteered is not asked again", async () => {
    const asked = await questionsAsked("I've got a pain in my chest that goes down my left arm.", () => "not sure");
    expect(asked.some((question) => SPREAD_QUESTION.test(question))).toBe(false);
  });

  it("negative control: a headache is not asked where it spreads", async () => {
    const asked = await questionsAsked("I've had a headache since this morning.", () => "not sure");
    expect(asked.some((question) => SPREAD_QUESTION.test(question))).toBe(false);
  });

  it("the plan's known_when for spreading reads the engine's own qualifiers", () => {
    const ask = loadHistoryPlan()
      .file.live_history.complaint_questions.find((questions) => questions.id === "pain_radiation")!
      .asks.find((candidate) => "check" in candidate && candidate.check_values?.includes(RADIATION_CHECK_VALUE));
    const pattern = new RegExp((ask as { known_when: { pattern: string } }).known_when.pattern, "i");
    expect([radiatingTo("back"), NOT_RADIATING].every((location) => pattern.test(location))).toBe(true);
    expect(pattern.test("chest")).toBe(false);
  });
});

const spreadAsked: DoctorAction = {
  action: "inquire",
  symptom: [{ value: "chest pain", checks: [{ type: "location", values: [RADIATION_CHECK_VALUE] }] }],
};
const whereAsked: DoctorAction = {
  action: "inquire",
  symptom: [{ value: "chest pain", checks: [{ type: "location" }] }],
};

describe("the simulated patients answer from their case", () => {
  const profile: DialogueState = {
    positive_symptom: [{ value: "chest pain", location: ["chest", radiatingTo("left arm")], onset: "an hour ago" }],
  };
  const scripted: ScriptedCase = {
    id: "spread",
    title: "A test case.",
    profile,
    script: {
      speaker: "patient",
      opening: { says: "its my chest", reveals: ["symptom:chest pain"] },
      lines: {
        "symptom:chest pain": "a pain in my chest",
        "symptom:chest pain#location": "right in the middle",
        "symptom:chest pain#radiation": "it goes off into my arm",
        "symptom:chest pain#onset": "an hour back",
      },
    },
  };

  it("the scripted patient says its radiation line to the spread question, its site line to 'where?'", () => {
    const patient = new ScriptedPatient(scripted);
    expect(patient.answer({ actions: [spreadAsked] })).toEqual({
      text: "it goes off into my arm",
      revealed: ["symptom:chest pain#radiation", "symptom:chest pain"],
    });
    expect(patient.answer({ actions: [whereAsked] }).text).toBe("right in the middle");
  });

  it("negative control: a case that does not say where its pain spreads is not sure, never its site line", () => {
    const silent: ScriptedCase = {
      ...scripted,
      profile: { positive_symptom: [{ value: "chest pain", location: ["chest"], onset: "an hour ago" }] },
      script: {
        ...scripted.script,
        lines: Object.fromEntries(
          Object.entries(scripted.script.lines).filter(([id]) => id !== "symptom:chest pain#radiation"),
        ),
        unsure: ["dunno"],
      },
    };
    expect(new ScriptedPatient(silent).answer({ actions: [spreadAsked] }).text).toContain("dunno");
  });

  it("the profile patient says where it spreads, or that it stays, and never denies the pain", () => {
    expect(new PatientSimulator({ id: "a", title: "a", profile }).answer([spreadAsked])).toContain(
      "It spreads to my left arm.",
    );
    const stays: DialogueState = { positive_symptom: [{ value: "chest pain", location: ["chest", NOT_RADIATING] }] };
    const answer = new PatientSimulator({ id: "b", title: "b", profile: stays }).answer([spreadAsked]);
    expect(answer).toContain("No, it stays in one place.");
    expect(answer).not.toMatch(/haven't had/);
    expect(new PatientSimulator({ id: "c", title: "c", profile }).answer([whereAsked])).toContain("It's in my chest.");
  });
});

describe("the note", () => {
  it("lists where the pain spreads beside where it is, and a pain that stays put", () => {
    const markdown = noteToMarkdown(
      clinicalNote({
        state: {
          positive_symptom: [
            { value: "chest pain", location: [radiatingTo("left upper extremity")], duration: "constant" },
            { value: "pain", location: ["abdomen", NOT_RADIATING] },
          ],
        },
      }),
    );
    expect(markdown).toContain("chest pain (radiating to left upper extremity)");
    expect(markdown).toContain("pain (abdomen, not radiating)");
  });
});
