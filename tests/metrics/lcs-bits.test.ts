import { describe, expect, it } from "vitest";
import { lcsLengthBits, lcsReferenceIndicesBits } from "../../src/metrics/lcs-bits.ts";
import { lcsLength, lcsReferenceIndices } from "../../src/metrics/rouge.ts";
import { seededRandom } from "../../test-support/random.ts";

/** A random token-id sequence over a small vocabulary (so that matches and ties are frequent). */
function sequence(random: () => number, length: number, vocabulary: number): Int32Array {
  return Int32Array.from({ length }, () => Math.floor(random() * vocabulary));
}

describe("bit-parallel LCS (the table rouge_score fills, 32 cells per step)", () => {
  it("gives the plain table's LCS length, across word boundaries and on empty sides", () => {
    const random = seededRandom(21);
    for (let trial = 0; trial < 400; trial++) {
      const vocabulary = 2 + Math.floor(random() * 12);
      const a = sequence(random, Math.floor(random() * 140), vocabulary);
      const b = sequence(random, Math.floor(random() * 140), vocabulary);
      expect(lcsLengthBits(a, b, vocabulary), `trial ${trial}`).toBe(lcsLength(a, b));
    }
  });

  it("reads back the same LCS as _backtrack_norec (ties move up), including lines longer than a word", () => {
    const random = seededRandom(7);
    for (let trial = 0; trial < 400; trial++) {
      const vocabulary = 2 + Math.floor(random() * 8);
      const ref = sequence(random, Math.floor(random() * 80), vocabulary);
      const can = sequence(random, Math.floor(random() * 80), vocabulary);
      expect(lcsReferenceIndicesBits(ref, can, vocabulary), `trial ${trial}`).toEqual(lcsReferenceIndices(ref, can));
    }
  });

  it("keeps the tie-break of the plain table on the smallest tie", () => {
    // LCS("alpha beta", "beta alpha") is either token; moving up on the tie keeps alpha (index 0).
    expect(lcsReferenceIndicesBits(Int32Array.from([0, 1]), Int32Array.from([1, 0]), 2)).toEqual([0]);
    expect(lcsReferenceIndicesBits(Int32Array.from([0, 1]), Int32Array.from([2, 3]), 4)).toEqual([]);
  });
});
