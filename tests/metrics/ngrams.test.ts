import { describe, expect, it } from "vitest";
import {
  clippedNgramMatches,
  closestReferenceLength,
  internTokens,
  poolSegmentStats,
  segmentStats,
} from "../../src/metrics/ngrams.ts";
import { seededRandom } from "../../test-support/random.ts";

/** Straight from the definition: Σ over hypothesis n-grams of min(count, max count in any reference). */
function naiveClipped(hyp: readonly string[], refs: readonly (readonly string[])[], order: number): number {
  const count = (tokens: readonly string[]) => {
    const counts = new Map<string, number>();
    for (let i = 0; i + order <= tokens.length; i++) {
      const key = JSON.stringify(tokens.slice(i, i + order));
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  };
  const refCounts = refs.map(count);
  let total = 0;
  for (const [key, n] of count(hyp)) total += Math.min(n, Math.max(0, ...refCounts.map((c) => c.get(key) ?? 0)));
  return total;
}

describe("clipped n-gram matches", () => {
  it("agree with the definition on random token lists, one or several references", () => {
    const random = seededRandom(7);
    const words = ["a", "b", "c", "d", "e", "the", "pain", "a b"];
    const sentence = () =>
      Array.from({ length: Math.floor(random() * 25) }, () => words[Math.floor(random() * words.length)]!);
    for (let trial = 0; trial < 500; trial++) {
      const hyp = sentence();
      const refs = Array.from({ length: 1 + Math.floor(random() * 3) }, sentence);
      const expected = [1, 2, 3, 4].map((order) => naiveClipped(hyp, refs, order));
      expect(clippedNgramMatches(internTokens(hyp, refs), 4)).toEqual(expected);
    }
  });

  it("stay exact when the vocabulary is too large for numeric 4-gram keys", () => {
    const hyp = Array.from({ length: 10000 }, (_, i) => `w${i}`);
    const ref = Array.from({ length: 10000 }, (_, i) => `w${i % 3 === 0 ? i : i + 1}`);
    const interned = internTokens(hyp, [ref]);
    expect(interned.vocabularySize ** 4).toBeGreaterThan(Number.MAX_SAFE_INTEGER);
    expect(clippedNgramMatches(interned, 4)).toEqual([1, 2, 3, 4].map((order) => naiveClipped(hyp, [ref], order)));
  });
});

describe("segment statistics", () => {
  it("pools lengths and counts the way each BLEU needs them", () => {
    const pooled = poolSegmentStats(
      [
        segmentStats(
          ["a", "b", "c"],
          [
            ["a", "b"],
            ["a", "b", "c", "d"],
          ],
          4,
        ),
        segmentStats([], [["x"]], 4),
      ],
      4,
    );
    expect(pooled.matches).toEqual([3, 2, 1, 0]);
    expect(pooled.ngrams).toEqual([3, 2, 1, 0]);
    expect(pooled.ngramsAtLeastOne).toEqual([3 + 1, 2 + 1, 1 + 1, 1 + 1]);
    expect(pooled.hypothesisLength).toBe(3);
    expect(pooled.shortestReferenceLength).toBe(2 + 1);
    expect(pooled.closestReferenceLength).toBe(2 + 1); // |3-2| = |3-4|: the shorter wins
  });

  it("picks the closest reference length with ties to the shorter one", () => {
    expect(closestReferenceLength(5, [4, 6])).toBe(4);
    expect(closestReferenceLength(5, [6, 4])).toBe(4);
    expect(closestReferenceLength(5, [2, 6])).toBe(6);
  });

  it("rejects a segment without references", () => {
    expect(() => poolSegmentStats([segmentStats(["a"], [], 4)], 4)).toThrow(RangeError);
  });
});
