import { describe, expect, it } from "vitest";
import { aggregatePerplexity, countBytes, countWords, loglikelihoodItem } from "../../src/metrics/perplexity.ts";

describe("lm-eval perplexity metrics", () => {
  it("counts words as len(re.split(r'\\s+', text)), with Python's whitespace", () => {
    expect(countWords("The patient denies fever.")).toBe(4);
    expect(countWords("a  \n\tb")).toBe(2);
    // Leading and trailing whitespace split off empty strings, which count.
    expect(countWords(" a b ")).toBe(4);
    expect(countWords("")).toBe(1);
    expect(countWords("   ")).toBe(2);
    // Python's \s includes U+0085 and U+001C–U+001F; U+FEFF (BOM) is not whitespace.
    expect(countWords("a\u0085b\u001cc")).toBe(3);
    expect(countWords("a\ufeffb")).toBe(1);
  });

  it("counts UTF-8 bytes", () => {
    expect(countBytes("abc")).toBe(3);
    expect(countBytes("é")).toBe(2);
    expect(countBytes("🤒")).toBe(4);
  });

  it("weights by words and bytes as lm-eval's weighted_perplexity and bits_per_byte", () => {
    // "a b": 2 words, 3 bytes, ll −2; "cd": 1 word, 2 bytes, ll −4. Σll = −6, Σwords = 3, Σbytes = 5.
    const items = [loglikelihoodItem("a b", -2), loglikelihoodItem("cd", -4)];
    expect(items).toEqual([
      { logLikelihood: -2, words: 2, bytes: 3 },
      { logLikelihood: -4, words: 1, bytes: 2 },
    ]);
    const scores = aggregatePerplexity(items);
    expect(scores.samples).toBe(2);
    expect(scores.word_perplexity).toBeCloseTo(Math.exp(2), 12); // exp(6/3)
    expect(scores.byte_perplexity).toBeCloseTo(Math.exp(1.2), 12); // exp(6/5)
    expect(scores.bits_per_byte).toBeCloseTo(1.2 / Math.log(2), 12);
    // Not the mean of per-document perplexities: exp(2/2)=e and exp(4/1)=e^4 average to far more.
    expect(scores.word_perplexity).toBeLessThan((Math.exp(1) + Math.exp(4)) / 2);
  });

  it("has no value without documents", () => {
    const scores = aggregatePerplexity([]);
    expect(scores.samples).toBe(0);
    expect(Number.isNaN(scores.word_perplexity)).toBe(true);
  });
});
