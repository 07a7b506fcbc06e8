import { describe, expect, it } from "vitest";
import { buildLexicon } from "../../../../src/modules/embedded/nlu/lexicon.ts";
import { analyseQuestion } from "../../../../src/modules/embedded/nlu/question-analysis.ts";
import { createSpellingCorrector, editDistance } from "../../../../src/modules/embedded/nlu/spelling.ts";

const lexicon = buildLexicon();
const speller = createSpellingCorrector(lexicon.words, ["carpets"]);
const correct = (word: string) => speller.correct(word);

describe("spelling correction", () => {
  it("corrects misspelt medical words within one or two edits", () => {
    expect(speller.correct("wheezin")).toBe("wheezing");
    expect(speller.correct("nausious")).toBe("nauseous");
    expect(speller.correct("salbutemol")).toBe("salbutamol");
  });
  it("leaves known words, their inflections and short words alone", () => {
    expect(speller.correct("carpets")).toBeUndefined();
    expect(speller.correct("smelling")).toBeUndefined();
    expect(speller.correct("blocks")).toBeUndefined();
    expect(speller.correct("coff")).toBeUndefined();
  });
  it("leaves comparatives, superlatives and adverbs of known words alone ('fewer wet nappies' is not 'fever')", () => {
    for (const word of ["fewer", "bigger", "dizzier", "weirdly"]) expect(speller.correct(word), word).toBeUndefined();
    // Negative control: a misspelling that only looks derived is still corrected.
    expect(speller.correct("feverr")).toBe("fever");
  });
  it("takes a word only within its allowed edits, whatever Fuse ranks first", () => {
    const small = createSpellingCorrector(["wheezing", "phlegm", "salbutamol"]);
    // One edit away (eight letters allow one): corrected; a sound-alike opening searched in its own bucket.
    expect(small.correct("wheezng")).toBe("wheezing");
    expect(small.correct("fleghm")).toBe("phlegm");
    // Two edits away: Fuse still finds "wheezing" within its threshold, and the edit limit refuses it.
    expect(small.correct("wheezxxg")).toBeUndefined();
    // Negative control: nine letters allow two edits, so the same kind of slip is taken there.
    expect(small.correct("salbxxamol")).toBe("salbutamol");
  });
  it("measures edits with transpositions", () => {
    expect(editDistance("fever", "fevre")).toBe(1);
    expect(editDistance("cough", "cold")).toBe(3);
  });
});

describe("question analysis", () => {
  const ask = (text: string, previous?: string) =>
    analyseQuestion(
      { lexicon, correct },
      text,
      previous === undefined ? undefined : analyseQuestion({ lexicon, correct }, previous),
    );

  it("lists the values a yes/no question asks about", () => {
    const question = ask("Right. Any vomiting or diarrhoea lately?");
    expect(question.isQuestion).toBe(true);
    expect(question.items.map((item) => item.value)).toEqual(["vomiting", "diarrhea"]);
    expect(question.attribute).toBeUndefined();
  });

  it("finds the asked attribute and the value it is about", () => {
    const question = ask("Okay. And when did the wheezing first start?");
    expect(question.items.map((item) => item.value)).toEqual(["wheezing"]);
    expect(question.attribute).toBe("onset");
    expect(ask("On a scale of zero to ten, how bad is the headache?").attribute).toBe("severity");
    expect(ask("How long have you been smoking for?").attribute).toBe("starting");
  });

  it("keeps the sites of located symptoms and gathers repeated values", () => {
    const question = ask("Any swelling in your feet or hands?");
    expect(question.items).toEqual([{ slot: "symptom", value: "swelling", location: ["foot", "hand"] }]);
    expect(ask("Any joint pain or muscle aches?").items).toEqual([
      { slot: "symptom", value: "pain", location: ["joints", "set of muscles"] },
    ]);
  });

  it("moves conditions to family history for family questions and follow-ups", () => {
    expect(ask("Does anybody in your family have diabetes?").items).toEqual([
      { slot: "family_history", value: "diabetes mellitus" },
    ]);
    expect(ask("What about strokes?", "Anyone in the family with heart problems?").items).toEqual([
      { slot: "family_history", value: "cerebrovascular accident" },
    ]);
  });

  it("recognises past experience, open questions, inverted and closing questions", () => {
    expect(ask("Has anything like this ever happened to you before?").items).toEqual([
      { slot: "medical_history", value: "past experience" },
    ]);
    expect(ask("Do you take any medications?").items).toEqual([{ slot: "medication", value: "other" }]);
    const healthy = ask("Would you say you're generally healthy?");
    expect(healthy.items).toEqual([{ slot: "symptom", value: "general" }]);
    expect(healthy.inverted).toBe(true);
    expect(ask("That's everything from me. Do you have any questions?").smallTalk).toBe(true);
  });

  it("records what the doctor proposes and the triggers listed", () => {
    const question = ask("So the pain began two weeks ago, and is it constant?");
    expect(question.proposed).toEqual({ onset: "two weeks ago", duration: "constant" });
    expect(ask("Does your breathing get worse with exercise or at night?").proposedFactors).toEqual([
      "physical exertion",
      "night",
    ]);
  });

  it("treats restatements as statements and social questions by slot", () => {
    expect(ask("Okay, so you quit smoking last year.").isQuestion).toBe(false);
    expect(ask("Where are you living at the moment?").items).toEqual([{ slot: "residence" }]);
    expect(ask("Have you done any travelling recently?").items).toEqual([{ slot: "travel" }]);
    expect(ask("And how old are you?").attribute).toBe("age");
  });
});
