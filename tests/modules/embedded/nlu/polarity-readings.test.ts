import { beforeAll, describe, expect, it } from "vitest";
import { embeddedNlu, lastTurn, slotsAfter } from "./nlu-harness.ts";

/**
 * Polarity and factors as a clinician hears them (issue 20, item 3): each failure the issue names,
 * written as a patient would say it (none from a MediTOD dialogue), beside a negative control that
 * must keep its old reading.
 */

beforeAll(() => {
  embeddedNlu();
});

/** The frames' slots, merged, of `utterance` said to `question` after `opening` (a chest pain, for factor questions). */
const slotsOf = (question: string, utterance: string, opening = "Chest pain.") =>
  slotsAfter("What brings you in today?", opening, question, utterance);

const value = (value: string) => [expect.objectContaining({ value })];

describe("negation typed without apostrophes", () => {
  const cases: ReadonlyArray<readonly [string, string, string]> = [
    ["Any fever?", "I dont have a fever.", "fever"],
    ["Any cough?", "havent had a cough", "coughing"],
    ["Any vomiting?", "I didnt vomit.", "vomiting"],
    ["Any headaches?", "Nope, doesnt get headaches.", "headache"],
  ];
  for (const [question, utterance, denied] of cases)
    it(`"${utterance}" denies ${denied}`, async () => {
      expect(await slotsOf(question, utterance)).toMatchObject({ negative_symptom: value(denied) });
    });

  it('"I dont smoke" is a non-smoker; negative control: "I smoke" a smoker', async () => {
    expect(await slotsOf("Do you smoke?", "I dont smoke.")).toMatchObject({ negative_habit: value("smoking") });
    expect(await slotsOf("Do you smoke?", "I smoke.")).toMatchObject({ positive_habit: value("smoking") });
  });

  it('"I cant breathe properly" is breathlessness, not its denial', async () => {
    expect(await slotsOf("Anything else?", "I cant breathe properly.")).toMatchObject({
      positive_symptom: value("dyspnea"),
    });
  });
});

describe("polarity readings", () => {
  it('"felt sick, not vomited": nausea present, vomiting absent', async () => {
    const slots = await slotsOf("Any nausea or vomiting?", "Felt sick, not vomited.");
    expect(slots).toMatchObject({ positive_symptom: value("nausea"), negative_symptom: value("vomiting") });
  });

  it('negative control: "no nausea or vomiting" denies both', async () => {
    const slots = await slotsOf("Any nausea or vomiting?", "No nausea or vomiting.");
    expect(slots).not.toHaveProperty("positive_symptom");
    expect(slots.negative_symptom).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ value: "nausea" }),
        expect.objectContaining({ value: "vomiting" }),
      ]),
    );
  });

  it('"nothing really, bit of high blood pressure" is hypertension present', async () => {
    const slots = await slotsOf("Any medical problems?", "Nothing really, bit of high blood pressure.");
    expect(slots).toMatchObject({ positive_medical_history: value("hypertensive disease") });
    expect(slots).not.toHaveProperty("negative_medical_history");
  });

  it('negative control: "no high blood pressure" denies it', async () => {
    expect(await slotsOf("Any medical problems?", "No high blood pressure, nothing like that.")).toMatchObject({
      negative_medical_history: value("hypertensive disease"),
    });
  });

  it('"not really a fever, more chills": the fever denied, the chills present', async () => {
    expect(await slotsOf("Any fever?", "Not really a fever, more chills.")).toMatchObject({
      negative_symptom: value("fever"),
      positive_symptom: value("chills"),
    });
  });

  it('negative control: "not really" alone to "any fever?" denies it', async () => {
    expect(await slotsOf("Any fever?", "Not really.")).toMatchObject({ negative_symptom: value("fever") });
  });

  it('weight lost "without trying" is weight loss, not its denial', async () => {
    for (const said of ["Without even trying I have lost weight.", "I've lost weight without trying."])
      expect(await slotsOf("Anything else?", said)).toMatchObject({
        positive_symptom: value("unexplained weight loss"),
      });
  });

  it('negative control: "I haven\'t lost weight" denies it', async () => {
    expect(await slotsOf("Anything else?", "I haven't lost weight.")).toMatchObject({
      negative_symptom: value("unexplained weight loss"),
    });
  });

  it('a drug that "didnt help" is ineffective; negative control: one that helped is effective', async () => {
    expect(await slotsOf("Have you taken anything for it?", "I tried paracetamol, didnt help.")).toMatchObject({
      positive_medication: [{ value: "acetaminophen", impact: "no" }],
    });
    expect(await slotsOf("Have you taken anything for it?", "I took paracetamol and it helped.")).toMatchObject({
      positive_medication: [{ value: "acetaminophen", impact: "yes" }],
    });
  });
});

describe("aggravating and relieving factors, per clause", () => {
  const question = "Does anything make the chest pain better or worse?";
  const cases: ReadonlyArray<readonly [string, string[], string[]]> = [
    ["The pain is worse when I walk and better when I rest.", ["physical exertion"], ["rest"]],
    ["It gets better with rest but worse when I climb stairs.", ["physical exertion"], ["rest"]],
    ["Lying down makes it better, moving makes it worse.", ["movement"], ["lying down"]],
  ];
  for (const [said, aggravating, alleviating] of cases)
    it(`"${said}"`, async () => {
      expect(await slotsOf(question, said)).toMatchObject({
        positive_symptom: [{ value: "chest pain", aggravating_factor: aggravating, alleviating_factor: alleviating }],
      });
    });

  it("a symptom that comes when the patient does something, beside what eases it: 'I get a tight chest when I walk up hills, goes off when I rest' (found trying the chat)", async () => {
    const { frames } = await lastTurn(
      "What brings you in today?",
      "i get a tight chest when i walk up hills, goes off when i rest, been a few weeks",
    );
    expect(frames?.map((frame) => frame.slots)).toEqual([
      {
        positive_symptom: [
          { value: "chest tightness", aggravating_factor: ["physical exertion"], alleviating_factor: ["rest"] },
        ],
      },
    ]);
  });

  it("negative control: what eases it is still what eases it when the symptom is named beside it", async () => {
    expect(await slotsOf(question, "The pain goes away when I sit down.")).toMatchObject({
      positive_symptom: [{ value: "chest pain", alleviating_factor: ["rest"] }],
    });
  });

  it('negative control: "worse when I walk or climb stairs" has one cue for both', async () => {
    const slots = await slotsOf(question, "Worse when I walk or climb stairs.");
    expect(slots).toMatchObject({
      positive_symptom: [{ value: "chest pain", aggravating_factor: ["physical exertion"] }],
    });
    expect(JSON.stringify(slots)).not.toContain("alleviating");
  });
});

describe("a bare answer to a trigger question asked one way", () => {
  it("names factors of the kind asked: worse, or better", async () => {
    expect(await slotsOf("Is there anything that makes the cough worse?", "cold air and smoke", "A cough.")).toEqual({
      positive_symptom: [{ value: "coughing", aggravating_factor: ["cold weather", "smoke"] }],
    });
    expect(await slotsOf("Does anything help the pain?", "lying down", "Back pain.")).toMatchObject({
      positive_symptom: [{ value: "pain", alleviating_factor: ["lying down"] }],
    });
  });

  it("negative controls: no direction when both are asked; the patient's own habit stays a habit", async () => {
    const both = await slotsOf("Anything make it better or worse?", "lying down", "Back pain.");
    expect(JSON.stringify(both)).not.toMatch(/aggravating|alleviating/);
    expect(await slotsOf("Anything make it worse?", "when I smoke", "A cough.")).toMatchObject({
      positive_habit: [{ value: "smoking" }],
    });
  });
});

describe("'can't say', 'couldn't tell you', 'no idea', 'don't know': unknown, never a denial", () => {
  const unsure: ReadonlyArray<readonly [question: string, utterance: string, value: string]> = [
    ["Has she had any fever?", "I couldnt tell you, she cant say", "fever"],
    ["Has she had any fever?", "I couldn't tell you, she can't say.", "fever"],
    ["Any cough?", "I cant say really", "coughing"],
    ["Any vomiting?", "Couldnt tell you.", "vomiting"],
    ["Has he had any headaches?", "He doesnt know.", "headache"],
    ["Any fever?", "not sure", "fever"],
    ["Any fever?", "No idea.", "fever"],
    ["Any fever?", "dont know", "fever"],
    ["Any fever?", "I don't know, to be honest.", "fever"],
    ["Has she had any vomiting?", "She can't say if she has vomited.", "vomiting"],
  ];
  for (const [question, utterance, concept] of unsure)
    it(`"${utterance}" to "${question}" leaves ${concept} unknown`, async () => {
      const slots = await slotsOf(question, utterance);
      expect(slots).toMatchObject({ unknown_symptom: value(concept) });
      expect(slots).not.toHaveProperty("negative_symptom");
    });

  it("negative controls: a real denial still denies, with or without apostrophes, by a relative too", async () => {
    expect(await slotsOf("Has she had any fever?", "No, she hasnt.")).toMatchObject({
      negative_symptom: value("fever"),
    });
    expect(await slotsOf("Any cough?", "I can't say I've noticed any cough, no.")).toMatchObject({
      negative_symptom: value("coughing"),
    });
    expect(await slotsOf("Any vomiting?", "She hasn't vomited.")).toMatchObject({
      negative_symptom: value("vomiting"),
    });
  });

  it("'no fever, she cant say about the cough': one denied, the other unknown", async () => {
    const slots = await slotsOf("Any fever or cough?", "No fever, she cant say about the cough.");
    expect(slots).toMatchObject({ negative_symptom: value("fever"), unknown_symptom: value("coughing") });
  });
});

describe("a no that belongs to what the patient named, not to the question (found trying the terminal chat)", () => {
  it("'dont smoke, dont drink' to 'any trouble swallowing?' denies the habits, never the swallowing", async () => {
    const slots = await slotsOf("Have you had any trouble swallowing?", "dont smoke, dont drink");
    expect(slots).toMatchObject({ negative_habit: [{ value: "smoking" }, { value: "alcohol abuse" }] });
    expect(slots).not.toHaveProperty("negative_symptom");
  });

  it("'I have no fever' to 'any trouble swallowing?' denies the fever alone", async () => {
    expect(await slotsOf("Have you had any trouble swallowing?", "I have no fever")).toEqual({
      negative_symptom: value("fever"),
    });
  });

  it("negative controls: a no said first still answers the question, and a bare no denies what was asked", async () => {
    expect(await slotsOf("Have you had any trouble swallowing?", "no, and i dont smoke")).toMatchObject({
      negative_symptom: value("dysphagia"),
      negative_habit: value("smoking"),
    });
    expect(await slotsOf("Have you had any trouble swallowing?", "nope")).toEqual({
      negative_symptom: value("dysphagia"),
    });
  });

  it("'no rash' to 'any headaches?' denies the rash and says nothing of the headaches; 'No. No rash either.' answers both", async () => {
    expect(await slotsOf("Have you had any headaches?", "no rash")).toEqual({
      negative_symptom: value("dermatologic problem"),
    });
    expect(await slotsOf("Have you had any headaches?", "No. No rash either.")).toMatchObject({
      negative_symptom: expect.arrayContaining([expect.objectContaining({ value: "headache" })]),
    });
  });
});

describe("a no inside a finding the patient names is that finding's (found trying the terminal chat)", () => {
  const harm = "Have you had any thoughts of harming yourself or ending your life?";

  it("'Im not eating much' to a question about self-harm is a poor appetite, and no denial of the thoughts", async () => {
    expect(await slotsOf(harm, "Im not eating much", "I've been feeling really low.")).toEqual({
      positive_symptom: value("loss of appetite"),
    });
  });

  it("negative controls: a no outside the finding, or said first, still denies what was asked", async () => {
    expect(await slotsOf("Have you had any fevers?", "I havent, but I have a headache")).toMatchObject({
      negative_symptom: value("fever"),
      positive_symptom: value("headache"),
    });
    expect(await slotsOf(harm, "no, not at all", "I've been feeling really low.")).toEqual({
      negative_symptom: value("suicidal ideation"),
    });
  });
});

describe("a yes that belongs to what the patient named", () => {
  it("'a bit of backache' to 'any fever?' affirms the backache alone; 'a little bit' still affirms the fever", async () => {
    const backache = await slotsOf("Have you had any fever?", "a bit of backache");
    expect(backache).not.toHaveProperty("negative_symptom");
    expect(backache.positive_symptom).toEqual([expect.objectContaining({ value: "pain", location: ["back"] })]);
    expect(await slotsOf("Have you had any fever?", "a little bit")).toMatchObject({
      positive_symptom: value("fever"),
    });
  });

  it("'yes, a rash' to 'any weight loss?' is the rash; 'yes, a stone' is the weight loss (negative control)", async () => {
    const rash = await slotsOf(
      "Have you had any weight loss?",
      "yes a rash, it doesn't go away when I press a glass on it",
    );
    expect(JSON.stringify(rash)).not.toContain("weight loss");
    expect(rash).toMatchObject({ positive_symptom: value("dermatologic problem") });
    expect(await slotsOf("Have you had any weight loss?", "yes, a stone")).toMatchObject({
      positive_symptom: value("unexplained weight loss"),
    });
  });
});

describe("questions put to a relative about the patient are read as asked of the patient", () => {
  /** The slots of `utterance` said by a parent to `question`, after "my boy is vomiting". */
  const parentSays = (question: string, utterance: string) =>
    slotsOf(question, utterance, "My little boy has been vomiting since last night.");

  it("'no' to 'has he had any blood in his stool or black stools?' denies those, never coughed blood", async () => {
    expect(await parentSays("Has he had any blood in his stool or black stools?", "no")).toEqual({
      negative_symptom: [{ value: "hematochezia" }, { value: "melena" }],
    });
  });

  it("fewer wet nappies are a smaller urine output, and 'no wet nappies' is a finding, not a denial", async () => {
    expect(await parentSays("Has he had fewer wet nappies than usual?", "yes, only 2 today")).toEqual({
      positive_symptom: [{ value: "decreased urine output" }],
    });
    expect(await parentSays("Anything else?", "and no wet nappies since this morning")).toMatchObject({
      positive_symptom: [expect.objectContaining({ value: "decreased urine output" })],
    });
    // Negative control: nappies as usual record nothing of the kind.
    expect(await parentSays("Anything else?", "his nappies are fine")).not.toHaveProperty("positive_symptom");
  });
});

describe("sites set against each other", () => {
  it("'no leg swelling, just the ankles' denies leg swelling only; 'leg swelling, and ankles' joins both (negative control)", async () => {
    const contrasted = await slotsOf("Any swelling?", "no leg swelling, just the ankles", "Short of breath.");
    expect(contrasted).toMatchObject({ negative_symptom: [{ value: "swelling", location: ["leg"] }] });
    const joined = await slotsOf("Any swelling?", "leg swelling, and ankles", "Short of breath.");
    expect(joined).toMatchObject({ positive_symptom: [{ value: "swelling", location: ["leg", "ankle"] }] });
  });
});

describe("a 'no' said of something the engine does not read as a finding", () => {
  it("'no bleeding' to 'any nausea or vomiting?' denies neither; negative controls: 'no thankfully', 'No.' deny both", async () => {
    const question = "Have you had any nausea or vomiting?";
    const opening = "Pain low down on my left side.";
    const unread = await slotsOf(question, "no bleeding", opening);
    expect(unread.negative_symptom ?? []).not.toContainEqual(expect.objectContaining({ value: "nausea" }));
    expect(unread.negative_symptom ?? []).not.toContainEqual(expect.objectContaining({ value: "vomiting" }));
    for (const answer of ["no thankfully", "No."])
      expect(await slotsOf(question, answer, opening)).toMatchObject({
        negative_symptom: [{ value: "nausea" }, { value: "vomiting" }],
      });
  });
});

describe("a hedged amount, and a habit told to a factor question", () => {
  it("'I have maybe 4 pints on a saturday' is drinking, and no uncertain coughed blood; negative control: 'maybe' is", async () => {
    const amount = await slotsOf(
      "Have you had any coughing up blood?",
      "I have maybe 4 pints on a saturday",
      "A cough.",
    );
    expect(amount).toMatchObject({ positive_habit: [{ value: "alcohol abuse", frequency: "4 pints on a saturday" }] });
    expect(amount.unknown_symptom).toBeUndefined();
    const hedge = await slotsOf("Have you had any coughing up blood?", "maybe", "A cough.");
    expect(hedge).toMatchObject({ unknown_symptom: value("hemoptysis") });
  });

  it("'I used to smoke, gave up 5 years ago' to 'anything makes it worse?' is no trigger; negative control: 'smoke makes it worse' is", async () => {
    const question = "Is there anything that makes the cough better or worse?";
    const habit = await slotsOf(question, "I used to smoke, gave up 5 years ago", "A cough.");
    expect(JSON.stringify(habit)).not.toContain("aggravating_factor");
    const trigger = await slotsOf(question, "smoke makes it worse", "A cough.");
    expect(trigger).toMatchObject({ positive_symptom: [{ value: "coughing", aggravating_factor: ["smoke"] }] });
  });

  it("'when I smoke' to 'anything makes it worse?' is the habit and the cough's trigger", async () => {
    for (const said of ["when I smoke", "yeah, whenever I smoke"]) {
      const slots = await slotsOf("Does anything make it worse?", said, "I've had a cough for two weeks.");
      expect(slots, said).toMatchObject({
        positive_habit: [{ value: "smoking" }],
        positive_symptom: [{ value: "coughing", aggravating_factor: ["smoke"] }],
      });
    }
  });
});

describe("a yes that opens a finding's own phrase", () => {
  it("'yes a bit of a temperature' to 'is he eating less?' is the fever, not eating less; negative control: 'yes a bit' is", async () => {
    const question = "Is he feeding or eating less than usual, or taking less fluid or milk?";
    const opening = "My son is 4 and he's had a cough.";
    const fever = await slotsOf(question, "yes a bit of a temperature, 38.2 last night", opening);
    expect(fever).toMatchObject({ positive_symptom: value("fever") });
    expect(JSON.stringify(fever)).not.toContain("loss of appetite");
    expect(await slotsOf(question, "yes a bit", opening)).toMatchObject({
      positive_symptom: value("loss of appetite"),
    });
  });
});
