import { describe, expect, it } from "vitest";
import { BLEU2_WEIGHTS, fsum, nltkCorpusBleu, nltkSentenceBleu, PY_FLOAT_MIN } from "../../src/metrics/bleu-nltk.ts";
import { seededRandom } from "../../test-support/random.ts";

/** An independent oracle for fsum: the exact sum in BigInt units of 2^-1074, rounded half-even once. */
function exactlyRoundedSum(values: readonly number[]): number {
  const view = new DataView(new ArrayBuffer(8));
  let total = 0n;
  for (const value of values) {
    view.setFloat64(0, value);
    const bits = view.getBigUint64(0);
    const exponent = Number((bits >> 52n) & 0x7ffn);
    const fraction = bits & ((1n << 52n) - 1n);
    const units = exponent === 0 ? fraction : (fraction | (1n << 52n)) << BigInt(exponent - 1);
    total += bits >> 63n ? -units : units;
  }
  if (total === 0n) return 0;
  const negative = total < 0n;
  const magnitude = negative ? -total : total;
  const bitLength = magnitude.toString(2).length;
  let mantissa = magnitude;
  let shift = 0;
  if (bitLength > 53) {
    shift = bitLength - 53;
    const quotient = magnitude >> BigInt(shift);
    const remainder = magnitude - (quotient << BigInt(shift));
    const half = 1n << BigInt(shift - 1);
    mantissa = remainder > half || (remainder === half && (quotient & 1n) === 1n) ? quotient + 1n : quotient;
  }
  const result = Number(mantissa) * 2 ** (shift - 1074); // exact: power-of-two scaling of ≤ 53 bits
  return negative ? -result : result;
}

describe("fsum (Python math.fsum)", () => {
  // Cases and results of CPython's test_math.testFsum.
  it.each([
    [[], 0],
    [[0.0], 0],
    [[1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50], 1e-100],
    [[2 ** 53, -0.5, -(2 ** -54)], 2 ** 53 - 1],
    [[2 ** 53, 1.0, 2 ** -100], 2 ** 53 + 2],
    [[2 ** 53 + 10, 1.0, 2 ** -100], 2 ** 53 + 12],
    [[2 ** 53 - 4, 0.5, 2 ** -54], 2 ** 53 - 3],
    [[1e16, 1, 1e-16], 10000000000000002.0],
    [[1e16 - 2, 1 - 2 ** -53, -(1e16 - 2), -(1 - 2 ** -53)], 0],
    [Array.from({ length: 10 }, () => 0.1), 1.0],
  ])("fsum(%j) = %d", (values, expected) => {
    expect(fsum(values)).toBe(expected);
  });

  it("matches CPython on the harmonic and alternating series and the partials-resizing case", () => {
    expect(fsum(Array.from({ length: 1000 }, (_, i) => 1 / (i + 1)))).toBe(0x1df11f45f4e61a / 2 ** 50);
    expect(fsum(Array.from({ length: 1000 }, (_, i) => (i % 2 === 0 ? -1 : 1) / (i + 1)))).toBe(
      -0x162a2af1bd3624 / 2 ** 53,
    );
    const values: number[] = [];
    for (let n = -1074; n < 972; n += 2) values.push(2 ** n - 2 ** (n + 50) + 2 ** (n + 52));
    values.push(-(2 ** 1022));
    expect(fsum(values)).toBe(0x15555555555555 * 2 ** 918);
  });

  it("is correctly rounded on random cancelling sums (BigInt oracle)", () => {
    const random = seededRandom(20240601);
    for (let trial = 0; trial < 2000; trial++) {
      const values: number[] = [];
      const n = 1 + Math.floor(random() * 30);
      for (let i = 0; i < n; i++) {
        const x = (random() - 0.5) * 2 ** Math.floor(random() * 120 - 60);
        values.push(x);
        if (random() < 0.3) values.push(-x * (1 + 2 ** -52 * Math.floor(random() * 4)));
      }
      expect(fsum(values)).toBe(exactlyRoundedSum(values));
    }
  });

  it("differs from naive summation where rounding errors accumulate", () => {
    const values = Array.from({ length: 10 }, () => 0.1);
    expect(values.reduce((s, x) => s + x, 0)).toBe(0.9999999999999999);
    expect(fsum(values)).toBe(1);
  });

  it("propagates infinities and NaN and rejects overflow and inf - inf like CPython", () => {
    expect(fsum([1, Infinity, 2])).toBe(Infinity);
    expect(fsum([1, NaN])).toBeNaN();
    expect(() => fsum([Infinity, -Infinity])).toThrow(/-inf \+ inf/);
    expect(() => fsum([1.7e308, 1.7e308])).toThrow(/overflow/);
  });
});

describe("nltk corpus_bleu / sentence_bleu without smoothing", () => {
  it("returns exactly 0 when no unigram matches", () => {
    expect(Object.is(nltkSentenceBleu([["thank", "you"]], ["blood", "pressure"]), 0)).toBe(true);
    expect(nltkCorpusBleu([], [])).toBe(0);
  });

  it("replaces missing higher-order matches by sys.float_info.min instead of returning 0", () => {
    // One matching unigram, no bigram: exp(0.5 log 1 + 0.5 log(float_info.min)), the value nltk 3.8 gives.
    expect(nltkSentenceBleu([["no"]], ["no"], BLEU2_WEIGHTS)).toBe(1.491668146240062e-154);
    expect(Math.log(PY_FLOAT_MIN)).toBe(-708.3964185322641); // log(sys.float_info.min) in CPython
    expect(nltkSentenceBleu([["no"]], ["no"])).toBeGreaterThan(0);
    expect(nltkSentenceBleu([["no"]], ["no"])).toBeLessThan(1e-200);
  });

  it("pools counts over the corpus instead of averaging sentence scores", () => {
    const refs = [[["the", "cat", "sat", "down"]], [["a", "dog", "barked", "loudly"]]];
    const hyps = [
      ["the", "cat", "sat", "down"],
      ["a", "dog", "slept", "quietly"],
    ];
    // Pooled: unigrams 6/8, bigrams 4/6, trigrams 2/4, 4-grams 1/2; equal lengths so BP = 1.
    const expected = Math.exp(
      fsum([0.25 * Math.log(6 / 8), 0.25 * Math.log(4 / 6), 0.25 * Math.log(2 / 4), 0.25 * Math.log(1 / 2)]),
    );
    expect(nltkCorpusBleu(refs, hyps)).toBe(expected);
  });

  it("uses the closest reference length, ties to the shorter one", () => {
    const hyp = ["a", "b", "c", "d", "e"];
    // References of length 4 and 6 are equally close; the shorter one (4) gives BP = 1 (5 > 4).
    expect(
      nltkSentenceBleu(
        [
          ["a", "b", "c", "d", "e", "f"],
          ["a", "b", "c", "d"],
        ],
        hyp,
      ),
    ).toBe(1);
  });
});
