import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { porterStem, porterStemUncached } from "../../src/metrics/porter-stemmer.ts";

const fixture = JSON.parse(readFileSync(new URL("../fixtures/porter-stems.json", import.meta.url), "utf8")) as {
  n: number;
  stems: Record<string, string>;
};
const entries = Object.entries(fixture.stems);

describe("nltk 3.8 PorterStemmer (NLTK_EXTENSIONS)", () => {
  it("reproduces every stem of porter-stems.json", () => {
    expect(entries.length).toBe(fixture.n);
    const wrong = entries
      .filter(([word, stem]) => porterStemUncached(word) !== stem)
      .map(([word, stem]) => `${word}: ${porterStemUncached(word)} != ${stem}`);
    expect(wrong).toEqual([]);
  });

  it("gives the same stems through the memo, on first and repeated calls", () => {
    for (const [word, stem] of entries) expect(porterStem(word)).toBe(stem);
    for (const [word, stem] of entries) expect(porterStem(word)).toBe(stem);
  });

  it("applies the NLTK_EXTENSIONS departures from Porter (1980)", () => {
    // Irregular forms, checked before any rule.
    expect(["sky", "skies", "dying", "lying", "tying", "news", "innings", "proceed"].map(porterStemUncached)).toEqual([
      "sky",
      "sky",
      "die",
      "lie",
      "tie",
      "news",
      "inning",
      "proceed",
    ]);
    // 4-letter -ies / -ied keep "ie"; longer ones become "i".
    expect(["dies", "died", "spied", "flies"].map(porterStemUncached)).toEqual(["die", "die", "spi", "fli"]);
    // y -> i only after a consonant that is not the whole stem.
    expect(["happy", "enjoy", "spy"].map(porterStemUncached)).toEqual(["happi", "enjoy", "spi"]);
    // Words of one or two characters are returned unchanged.
    expect(["is", "as", "a"].map(porterStemUncached)).toEqual(["is", "as", "a"]);
  });

  it("lower-cases its input like stem(word, to_lowercase=True)", () => {
    expect(porterStemUncached("Coughing")).toBe("cough");
  });
});
