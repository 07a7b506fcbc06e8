import { beforeAll, describe, expect, it } from "vitest";
import { doctorActionsSchema } from "../../../src/cmas/schemas.ts";
import { loadMeditod } from "../../../src/data/meditod.ts";
import { buildQuestionReader } from "../../../src/modules/embedded/question-reader.ts";
import type { QuestionReader } from "../../../src/language/question-reader.ts";
import { loadTrainingData } from "../../../src/modules/embedded/training-data.ts";
import type { DialogueTurn } from "../../../src/language/module-interfaces.ts";

let reader: QuestionReader;

beforeAll(() => {
  reader = buildQuestionReader(loadTrainingData(loadMeditod(), "train"));
});

function read(text: string, history: DialogueTurn[] = []) {
  const actions = reader.read(text, history);
  expect(doctorActionsSchema.safeParse(actions).success).toBe(true);
  return actions;
}

describe("the doctor-question reader (hand-written questions)", () => {
  it("reads the asked symptom and attribute", () => {
    expect(read("When did the cough start?")).toEqual([
      { action: "inquire", symptom: [{ value: "coughing", checks: [{ type: "onset" }] }] },
    ]);
  });

  it("tells 'before you get short of breath' from 'had this before?'", () => {
    expect(read("How far can you walk before you get short of breath?")).toEqual([
      { action: "inquire", symptom: [{ value: "dyspnea", checks: [{ type: "severity" }] }] },
    ]);
    expect(read("Have you had anything like this before?")).toEqual([
      { action: "inquire", medical_history: [{ value: "past experience" }] },
    ]);
  });

  it("reads 'allergies to medications?' as the allergy question only", () => {
    expect(read("Any allergies to medications?")).toEqual([
      { action: "inquire", medical_history: [{ value: "drug allergy" }] },
    ]);
  });

  it("reads yes/no questions about habits and symptoms", () => {
    expect(read("Do you smoke?")).toEqual([{ action: "inquire", habit: [{ value: "smoking" }] }]);
    expect(read("Any fevers or chills?")).toEqual([
      { action: "inquire", symptom: [{ value: "fever" }, { value: "chills" }] },
    ]);
  });

  it("moves conditions asked about relatives to the family history", () => {
    const [action] = read("Does anyone in your family have heart problems?");
    expect(action?.action).toBe("inquire");
    expect(action?.family_history).toHaveLength(1);
    expect(action?.symptom).toBeUndefined();
  });

  it("reads social and demographic questions", () => {
    expect(read("What do you do for work?")).toEqual([{ action: "inquire", occupation: [{ value: "other" }] }]);
    expect(read("How old are you?")).toEqual([
      { action: "inquire", basic_information: [{ value: "age", checks: [{ type: "age" }] }] },
    ]);
  });

  it("reads the habit's own check types (how often, since when)", () => {
    expect(read("How often do you smoke?")).toEqual([
      { action: "inquire", habit: [{ value: "smoking", checks: [{ type: "frequency" }] }] },
    ]);
  });

  it("applies an attribute question to what the conversation is about", () => {
    const history: DialogueTurn[] = [
      { speaker: "doctor", text: "What brings you in today?" },
      { speaker: "patient", text: "I've had a bad cough." },
    ];
    expect(read("When did it start?", history)).toEqual([
      { action: "inquire", symptom: [{ value: "coughing", checks: [{ type: "onset" }] }] },
    ]);
  });

  it("reads small talk and open questions", () => {
    expect(read("Okay.")).toEqual([{ action: "nod_prompt_salutations" }]);
    expect(read("Any questions for me?")).toEqual([{ action: "chit-chat" }]);
    expect(read("What brings you in today?")).toEqual([{ action: "inquire" }]);
    expect(read("   ")).toEqual([]);
  });
});
