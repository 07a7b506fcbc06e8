import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { lastTurn } from "./nlu-harness.ts";
import type { DialogueState } from "../../../../src/cmas/schemas.ts";
import { loadMeditod } from "../../../../src/data/meditod.ts";
import { Conversation } from "../../../../src/dialogue-manager/conversation.ts";
import { buildEmbeddedEngine, type EmbeddedEngine } from "../../../../src/modules/embedded/index.ts";

/**
 * Issue 20, misreadings of how lay patients talk left by the last round (found trying the chat; none
 * from a MediTOD dialogue): a general denial of allergies read as "no hay fever"; "havent been sick"
 * not heard as no vomiting; "all over my tummy" read as the whole body; two complaints in one turn,
 * the second's site given to the first; a spouse's illness recorded as family history. Each is driven
 * through the chat in-process and read from the tracked state, beside a negative control.
 */

let engine: EmbeddedEngine;
beforeAll(() => {
  engine = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });
});

/** The tracked state after the patient's `lines`, each a turn. */
async function stateAfter(...lines: string[]): Promise<DialogueState> {
  const talk = new Conversation(engine, { maxDoctorTurns: 40 });
  for (const line of lines) await talk.say(line);
  return talk.snapshot().state;
}

/** The values of a slot of a state. */
const values = (state: DialogueState, slot: string) => (state[slot] ?? []).map((entry) => entry.value);

describe("a general denial of allergies is no allergy, not no hay fever", () => {
  it.each(["I have a cough. No allergies.", "I have a cough. I'm not allergic to anything."])("%s", async (said) => {
    const state = await stateAfter(said);
    expect(values(state, "negative_medical_history")).toEqual(["drug allergy"]);
    expect(JSON.stringify(state)).not.toContain("allergic rhinitis");
  });

  it("negative controls: 'not allergic to pollen' denies hay fever; 'I get allergies in spring' is hay fever", async () => {
    expect(values(await stateAfter("I have a cough. I'm not allergic to pollen."), "negative_medical_history")).toEqual(
      ["allergic rhinitis"],
    );
    expect(values(await stateAfter("I have a cough. I get allergies in spring."), "positive_medical_history")).toEqual([
      "allergic rhinitis",
    ]);
  });
});

describe("'havent been sick': nausea, vomiting denied", () => {
  it("'a bit of nausea, havent been sick' is nausea present and vomiting denied", async () => {
    const state = await stateAfter("a bit of nausea, havent been sick");
    expect(values(state, "positive_symptom")).toEqual(["nausea"]);
    expect(values(state, "negative_symptom")).toEqual(["vomiting"]);
  });

  it("negative controls: 'I've been sick twice' is vomiting; 'been sick for a week with a cough' is being ill", async () => {
    expect(values(await stateAfter("I've been sick twice this morning"), "positive_symptom")).toEqual(["vomiting"]);
    const ill = await stateAfter("I've been sick for a week with a cough");
    expect(values(ill, "positive_symptom")).toEqual(["coughing"]);
  });

  it("'no one else has been sick', 'anybody whos been sick': other people, no vomiting denied (MediTOD RES0001)", async () => {
    for (const said of [
      "I have a cough. No, no one else has been sick.",
      "I have a cough. I cant think of anybody whos been sick.",
    ])
      expect(values(await stateAfter(said), "negative_symptom")).not.toContain("vomiting");
    // Negative control: the patient's own 'havent been sick' still denies it.
    expect(values(await stateAfter("I have a cough. I havent been sick."), "negative_symptom")).toContain("vomiting");
  });
});

describe("'all over my tummy' is the whole abdomen, not the whole body", () => {
  it.each(["The pain is all over my tummy.", "My tummy hurts all over."])("%s", async (said) => {
    expect((await stateAfter(said)).positive_symptom).toEqual([
      { value: "pain", location: ["abdomen", "generalized"] },
    ]);
  });

  it("negative control: 'it hurts all over' is the whole body", async () => {
    expect((await stateAfter("It hurts all over.")).positive_symptom).toEqual([
      { value: "pain", location: ["whole body"] },
    ]);
  });
});

describe("two complaints in one turn keep their own sites", () => {
  it("'my back's been killing me and now my knee is swollen too': back pain, and a swollen knee", async () => {
    expect((await stateAfter("my back's been killing me and now my knee is swollen too")).positive_symptom).toEqual([
      { value: "pain", location: ["back"] },
      { value: "swelling", location: ["knee"] },
    ]);
  });

  it("negative control: 'leg swelling and arms' is one swelling of both sites", async () => {
    expect((await stateAfter("I've got leg swelling and arms.")).positive_symptom).toEqual([
      { value: "swelling", location: ["leg", "upper extremity"] },
    ]);
  });
});

describe("a spouse's illness is not family history; a blood relative's is", () => {
  it.each([
    ["my wife has diabetes", "diabetes mellitus"],
    ["my husband had a heart attack last year", "myocardial infarction"],
  ])("'%s' is neither family history nor the patient's", async (said, value) => {
    const state = await stateAfter("I've had a cough for a week.", said);
    expect(JSON.stringify(state)).not.toContain(value);
    expect(values(state, "positive_symptom")).toEqual(["coughing"]);
  });

  it("negative controls: a father's diabetes and a sister's heart attack are family history", async () => {
    const state = await stateAfter(
      "I've had a cough for a week.",
      "my dad has diabetes and my sister had a heart attack",
    );
    expect(state.positive_family_history).toEqual([
      { value: "diabetes mellitus", relation: "father" },
      { value: "myocardial infarction", relation: "sister" },
    ]);
  });
});

describe("five lay patients tried through the chat: the worst misreadings found", () => {
  it("a daughter for her mother: 'shes not weeing much and seems a bit muddled' is confusion, not denied confusion", async () => {
    const state = await stateAfter(
      "Im ringing about my mum, shes 79 and shes had diarrhoea for 3 days",
      "shes not weeing much and seems a bit muddled",
    );
    expect(values(state, "positive_symptom")).toContain("confusion");
    expect(values(state, "negative_symptom")).not.toContain("confusion");
  });

  it("negative control: 'she is not confused and is eating' still denies confusion", async () => {
    const state = await stateAfter(
      "Im ringing about my mum, shes had diarrhoea for 3 days",
      "she is not confused and is eating",
    );
    expect(values(state, "negative_symptom")).toContain("confusion");
  });

  it("headaches 'worse in the morning and Ive been sick with them' is vomiting (the headaches', not an illness)", async () => {
    const state = await stateAfter(
      "Ive had headaches for a month.",
      "Theyre worse in the morning and Ive been sick with them",
    );
    expect(values(state, "positive_symptom")).toEqual(["headache", "vomiting"]);
  });
});

describe("a figure of speech about dying", () => {
  it("'I want to die of embarrassment' is no suicidal ideation; negative control: 'I want to die' is", async () => {
    const idiom = await lastTurn(
      "What brings you in?",
      "I want to die of embarrassment, I tripped in front of everyone",
    );
    expect(JSON.stringify(idiom.frames)).not.toContain("suicidal ideation");
    const wish = await lastTurn("What brings you in?", "I want to die");
    expect(JSON.stringify(wish.frames)).toContain("suicidal ideation");
  });
});

describe("a high temperature said as a number", () => {
  const question = "When did the swollen glands start?";
  const fever = async (utterance: string) =>
    JSON.stringify((await lastTurn("What brings you in?", "sore throat", question, utterance)).frames).includes(
      '"fever"',
    );
  it("'38.5 last night', '101 F this morning' to another question are a fever", async () => {
    expect(await fever("38.5 last night")).toBe(true);
    expect(await fever("101 F this morning")).toBe(true);
  });
  it("negative controls: 37.2, someone else's 39.5, 38.5 weeks pregnant and an age of 38 are no fever", async () => {
    for (const utterance of ["37.2 this morning", "my husband had 39.5 last week", "I'm 38.5 weeks pregnant", "im 38"])
      expect(await fever(utterance), utterance).toBe(false);
  });
});

describe("someone else's illness, and the doctor's own sick-contact question", () => {
  const contact = "OK, and have you been in contact with anyone who has been ill?";
  const said = "my friend had a sore throat last week";
  it("'my friend had a sore throat last week' to another question is not the patient's sore throat", async () => {
    const unasked = JSON.stringify(
      (await lastTurn("What brings you in?", "I've got a fever", "Any cough?", said)).frames,
    );
    expect(unasked).not.toContain("pharyngitis");
  });
  it("to the doctor's sick-contact question, it is a sick contact", async () => {
    const asked = JSON.stringify((await lastTurn("What brings you in?", "I've got a fever", contact, said)).frames);
    expect(asked).toContain("sick person");
    expect(asked).not.toContain("pharyngitis");
  });
  it("the question is the doctor's; 'no' to it denies the contact, not vomiting", async () => {
    const file = JSON.parse(readFileSync(new URL("../../../../ontology/nlg-templates.json", import.meta.url), "utf8"));
    expect(`OK, and ${file.templates["inquire/exposure=sick person"]}`).toBe(contact);
    const denied = JSON.stringify((await lastTurn("What brings you in?", "I've got a fever", contact, "no")).frames);
    expect(denied).toContain("negative_exposure");
    expect(denied).not.toContain("vomiting");
  });
  it("negative control: 'my friend says I look pale' is the patient's", async () => {
    const pale = await lastTurn("What brings you in?", "I'm tired", "Anything else?", "my friend says I look pale");
    expect(JSON.stringify(pale.frames)).toContain("pallor");
  });
});
