import { describe, expect, it } from "vitest";
import { loadMeditod } from "../../../../src/data/meditod.ts";
import { buildLexicon } from "../../../../src/modules/embedded/nlu/lexicon.ts";
import { EMPTY_QUESTION } from "../../../../src/modules/embedded/nlu/question-types.ts";
import { QuestionMemory } from "../../../../src/modules/embedded/nlu/question-memory.ts";
import { SmallTalkClassifier } from "../../../../src/modules/embedded/nlu/small-talk.ts";
import { analyseText } from "../../../../src/modules/embedded/nlu/analysed-text.ts";
import { mineTraining } from "../../../../src/modules/embedded/nlu/training-mining.ts";
import { loadTrainingData } from "../../../../src/modules/embedded/training-data.ts";

describe("training mining", () => {
  const mined = mineTraining(loadTrainingData(loadMeditod(), "train"), buildLexicon());

  it("collects annotated values, question exemplars, acknowledgements and vocabulary", () => {
    expect(mined.memory.size).toBeGreaterThan(10);
    expect(mined.additions.concepts?.length).toBeGreaterThan(10);
    // Family-history values are learnt as conditions (the family context moves them).
    expect(mined.additions.concepts?.every((addition) => addition.concept.slot !== "family_history")).toBe(true);
    expect(mined.vocabulary.size).toBeGreaterThan(200);
    expect(mined.acknowledgements.size).toBeGreaterThan(0);
  });

  it("never learns placeholder values as surface forms", () => {
    const forms = new Set(mined.additions.concepts?.map((addition) => addition.form));
    for (const placeholder of ["other", "all", "past experience", "similar symptoms"])
      expect(forms.has(placeholder)).toBe(false);
  });
});

describe("mining question forms", () => {
  const training = (doctor: string, actions: unknown[]) => ({
    dialogueIds: ["synthetic"],
    dialogues: [{ id: "synthetic", utterances: [{ speaker: "doctor", uttr_id: 0, text: doctor, actions }] }],
  });

  it("learns the content words of a question the lexicon cannot explain", () => {
    const mined = mineTraining(
      training("Any trouble with your stamina?", [{ action: "inquire", symptom: [{ value: "bedridden" }] }]) as never,
      buildLexicon(),
    );
    expect(mined.additions.concepts?.some((addition) => addition.form === "trouble stamina")).toBe(true);
  });

  it("never learns answer words or closing questions as names of what was asked", () => {
    const confirm = mineTraining(
      training("OK, no?", [{ action: "inquire", symptom: [{ value: "swelling" }] }]) as never,
      buildLexicon(),
    );
    expect(confirm.additions.concepts?.map((addition) => addition.form)).toEqual(["swelling"]);
    const closing = mineTraining(
      training("So we'll do a swab. How does that sound?", [
        { action: "inquire", medical_test: [{ value: "covid-19 rt-pcr testing" }] },
      ]) as never,
      buildLexicon(),
    );
    expect(closing.additions.concepts?.map((addition) => addition.form)).toEqual(["covid-19 rt-pcr testing"]);
  });
});

describe("question memory", () => {
  it("lends the values of the nearest training question when the lexicon found none", () => {
    const memory = new QuestionMemory();
    memory.add("Any trouble with your energy levels lately?", [
      { action: "inquire", symptom: [{ value: "bedridden" }] },
    ]);
    const question = { ...EMPTY_QUESTION, isQuestion: true };
    expect(memory.complete(question, "How have your energy levels been lately?").items).toEqual([
      { slot: "symptom", value: "bedridden" },
    ]);
    // One shared word is not enough, and questions with their own items are left alone.
    expect(memory.complete(question, "Any trouble sleeping?").items).toEqual([]);
  });
});

describe("small talk", () => {
  const classifier = new SmallTalkClassifier(["gotcha"]);
  it("tells acknowledgements from chit-chat", () => {
    expect(classifier.classify(analyseText("Okay, gotcha."))).toBe("nod_prompt_salutations");
    expect(classifier.classify(analyseText("Hi there."))).toBe("nod_prompt_salutations");
    expect(classifier.classify(analyseText("That's a relief, my sister had something similar last year."))).toBe(
      "chit-chat",
    );
  });
});
