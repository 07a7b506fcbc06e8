import { beforeAll, describe, expect, it } from "vitest";
import type { DialogueTurn } from "../../../../src/language/module-interfaces.ts";
import { readInformant } from "../../../../src/modules/embedded/nlu/informant.ts";
import { PATIENT_WORDS, SPEAKER_WORDS } from "../../../../src/modules/embedded/nlu/rules/informant-relations.ts";
import { embeddedNlu, lastTurn, mergedSlots } from "./nlu-harness.ts";

/**
 * Who the history is about (issue 20, item 2): a relative or carer speaking for the patient, written
 * as such a speaker would say it (none from a MediTOD dialogue), beside patients who speak for
 * themselves of their relatives' illnesses, which stay family history.
 */

beforeAll(() => {
  embeddedNlu();
});

const slots = mergedSlots;
const OPENING = "What brings you in today?";

describe("every word for the patient and for the speaker opens a proxy", () => {
  for (const [word, { speaker, sex, ageGroup }] of Object.entries(PATIENT_WORDS))
    it(`"my ${word} has had a fever" → ${speaker}, ${sex}${ageGroup ? `, ${ageGroup}` : ""}`, () => {
      expect(readInformant([], `My ${word} has had a fever.`).update?.informant).toEqual({
        relation: speaker,
        patientAge: null,
        patientSex: sex,
        ...(ageGroup ? { ageGroup } : {}),
      });
    });
  for (const [word, relation] of Object.entries(SPEAKER_WORDS))
    it(`"I'm her ${word}" → ${relation}`, () => {
      expect(readInformant([], `I'm her ${word}, she has a rash.`).update?.informant.relation).toBe(relation);
    });
});

describe("a relative speaking for the patient", () => {
  it("a parent's account of a toddler's fever is the patient's fever, with the age said later", async () => {
    const first = await lastTurn(OPENING, "My daughter has had a fever since yesterday.");
    expect(first.informant).toEqual({ relation: "parent", patientAge: null, patientSex: "female" });
    expect(slots(first.frames)).toEqual({
      positive_symptom: [{ value: "fever", onset: "since yesterday" }],
      basic_information: [{ sex: "female" }],
    });
    const age = await lastTurn(OPENING, "My daughter has had a fever since yesterday.", "How old is she?", "She's 3.");
    expect(age.informant).toEqual({ relation: null, patientAge: "3 years", patientSex: null });
    expect(slots(age.frames)).toEqual({ basic_information: [{ age: "3" }] });
  });

  it("a daughter describing her father's confusion: his confusion, not family history", async () => {
    const result = await lastTurn(OPENING, "I'm calling about my dad, he's been really confused since this morning.");
    expect(result.informant).toEqual({ relation: "child", patientAge: null, patientSex: "male" });
    expect(slots(result.frames)).toMatchObject({ positive_symptom: [expect.objectContaining({ value: "confusion" })] });
    expect(slots(result.frames)).not.toHaveProperty("positive_family_history");
  });

  it("a relative who has just collapsed is the patient; one who collapsed and died long ago is family history", () => {
    for (const said of [
      "My dad just collapsed in the kitchen and he wont wake up",
      "my wife passed out on the stairs",
      "Our 2 year old went floppy and grey",
    ])
      expect(readInformant([], said).update?.informant.relation, said).toMatch(/^(child|partner|parent)$/);
    // Negative controls: the past, and a relative named after the speaker's own trouble.
    for (const said of [
      "My dad collapsed and died of a heart attack when I was 12.",
      "My mum fainted a lot years ago.",
      "I've been dizzy and my dad collapsed once too",
    ])
      expect(readInformant([], said).update?.informant, said).toBeUndefined();
  });

  it("a mother naming herself: the rash is the child's", async () => {
    const result = await lastTurn(OPENING, "I'm her mum, she's been off her food and has a rash.");
    expect(result.informant).toMatchObject({ relation: "mother", patientSex: "female" });
    expect(slots(result.frames)).not.toHaveProperty("positive_family_history");
  });

  it("the age in the opening: my 2-year-old son", async () => {
    const result = await lastTurn(OPENING, "My 2-year-old son has a cough and a runny nose.");
    expect(result.informant).toEqual({ relation: "parent", patientAge: "2 years", patientSex: "male" });
    expect(slots(result.frames)).toMatchObject({ positive_symptom: [{ value: "coughing" }, { value: "rhinorrhea" }] });
  });

  it("typed as a worried relative types: 'hes 79' is his age, and 'he smokes 10 a day' his habit", async () => {
    const opening = "im calling about my dad, hes 79, hes had a cough for 3 weeks";
    expect((await lastTurn(OPENING, opening)).informant).toEqual({
      relation: "child",
      patientAge: "79 years",
      patientSex: "male",
    });
    const habit = await lastTurn(OPENING, opening, "Is the cough dry or wet?", "he smokes 10 a day");
    expect(slots(habit.frames)).toMatchObject({ positive_habit: [expect.objectContaining({ value: "smoking" })] });
  });

  it("'my son is 18 months, hes had a temp since yesterday and hes off his food': his age, his fever, his appetite", async () => {
    const result = await lastTurn(OPENING, "my son is 18 months, hes had a temp since yesterday and hes off his food");
    expect(result.informant).toEqual({ relation: "parent", patientAge: "18 months", patientSex: "male" });
    expect(slots(result.frames)).toMatchObject({
      positive_symptom: [
        expect.objectContaining({ value: "fever" }),
        expect.objectContaining({ value: "loss of appetite" }),
      ],
    });
  });

  it("negative controls: with a proxy for a man, 'she smokes' and 'my mum smokes' are not his habit", async () => {
    const opening = "im calling about my dad, hes 79, hes had a cough for 3 weeks";
    for (const said of ["she smokes 10 a day", "my mum smokes 10 a day"])
      expect(slots((await lastTurn(OPENING, opening, "Does anyone smoke?", said)).frames), said).not.toHaveProperty(
        "positive_habit",
      );
  });

  it("family-history questions still work with a proxy speaking", async () => {
    const turns = [OPENING, "My son has been vomiting all night.", "Any illnesses in the family?"];
    expect(slots((await lastTurn(...turns, "His dad has asthma.")).frames)).toEqual({
      positive_family_history: [{ value: "asthma", relation: "father" }],
    });
    expect(slots((await lastTurn(...turns, "My mother had breast cancer.")).frames)).toMatchObject({
      positive_family_history: [{ value: "malignant neoplasms", relation: "mother" }],
    });
  });
});

describe("negative controls: a patient speaking of their relatives", () => {
  it('"my mother had breast cancer" from the patient is family history, and no proxy', async () => {
    const result = await lastTurn(OPENING, "I've had a cough. My mother had breast cancer.");
    expect(result.informant).toBeUndefined();
    expect(slots(result.frames)).not.toHaveProperty("basic_information");
    expect(slots(result.frames)).toMatchObject({
      positive_symptom: [{ value: "coughing" }],
      positive_family_history: [{ value: "malignant neoplasms", relation: "mother" }],
    });
  });

  it("\"a cough. Also my mum has diabetes\": the mother's diabetes, the patient's cough", async () => {
    const result = await lastTurn(OPENING, "A cough. Also my mum has diabetes.");
    expect(result.informant).toBeUndefined();
    expect(slots(result.frames)).toMatchObject({
      positive_family_history: [{ value: "diabetes mellitus", relation: "mother" }],
    });
  });

  it("a relative who says something of the patient ('my wife says I snore', 'my mum thinks I'm depressed') tells the patient's history", async () => {
    for (const [said, value] of [
      ["My wife says I snore a lot.", "snoring"],
      ["My mum asked me to come, she thinks I'm depressed.", "depressed mood"],
    ] as const) {
      const read = slots((await lastTurn(OPENING, said)).frames);
      expect(read, said).not.toHaveProperty("positive_family_history");
      expect(read, said).toMatchObject({ positive_symptom: [{ value }] });
    }
    // Negative control: the patient's "I think" before the relative keeps the relative's condition.
    const question = "Any medical conditions in your family?";
    expect(slots((await lastTurn(question, "I think my mum has diabetes.")).frames)).toMatchObject({
      positive_family_history: [{ value: "diabetes mellitus", relation: "mother" }],
    });
  });

  it("a time told by the patient's own age ('when I was 10 my dad had a heart attack') leaves the relative's illness family history", async () => {
    const question = "Any heart problems in the family?";
    for (const [said, value, relation] of [
      ["When I was 10 my dad had a heart attack.", "myocardial infarction", "father"],
      ["when i was little my mum had breast cancer", "malignant neoplasms", "mother"],
    ] as const) {
      const read = slots((await lastTurn(question, said)).frames);
      expect(read, said).not.toHaveProperty("positive_medical_history");
      expect(read, said).toMatchObject({ positive_family_history: [{ value, relation }] });
    }
    // Negative control: the patient as the subject after the time is the patient's own history.
    const own = slots((await lastTurn("Any heart problems yourself?", "When I was 40 I had a heart attack.")).frames);
    expect(own).not.toHaveProperty("positive_family_history");
    expect(own).toMatchObject({ positive_medical_history: [{ value: "myocardial infarction" }] });
  });

  it("a child named by their age alone ('my 8 month old has a fever', 'our 2-year-old') is spoken of by a parent, with the age", () => {
    for (const [said, patientAge] of [
      ["My 8 month old has had a fever since yesterday.", "8 months"],
      ["our 2-year-old keeps being sick", "2 years"],
    ] as const)
      expect(readInformant([], said).update?.informant, said).toEqual({
        relation: "parent",
        patientAge,
        patientSex: null,
      });
    // Negative control: the patient's own months of illness are no child.
    expect(readInformant([], "I have been ill for 8 months.").update).toBeUndefined();
  });

  it("no proxy heard after the first two patient turns", () => {
    const history = [OPENING, "A cough.", "How long?", "Two weeks.", "Anyone else ill?"].map((text, index) => ({
      speaker: index % 2 === 0 ? ("doctor" as const) : ("patient" as const),
      text,
    }));
    expect(readInformant(history, "My daughter has a cold too.").update).toBeUndefined();
  });

  it("the same words read as an opening and as a later turn keep their own readings (each remembered apart)", () => {
    const said = "My son has a cold too.";
    const history = [OPENING, "A cough.", "How long?", "Two weeks.", "Anyone else ill?"].map((text, index) => ({
      speaker: index % 2 === 0 ? ("doctor" as const) : ("patient" as const),
      text,
    }));
    // Read first as an opening (a proxy), then later (none), then as an opening again (a proxy again).
    expect(readInformant([], said).update?.informant.relation).toBe("parent");
    expect(readInformant(history, said).update).toBeUndefined();
    expect(readInformant([], said).update?.informant.relation).toBe("parent");
    // The same answer after a family question, then after an ordinary one: none, then a proxy.
    const family = [{ speaker: "doctor" as const, text: "Anyone in your family ill?" }];
    expect(readInformant(family, said).update).toBeUndefined();
    expect(readInformant([{ speaker: "doctor" as const, text: OPENING }], said).update?.informant.relation).toBe(
      "parent",
    );
  });

  it("no proxy in an answer to a family-history question: my mother is 70 and has diabetes", () => {
    const question = [{ speaker: "doctor" as const, text: "Any medical conditions in your family?" }];
    expect(readInformant(question, "My mother is 70 and has diabetes.").update).toBeUndefined();
  });
});

/**
 * A relative who says only later whom they speak for (issue 20, follow-up): "sorry, I'm actually
 * calling about my dad" in the third or fourth patient turn still switches the history to the patient.
 */
describe("a proxy declared after the first two turns", () => {
  const earlier = [
    OPENING,
    "It's about some confusion really.",
    "When did it start?",
    "Since yesterday morning.",
    "Is it getting worse?",
  ];

  it("'I'm actually calling about my dad' in the third patient turn: the father's history, told by his child", async () => {
    const result = await lastTurn(...earlier, "Sorry, I should say, I'm actually calling about my dad, he's 82.");
    expect(result.informant).toEqual({ relation: "child", patientAge: "82 years", patientSex: "male" });
    expect(slots(result.frames)).not.toHaveProperty("positive_family_history");
  });

  it("'I'm his wife' in the fourth patient turn opens the proxy too, and the later turns keep it", () => {
    const history: DialogueTurn[] = [...earlier, "It's worse today.", "Any headache?"].map((text, index) => ({
      speaker: index % 2 === 0 ? "doctor" : "patient",
      text,
    }));
    expect(readInformant(history, "No. I'm his wife, by the way.").update?.informant).toEqual({
      relation: "wife",
      patientAge: null,
      patientSex: "male",
    });
    const later: DialogueTurn[] = [
      ...history,
      { speaker: "patient", text: "No. I'm his wife, by the way." },
      { speaker: "doctor", text: "Any fever?" },
    ];
    expect(readInformant(later, "He's been hot.").known?.informant.relation).toBe("wife");
  });

  it("negative control: 'my dad had a stroke' in a family-history answer is family history, no proxy", async () => {
    const result = await lastTurn(
      ...earlier,
      "It's worse.",
      "Does anything run in the family?",
      "My dad had a stroke.",
    );
    expect(result.informant ?? null).toBeNull();
    expect(slots(result.frames)).toMatchObject({
      positive_family_history: [expect.objectContaining({ relation: "father" })],
    });
  });

  it("negative controls: a relative named later is no proxy by itself", () => {
    const history: DialogueTurn[] = earlier.map((text, index) => ({
      speaker: index % 2 === 0 ? "doctor" : "patient",
      text,
    }));
    for (const said of [
      "My dad has diabetes.",
      "I'm here with my son.",
      "It's worse, I was asking for my dad's advice about it.",
      "My wife is worried about it.",
    ])
      expect(readInformant(history, said).update, said).toBeUndefined();
  });
});
