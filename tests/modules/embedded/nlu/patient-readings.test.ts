import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { NluFrame, SlotEntry } from "../../../../src/cmas/schemas.ts";
import { loadMeditod } from "../../../../src/data/meditod.ts";
import { Conversation } from "../../../../src/dialogue-manager/conversation.ts";
import { buildEmbeddedEngine, type EmbeddedEngine } from "../../../../src/modules/embedded/index.ts";
import type { DialogueTurn } from "../../../../src/language/module-interfaces.ts";

/**
 * Readings of what lay patients say, from hand-written utterances (issue 14, "Understanding"):
 * lay words of every body system, corrections, allergies, separate pains, age and sex. Written
 * before the code that reads them; none comes from a MediTOD dialogue.
 */

let engine: EmbeddedEngine;
beforeAll(() => {
  engine = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });
});

/** Alternating turns, the doctor first. */
function conversation(texts: readonly string[]): DialogueTurn[] {
  return texts.map((text, index) => ({ speaker: index % 2 === 0 ? "doctor" : "patient", text }));
}

/** The NLU frames of `utterance` after `history` (doctor first, ending with the doctor's question). */
async function understand(utterance: string, ...history: string[]): Promise<NluFrame[]> {
  return (await engine.nlu.understand({ history: conversation(history), utterance })).frames ?? [];
}

/** Every entry of a prefixed slot across the frames. */
function entriesOf(frames: readonly NluFrame[], slot: string): SlotEntry[] {
  return frames.flatMap((frame) => frame.slots?.[slot] ?? []);
}

function valuesOf(frames: readonly NluFrame[], slot: string): unknown[] {
  return entriesOf(frames, slot).map((entry) => entry.value);
}

describe("lay words for the common complaints of every body system (ontology/lexicon.json)", () => {
  const cases: ReadonlyArray<readonly [system: string, utterance: string, value: string]> = [
    ["genitourinary", "It burns when I pee.", "dysuria"],
    ["genitourinary", "It stings when I wee.", "dysuria"],
    // Self-play: the patient echoes the doctor's lay term ("burning or pain when you pee?").
    ["genitourinary", "Yes, I have burning and pain when you pee.", "dysuria"],
    ["genitourinary", "I'm always running to the loo.", "urinary frequency"],
    ["genitourinary", "I keep needing the loo.", "urinary frequency"],
    ["genitourinary", "ive got pain when i wee and im constantly needing a wee", "urinary frequency"],
    ["genitourinary", "I'm peeing every half an hour.", "urinary frequency"],
    ["genitourinary", "My pee is cloudy and there's blood in it sometimes, like pink pee.", "hematuria"],
    ["gastrointestinal", "I get heartburn after meals.", "heartburn"],
    ["gastrointestinal", "I keep getting this acid coming up into my throat.", "heartburn"],
    ["gastrointestinal", "I can't keep anything down.", "vomiting"],
    ["gastrointestinal", "I've had the runs for two days.", "diarrhea"],
    ["gastrointestinal", "My tummy feels all blown up.", "abdominal bloating"],
    ["cardiovascular", "My heart keeps racing.", "palpitations"],
    ["cardiovascular", "My heart flutters and skips beats.", "palpitations"],
    ["cardiovascular", "My ankles have gone all puffy.", "swelling"],
    ["respiratory", "I can't get my breath.", "dyspnea"],
    ["respiratory", "I'm coughing up green gunk.", "colored/excess sputum"],
    ["neurological", "I've got pins and needles in my hands.", "paresthesia"],
    ["neurological", "Everything is spinning.", "dizziness"],
    ["neurological", "The room keeps spinning when I stand up.", "dizziness"],
    ["cardiovascular", "My chest feels like an elephant is sitting on it.", "chest tightness"],
    ["ear, nose and throat", "My glands are up.", "lymphadenopathy"],
    ["ear, nose and throat", "It's agony to swallow.", "odynophagia"],
    ["general", "Had a temp of 38 last night.", "fever"],
    ["neurological", "I keep passing out.", "syncope"],
    ["psychiatric", "I've been feeling low.", "depressed mood"],
    ["psychiatric", "I feel really down in the dumps lately.", "depressed mood"],
    ["psychiatric", "I'm on edge all the time and can't switch off.", "anxiety"],
    ["psychiatric", "I can't get to sleep at night.", "sleeplessness"],
    ["dermatological", "I came out in a rash.", "dermatologic problem"],
    ["dermatological", "I've broken out in hives.", "dermatologic problem"],
    ["dermatological", "My skin is really itchy.", "pruritus"],
    ["musculoskeletal", "My knee is really stiff in the mornings.", "joint stiffness"],
    ["general", "I feel wiped out all the time.", "bedridden"],
    ["general", "I've been shivering and burning up.", "fever"],
    ["general", "My clothes are hanging off me, I've lost so much weight.", "unexplained weight loss"],
    ["gastrointestinal", "I've been throwing up all night.", "vomiting"],
    ["gastrointestinal", "My stomach is really upset.", "nausea"],
    ["genitourinary", "I'm peeing blood.", "hematuria"],
    ["cardiovascular", "My heart is pounding.", "palpitations"],
    ["musculoskeletal", "My back is killing me.", "pain"],
    ["general", "I've found a lump in my breast.", "lump"],
    ["respiratory", "I've been getting nosebleeds.", "epistaxis"],
    ["neurological", "I feel shaky all the time.", "tremor"],
    ["neurological", "My face has gone droopy on one side.", "facial droop"],
    ["neurological", "I can't move my arm properly.", "muscle weakness"],
    ["neurological", "My vision went blurry.", "visual impairment"],
    ["psychiatric", "I can't stop crying.", "depressed mood"],
    ["psychiatric", "I've been hearing things that aren't there.", "hallucinations"],
  ];
  it.each(cases)("%s: %s", async (_system, utterance, value) => {
    expect(valuesOf(await understand(utterance, "What brings you in today?"), "positive_symptom")).toContain(value);
  });

  it("negative control: one wee that stings, or a wee every morning, is no frequency", async () => {
    for (const said of ["It stings when I have a wee.", "I have a wee every morning, it stings."])
      expect(valuesOf(await understand(said, "What brings you in today?"), "positive_symptom")).not.toContain(
        "urinary frequency",
      );
  });

  it("negative control: a spinning class is exercise, not dizziness (nor 'a killer' a pain)", async () => {
    const frames = await understand(
      "I'm fine really, just here for a check-up. I went to a spinning class and it was a killer.",
      "What brings you in today?",
    );
    expect(valuesOf(frames, "positive_symptom")).toEqual([]);
  });

  it("typed without apostrophes: 'im a 24 year old woman' is her age and sex; 'low down on my right side' is in the tummy, low on the right", async () => {
    const frames = await understand(
      "im a 24 year old woman and ive got a really bad pain low down on my right side",
      "What brings you in today?",
    );
    expect(entriesOf(frames, "basic_information")).toEqual([{ age: "24", sex: "female" }]);
    expect(entriesOf(frames, "positive_symptom")).toEqual([
      expect.objectContaining({ value: "pain", location: ["abdomen", "right iliac fossa"] }),
    ]);
  });

  it("negative control: a pain in the side alone stays in the flank", async () => {
    const frames = await understand("I've got a pain in my side.", "What brings you in today?");
    expect(entriesOf(frames, "positive_symptom")).toEqual([expect.objectContaining({ location: ["flank"] })]);
  });

  it("'he's been really irritable', 'a bit grizzly' is irritability, not an exposure to irritants", async () => {
    for (const said of ["He's been really irritable.", "She's a bit grizzly but playing."])
      expect(valuesOf(await understand(said, "What brings you in today?"), "positive_symptom"), said).toEqual([
        "irritability",
      ]);
  });

  it("negative controls: irritable bowel syndrome is a condition; chemicals at work are still an exposure", async () => {
    const ibs = await understand("I have irritable bowel syndrome.", "Any medical conditions?");
    expect(valuesOf(ibs, "positive_medical_history")).toEqual(["irritable bowel syndrome"]);
    expect(valuesOf(ibs, "positive_symptom")).toEqual([]);
    expect(
      valuesOf(await understand("I work with chemicals.", "What do you do for work?"), "positive_exposure"),
    ).toEqual(["irritants"]);
  });

  it("'yes' to the doctor's feeding question (as the templates word it) is poor feeding, never a drinking habit", async () => {
    // Found trying the chat: "how is the feeding, eating and drinking as usual?" — "yes" was alcohol abuse.
    const templates = JSON.parse(
      readFileSync(new URL("../../../../ontology/nlg-templates.json", import.meta.url), "utf8"),
    ) as { live_templates: Record<string, string> };
    const question = templates.live_templates["inquire/symptom=poor feeding"]!;
    const frames = await understand(
      "yes",
      "What brings you in today?",
      "I've had a temp since yesterday.",
      `OK, and ${question}`,
    );
    expect(valuesOf(frames, "positive_symptom")).toEqual(["loss of appetite"]);
    expect(entriesOf(frames, "positive_habit")).toEqual([]);
  });

  it("an injury as a footballer tells it: twisted, swollen, can't put weight on it, gives way", async () => {
    const frames = await understand(
      "twisted my knee playing football on saturday, its swollen and i cant put weight on it",
      "What brings you in today?",
    );
    expect(valuesOf(frames, "positive_symptom")).toEqual(["trauma", "swelling", "difficulty walking"]);
    expect(entriesOf(frames, "negative_symptom")).toEqual([]);
    expect(
      valuesOf(await understand("My knee keeps giving way.", "What brings you in today?"), "positive_symptom"),
    ).toEqual(["joint instability"]);
  });

  it("negative controls: weight put on is weight gain, and a twisting pain is no injury", async () => {
    expect(valuesOf(await understand("I've put on weight.", "What brings you in today?"), "positive_symptom")).toEqual([
      "weight gain",
    ]);
    expect(
      valuesOf(await understand("I have a twisting pain.", "What brings you in today?"), "positive_symptom"),
    ).toEqual(["pain"]);
  });

  it("heart failure as a patient tells it: can't lie flat, propped on pillows, ankles like balloons (found trying the chat)", async () => {
    const frames = await understand(
      "been getting more and more breathless over the last month, cant lie flat at night, have to prop myself up on 3 pillows, and my ankles are like balloons",
      "What brings you in today?",
    );
    expect(valuesOf(frames, "positive_symptom")).toEqual(["dyspnea", "orthopnea", "swelling"]);
    expect(entriesOf(frames, "positive_symptom")[2]).toMatchObject({ location: ["leg"] });
  });

  it("negative control: 'more and more' alone names nothing", async () => {
    expect(
      entriesOf(await understand("I see her more and more.", "What brings you in today?"), "positive_symptom"),
    ).toEqual([]);
  });

  it("negative control: working as a temp is an occupation, not a fever", async () => {
    const frames = await understand("I work as a temp at the council.", "What brings you in today?");
    expect(valuesOf(frames, "positive_symptom")).toEqual([]);
  });

  it("'throwing up all night' is vomiting, not a sleepless night", async () => {
    expect(
      valuesOf(await understand("I've been throwing up all night.", "What brings you in today?"), "positive_symptom"),
    ).toEqual(["vomiting"]);
  });
});

describe("light that hurts and being sick, as a British patient says them", () => {
  const asked = ["What brings you in today?", "My head is pounding.", "Any sensitivity to light?"];
  it("'the light hurts, can you turn it down a bit' is photophobia, not another pain", async () => {
    const frames = await understand("the light hurts, can you turn it down a bit", ...asked);
    expect(valuesOf(frames, "positive_symptom")).toEqual(["photophobia"]);
  });
  it("negative control: 'my eyes hurt' is no photophobia", async () => {
    expect(valuesOf(await understand("my eyes hurt", ...asked), "positive_symptom")).not.toContain("photophobia");
  });
  it("'been sick a couple of times' to a vomiting question is vomiting", async () => {
    const frames = await understand(
      "been sick a couple of times",
      "What brings you in today?",
      "A headache.",
      "Any vomiting?",
    );
    expect(valuesOf(frames, "positive_symptom")).toEqual(["vomiting"]);
  });
  it("negative control: 'I've been sick for a week' (ill) is no vomiting", async () => {
    const frames = await understand("I've been sick for a week.", "What brings you in today?");
    expect(valuesOf(frames, "positive_symptom")).not.toContain("vomiting");
  });
});

describe("corrections: 'actually …, not …' replaces the value it corrects", () => {
  const history = [
    "What brings you in today?",
    "It burns when I pee.",
    "When did that start?",
    "Sunday.",
    "Have you seen any blood in your urine?",
  ];

  it("a corrected onset replaces the onset and is never a denied symptom", async () => {
    const frames = await understand("Actually it started Monday, not Sunday.", ...history);
    expect(entriesOf(frames, "positive_symptom")).toContainEqual(
      expect.objectContaining({ value: "dysuria", onset: "monday" }),
    );
    expect(entriesOf(frames, "negative_symptom")).toEqual([]);
  });

  it("the tracked state holds the corrected onset", async () => {
    const talk = new Conversation(engine, { maxDoctorTurns: 40 });
    await talk.say("It burns when I pee since Sunday.");
    const outcome = await talk.say("Sorry, actually it started Monday, not Sunday.");
    const dysuria = (outcome.state.positive_symptom ?? []).find((entry) => entry.value === "dysuria");
    expect(dysuria?.onset).toBe("monday");
    expect(outcome.state.negative_symptom ?? []).toEqual([]);
  });
});

describe("allergies: 'X gives me a rash' is an allergy, not a current rash", () => {
  it.each([
    ["Penicillin gives me a rash.", "Do you have any allergies?"],
    ["Penicillin gives me a rash.", "Are you taking any medications?"],
    ["Amoxicillin makes me come out in hives.", "Is there anything else I should know?"],
    ["I break out in a rash if I take sulfa drugs.", "Any other medical conditions?"],
  ])("%s (to: %s)", async (utterance, question) => {
    const frames = await understand(utterance, "What brings you in today?", "It burns when I pee.", question);
    expect(valuesOf(frames, "positive_medical_history")).toContain("drug allergy");
    expect(valuesOf(frames, "positive_symptom")).not.toContain("dermatologic problem");
    expect(valuesOf(frames, "positive_medication")).toEqual([]);
  });

  it("an allergy to a food reads as a food allergy", async () => {
    const frames = await understand("Peanuts make my lips swell up.", "Do you have any allergies?");
    expect(valuesOf(frames, "positive_medical_history")).toContain("food allergy");
    expect(valuesOf(frames, "positive_symptom")).toEqual([]);
  });
});

describe("separate pains stay separate; sites, smells and relatives read right", () => {
  it("a flank pain is a flank pain, not a chest pain", async () => {
    const frames = await understand("I have a pain in my right flank.", "What brings you in today?");
    expect(entriesOf(frames, "positive_symptom")).toContainEqual(
      expect.objectContaining({ value: "pain", location: ["flank", "right flank"] }),
    );
    expect(valuesOf(frames, "positive_symptom")).not.toContain("chest pain");
  });

  it("'left side, behind the eye' is a head site, not the side of the chest", async () => {
    const frames = await understand(
      "Left side, behind the eye.",
      "What brings you in today?",
      "I've had a bad headache.",
      "Where is the headache?",
    );
    const headache = entriesOf(frames, "positive_symptom").find((entry) => entry.value === "headache");
    expect(headache?.location).toBeDefined();
    expect(headache?.location).not.toContain("side of chest");
    expect(valuesOf(frames, "positive_symptom")).not.toContain("chest pain");
  });

  it("a flank pain and then a headache are two entries; the headache does not take the flank's place", async () => {
    const talk = new Conversation(engine, { maxDoctorTurns: 40 });
    await talk.say("I've got a pain in my right flank.");
    const outcome = await talk.say("And I've had a headache too, left side, behind the eye.");
    const symptoms = outcome.state.positive_symptom ?? [];
    expect(symptoms).toContainEqual(expect.objectContaining({ value: "pain", location: ["flank", "right flank"] }));
    expect(symptoms.map((entry) => entry.value)).toContain("headache");
  });

  it("a second pain at another site is its own entry and keeps the first pain's site", async () => {
    const talk = new Conversation(engine, { maxDoctorTurns: 40 });
    await talk.say("My right shoulder hurts.");
    const outcome = await talk.say("My knee hurts as well.");
    const pains = (outcome.state.positive_symptom ?? []).filter(
      (entry) => JSON.stringify(entry.location ?? []).length > 2,
    );
    expect(pains).toContainEqual(expect.objectContaining({ value: "pain", location: ["shoulder", "right shoulder"] }));
    expect(pains).toContainEqual(expect.objectContaining({ location: ["knee"] }));
  });

  it("'it smells kinda bad' about urine is not a loss of smell", async () => {
    const frames = await understand(
      "It smells kinda bad.",
      "What brings you in today?",
      "It burns when I pee.",
      "Have you noticed anything different about your urine?",
    );
    expect(JSON.stringify(frames)).not.toContain("anosmia");
    expect(JSON.stringify(frames)).not.toContain("smell altered");
  });

  it("'mom has heart problems' is the mother's", async () => {
    const asked = await understand(
      "Mom has heart problems.",
      "Does anyone in your family have any medical conditions?",
    );
    expect(entriesOf(asked, "positive_family_history")).toContainEqual(
      expect.objectContaining({ value: "heart diseases", relation: "mother" }),
    );
    const later = await understand(
      "Yeah, mom has heart problems.",
      "Does your dad have any medical conditions?",
      "He has diabetes.",
      "Anything else in the family?",
    );
    expect(entriesOf(later, "positive_family_history")).toContainEqual(
      expect.objectContaining({ value: "heart diseases", relation: "mother" }),
    );
  });
});

describe("site answers: 'it's not in my X, it's in my Y' (found in self-play)", () => {
  it("a pain asked at one site and placed at another is the pain at the other site, not a denial or small talk", async () => {
    const frames = await understand(
      "It's not in my abdomen, it's in my flank.",
      "What brings you in?",
      "I have pain in my side and a fever.",
      "Have you had any abdominal pain?",
    );
    expect(entriesOf(frames, "positive_symptom")).toContainEqual(
      expect.objectContaining({ value: "pain", location: ["flank"] }),
    );
  });

  it("a swelling asked in the legs and placed in the ankles", async () => {
    const frames = await understand(
      "It's not in my leg, it's in my ankle.",
      "What brings you in?",
      "I've been short of breath.",
      "Have you had any leg swelling?",
    );
    expect(entriesOf(frames, "positive_symptom")).toContainEqual(
      expect.objectContaining({ value: "swelling", location: ["ankle"] }),
    );
  });

  it("a bare site confirms the asked symptom there", async () => {
    const frames = await understand(
      "It's in my abdomen.",
      "What brings you in?",
      "I've been vomiting blood.",
      "Have you had any abdominal pain?",
    );
    expect(entriesOf(frames, "positive_symptom")).toContainEqual(
      expect.objectContaining({ value: "pain", location: ["abdomen"] }),
    );
  });
});

describe("answers named in the issue's transcripts", () => {
  it("'how long has the cough been going on?' asks the onset", async () => {
    expect(
      entriesOf(await understand("About a week.", "How long has the cough been going on?"), "positive_symptom"),
    ).toEqual([{ value: "coughing", onset: "a week ago" }]);
  });

  it("'drinking water maybe helps a bit?' names what eases the headache, and is no question to the doctor", async () => {
    const frames = await understand(
      "drinking water maybe helps a bit?",
      "What brings you in?",
      "I've had a headache for three days.",
      "Is there anything that makes it better or worse?",
    );
    expect(entriesOf(frames, "positive_symptom")).toEqual([
      { value: "headache", alleviating_factor: ["drinking fluids"] },
    ]);
  });
});

describe("lists that repeat their lead-in (found in self-play)", () => {
  it("'I haven't had changes in my hearing or changes in my vision' denies both", async () => {
    const frames = await understand(
      "No, I haven't had changes in my hearing or changes in my vision.",
      "Have you had any changes in your hearing or vision?",
    );
    expect(valuesOf(frames, "negative_symptom")).toEqual(["hearing impairment", "visual impairment"]);
    expect(valuesOf(frames, "positive_symptom")).toEqual([]);
  });
});

describe("age and sex (basic_information)", () => {
  it.each([
    ["im 45", "How old are you?", { age: "45" }],
    ["I'm a 30-year-old woman.", "Could you tell me a bit about yourself?", { age: "30", sex: "female" }],
    ["I'm a 62 year old man with a cough.", "What brings you in today?", { age: "62", sex: "male" }],
    ["Female.", "Are you male or female?", { sex: "female" }],
    ["45, and I'm a guy.", "How old are you?", { age: "45", sex: "male" }],
  ])("%s (to: %s)", async (utterance, question, expected) => {
    const entries = entriesOf(await understand(utterance, question), "basic_information");
    expect(Object.assign({}, ...entries)).toMatchObject(expected);
  });

  it("a relative's age is not the patient's", async () => {
    const entries = entriesOf(
      await understand("My mother is 70 and has diabetes.", "Any medical conditions in your family?"),
      "basic_information",
    );
    expect(entries).toEqual([]);
  });
});

describe("where a pain is, however the patient gets to it", () => {
  const OPENING = "What brings you in today?";

  it("'a pain right in the centre of my chest': seven words on, still the chest", async () => {
    expect(
      valuesOf(await understand("I have a pain right in the centre of my chest", OPENING), "positive_symptom"),
    ).toEqual(["chest pain"]);
  });

  it("'its my chest doc. got this awful pain right in the middle': the site said first, in a sentence of its own", async () => {
    const frames = await understand(
      "its my chest doc. got this awful pain right in the middle, came on about an hour ago",
      OPENING,
    );
    expect(valuesOf(frames, "positive_symptom")).toEqual(["chest pain"]);
  });

  it("'my knee. it hurts when I walk': the knee", async () => {
    expect(entriesOf(await understand("my knee. it hurts when I walk", OPENING), "positive_symptom")).toEqual([
      expect.objectContaining({ value: "pain", location: ["knee"] }),
    ]);
  });

  it("negative control: 'I fell over yesterday. I have pain.' — a sentence before that names no site gives none", async () => {
    const pain = entriesOf(await understand("I fell over yesterday. I have pain.", OPENING), "positive_symptom").find(
      (entry) => entry.value === "pain",
    );
    expect(pain).toBeDefined();
    expect(pain).not.toHaveProperty("location");
  });

  it("negative control: a long sentence about a body part before is no topic ('my chest was fine last week when I went running with my friend. now I have pain')", async () => {
    const frames = await understand(
      "my chest was fine last week when I went running with my friend. now I have pain",
      OPENING,
    );
    expect(valuesOf(frames, "positive_symptom")).not.toContain("chest pain");
  });
});
