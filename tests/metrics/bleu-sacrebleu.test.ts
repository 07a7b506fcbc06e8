import { describe, expect, it } from "vitest";
import { sacrebleuComputeBleu, sacrebleuCorpusBleu, sacrebleuSentenceBleu } from "../../src/metrics/bleu-sacrebleu.ts";

describe("sacrebleu BLEU", () => {
  it("sentence_bleu smooths missing orders with exp smoothing and uses the effective order", () => {
    // "Yes ." against itself: 2 unigrams, 1 bigram, no trigram: effective order 2.
    const result = sacrebleuSentenceBleu("Yes.", ["Yes."]);
    expect(result.counts).toEqual([2, 1, 0, 0]);
    expect(result.totals).toEqual([2, 1, 0, 0]);
    expect(result.precisions).toEqual([100, 100, 0, 0]);
    expect(result.score).toBe(Math.exp((Math.log(100) + Math.log(100)) / 2));
  });

  it("halves the smoothed precision for each further order without matches", () => {
    // Unigrams match, no higher order matches: 100/(2*3), 100/(4*2), 100/(8*1).
    const result = sacrebleuSentenceBleu("a b c d", ["a x b y c z d"]);
    expect(result.precisions).toEqual([100, 100 / (2 * 3), 100 / (4 * 2), 100 / (8 * 1)]);
  });

  it("returns 0 with zero precisions when nothing matches", () => {
    const result = sacrebleuSentenceBleu("Thank you", ["Blood pressure"]);
    expect(result.score).toBe(0);
    expect(result.precisions).toEqual([0, 0, 0, 0]);
  });

  it("uses the closest reference length with ties going to the shorter one", () => {
    expect(sacrebleuSentenceBleu("a b c d e", ["a b c d", "a b c d e f"]).ref_len).toBe(4);
    expect(sacrebleuSentenceBleu("a b c d e", ["a b", "a b c d e f"]).ref_len).toBe(6);
  });

  it("right-strips segments before tokenising (unlike HF evaluate)", () => {
    expect(sacrebleuSentenceBleu("follow-\n", ["follow-"]).score).toBe(
      sacrebleuSentenceBleu("follow-", ["follow-"]).score,
    );
    expect(sacrebleuSentenceBleu("follow-\n", ["follow-"]).counts[0]).toBe(1);
  });

  it("corpus_bleu has no effective order: an order with no n-grams at all floors the score", () => {
    // Three tokens: no 4-grams anywhere, so precisions[3] stays 0 and my_log(0) = -9999999999.
    expect(sacrebleuCorpusBleu(["a b c"], [["a b c"]]).score).toBe(0);
    expect(sacrebleuComputeBleu([3, 2, 1, 0], [3, 2, 1, 0], 3, 3, "exp", true).score).toBe(100.00000000000004);
  });

  it("takes reference streams parallel to the hypotheses", () => {
    expect(() => sacrebleuCorpusBleu(["a", "b"], [["a"]])).toThrow(RangeError);
  });
});
