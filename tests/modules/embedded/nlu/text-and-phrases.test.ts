import { describe, expect, it } from "vitest";
import { PhraseIndex } from "../../../../src/modules/embedded/nlu/phrase-index.ts";
import { cleanText, numberValue, stemKey, tokenize } from "../../../../src/modules/embedded/nlu/text.ts";

describe("cleanText", () => {
  it("drops hesitations and stutters, lower-cases, keeps punctuation", () => {
    expect(cleanText("Um, I I think it's, uh, it's worse.")).toBe("i think it's worse.");
    expect(cleanText("Well it’s been   about a week")).toBe("well it's been about a week");
  });

  it("spells a pronoun's contraction typed without its apostrophe with it ('im 24', 'ive had', 'hes 79')", () => {
    expect(cleanText("im a 24 year old woman and ive got pain")).toBe("i'm a 24 year old woman and i've got pain");
    expect(cleanText("hes 79, shes fine, thats all, theyre out, weve tried")).toBe(
      "he's 79, she's fine, that's all, they're out, we've tried",
    );
  });

  it("negative control: words of their own stay as they are ('its', 'ill', 'were', 'well', 'id')", () => {
    expect(cleanText("its fine, ill be well, we were out, my id card")).toBe(
      "its fine, ill be well, we were out, my id card",
    );
  });
});

describe("tokenize and stemKey", () => {
  it("keeps contractions, marks punctuation and numbers, stems for matching", () => {
    const tokens = tokenize("i haven't had 3 fevers.");
    expect(tokens.map((token) => token.kind)).toEqual(["word", "word", "word", "number", "word", "punct"]);
    expect(tokens[1]!.key).toBe("haven't");
    expect(tokens[4]!.key).toBe(stemKey("fever"));
    expect(stemKey("heart's")).toBe(stemKey("heart"));
  });

  it("applies a spelling corrector before stemming", () => {
    const tokens = tokenize("bad diarhea", (word) => (word === "diarhea" ? "diarrhea" : undefined));
    expect(tokens[1]!.key).toBe(stemKey("diarrhea"));
    expect(tokens[1]!.text).toBe("diarhea");
  });
});

describe("numberValue", () => {
  it("reads digits and number words", () => {
    expect(numberValue("7")).toBe(7);
    expect(numberValue("seven")).toBe(7);
    expect(numberValue("several")).toBeUndefined();
  });
});

describe("PhraseIndex", () => {
  const index = new PhraseIndex<string>();
  index.add("short of breath", "dyspnea");
  index.add("breath", "breath");
  index.add("flu", "influenza");
  index.add("the flu", "influenza");
  index.add("flu shot", "immunization");
  index.add("able to smell", "smell");

  it("finds the longest form at each place and skips fillers inside a form", () => {
    const matches = index.findAll(tokenize("i get really short of breath"));
    expect(matches.map((match) => match.payloads[0])).toEqual(["dyspnea"]);
    expect(index.findAll(tokenize("not really able to smell")).map((match) => match.payloads[0])).toEqual(["smell"]);
  });

  it("prefers the candidate with more content words over an overlapping leftmost one", () => {
    const matches = index.findAll(tokenize("i got the flu shot"));
    expect(matches.map((match) => match.payloads[0])).toEqual(["immunization"]);
  });

  it("never matches across sentence punctuation", () => {
    expect(index.findAll(tokenize("i was short. of breath"))).toHaveLength(1);
  });
});
