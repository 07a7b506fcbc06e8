import { describe, expect, it } from "vitest";
import { KneserNeyByteLm } from "../../../../src/modules/embedded/notes/ngram-lm.ts";
import { loadMtsDialog } from "../../../../src/data/mts-dialog.ts";
import { noteSplit } from "../../../../src/data/note-dataset.ts";

const a = "a".charCodeAt(0);
const b = "b".charCodeAt(0);
const c = "c".charCodeAt(0);

/** Σ over the 256 bytes of p(byte | preceding). */
function total(model: KneserNeyByteLm, preceding: string): number {
  let sum = 0;
  for (let byte = 0; byte < 256; byte++) sum += model.byteProbability(preceding, byte);
  return sum;
}

// Corpus "abab", "ab" (S = start symbol).
// Order 1 continuation counts come from the bigram types {Sa, ab, ba}: N1+(•a) = 2, N1+(•b) = 1, so
// c(•) = 3, two distinct bytes, n1 = 1, n2 = 1, D1 = 1/(1 + 2) = 1/3, and
//   p1(a) = (2 − 1/3)/3 + (1/3 · 2/3)/256 = 5/9 + 1/1152,  p1(b) = 2/9 + 1/1152,  p1(other) = 1/1152.
const p1a = 5 / 9 + 1 / 1152;
const p1b = 2 / 9 + 1 / 1152;
const p1x = 1 / 1152;

describe("byte-level interpolated Kneser-Ney", () => {
  it("order 2 on a tiny corpus: raw bigram counts over continuation unigrams, by hand", () => {
    const model = new KneserNeyByteLm(["abab", "ab"], { order: 2 });
    // Bigrams: Sa 2, ab 3, ba 1 → n1 = 1, n2 = 1, D2 = 1/3.
    expect(model.discount(2)).toBeCloseTo(1 / 3, 15);
    expect(model.discount(1)).toBeCloseTo(1 / 3, 15);
    expect(model.byteProbability("", a)).toBeCloseTo((2 - 1 / 3) / 2 + (1 / 3 / 2) * p1a, 15); // context S: c = 2, one type
    expect(model.byteProbability("", b)).toBeCloseTo((1 / 3 / 2) * p1b, 15);
    expect(model.byteProbability("a", b)).toBeCloseTo((3 - 1 / 3) / 3 + (1 / 3 / 3) * p1b, 15);
    expect(model.byteProbability("a", c)).toBeCloseTo((1 / 3 / 3) * p1x, 15);
    expect(model.byteProbability("xb", a)).toBeCloseTo((1 - 1 / 3) / 1 + (1 / 3) * p1a, 15);
    // An unseen context falls through to the unigram distribution.
    expect(model.byteProbability("c", a)).toBeCloseTo(p1a, 15);
    expect(model.byteProbability("c", c)).toBeCloseTo(p1x, 15);
    // The log-likelihood of a text sums its bytes' log-probabilities, starting from the start symbol.
    const expected = Math.log((2 - 1 / 3) / 2 + (1 / 6) * p1a) + Math.log((3 - 1 / 3) / 3 + (1 / 9) * p1b);
    expect(model.logLikelihood("ab")).toBeCloseTo(expected, 12);
    expect(model.logLikelihood("")).toBe(0);
  });

  it("order 3: the middle order uses continuation counts, not raw counts", () => {
    const model = new KneserNeyByteLm(["abab", "ab"], { order: 3 });
    // Trigrams SSa 2, Sab 2, aba 1, bab 1 → D3 = 2/(2 + 4) = 1/3.
    // Bigram continuation counts: Sa 1 (SSa), ab 2 (Sab, bab), ba 1 (aba) → D2 = 2/(2 + 2) = 1/2.
    expect(model.discount(3)).toBeCloseTo(1 / 3, 15);
    expect(model.discount(2)).toBeCloseTo(1 / 2, 15);
    const p2aGivenS = (1 - 1 / 2) / 1 + (1 / 2) * p1a;
    const p2bGivenA = (2 - 1 / 2) / 2 + (1 / 2 / 2) * p1b; // raw count of ab is 3, its continuation count 2
    expect(model.byteProbability("", a)).toBeCloseTo((2 - 1 / 3) / 2 + (1 / 3 / 2) * p2aGivenS, 15);
    expect(model.byteProbability("a", b)).toBeCloseTo((2 - 1 / 3) / 2 + (1 / 3 / 2) * p2bGivenA, 15);
  });

  it("gives a proper distribution over the 256 bytes in every context, seen or not", () => {
    const tiny = new KneserNeyByteLm(["abab", "ab"], { order: 3 });
    for (const context of ["", "a", "ab", "ba", "zz", "é"]) expect(total(tiny, context)).toBeCloseTo(1, 12);
    const notes = new KneserNeyByteLm(
      noteSplit(loadMtsDialog(), "train")
        .slice(0, 200)
        .map((document) => document.target),
      { order: 8 },
    );
    for (const context of ["", "The patient ", "No known drug allerg", "Ca\u0301", "qqqqqqqqqq"])
      expect(total(notes, context)).toBeCloseTo(1, 10);
  });

  it("scores UTF-8 bytes: a two-byte character is two predictions", () => {
    // Order 1 on raw counts: "café" is 5 bytes, each seen once, so D1 = 1 and every byte gets 1/256.
    const model = new KneserNeyByteLm(["café"], { order: 1 });
    expect(model.byteProbability("", c)).toBeCloseTo(1 / 256, 15);
    expect(model.logLikelihood("é")).toBeCloseTo(2 * Math.log(1 / 256), 12);
    // Both bigrams (S 0xC3, 0xC3 0xA9) seen twice: no singletons, so D2 = 0.5 rather than 0, and a byte
    // never seen at the start keeps a probability.
    const bigrams = new KneserNeyByteLm(["é", "é"], { order: 2 });
    expect(bigrams.discount(2)).toBe(0.5);
    expect(bigrams.byteProbability("", a)).toBeGreaterThan(0);
    expect(total(bigrams, "")).toBeCloseTo(1, 12);
    expect(Number.isFinite(bigrams.logLikelihood("ée"))).toBe(true);
  });
});
