import { describe, expect, it } from "vitest";
import { bootstrapMean, mulberry32, percentileOfSorted } from "../../src/metrics/bootstrap.ts";

/** The consultation suites' bootstrap intervals, on data whose interval is known. */

describe("bootstrap intervals of a mean (src/metrics/bootstrap.ts)", () => {
  it("takes percentiles as numpy's linear method does", () => {
    // numpy.percentile([1, 2, 3, 4], [2.5, 50, 97.5]) → [1.075, 2.5, 3.925]
    expect(percentileOfSorted([1, 2, 3, 4], 0.025)).toBeCloseTo(1.075, 12);
    expect(percentileOfSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentileOfSorted([1, 2, 3, 4], 0.975)).toBeCloseTo(3.925, 12);
    expect(percentileOfSorted([7], 0.3)).toBe(7);
  });

  it("collapses to the value when every value is the same", () => {
    expect(bootstrapMean([0.4, 0.4, 0.4, 0.4])).toEqual({ mean: 0.4, low: 0.4, high: 0.4, n: 4 });
  });

  it("spans 0 to 1 for the two values 0 and 1, whose resampled means are 0, ½ and 1 with chances ¼, ½, ¼", () => {
    const interval = bootstrapMean([0, 1]);
    expect(interval).toEqual({ mean: 0.5, low: 0, high: 1, n: 2 });
  });

  it("agrees with the normal approximation for a proportion of 60 in 200", () => {
    const values = Array.from({ length: 200 }, (_, index) => (index < 60 ? 1 : 0));
    const { mean, low, high } = bootstrapMean(values, { resamples: 4000 });
    const standardError = Math.sqrt((0.3 * 0.7) / 200);
    expect(mean).toBe(0.3);
    expect(Math.abs(low - (0.3 - 1.96 * standardError))).toBeLessThan(0.01);
    expect(Math.abs(high - (0.3 + 1.96 * standardError))).toBeLessThan(0.01);
  });

  it("is the same on every run for a seed, and moves only a little with another seed", () => {
    const values = Array.from({ length: 50 }, (_, index) => (index * 7919) % 13);
    expect(bootstrapMean(values)).toEqual(bootstrapMean(values));
    const other = bootstrapMean(values, { seed: 7 });
    expect(other).not.toEqual(bootstrapMean(values));
    expect(Math.abs(other.low - bootstrapMean(values).low)).toBeLessThan(0.3);
  });

  it("gives NaN for no values, and draws uniform numbers in [0, 1)", () => {
    const empty = bootstrapMean([]);
    expect([empty.mean, empty.low, empty.high, empty.n]).toEqual([NaN, NaN, NaN, 0]);
    const random = mulberry32(1);
    const draws = Array.from({ length: 10_000 }, random);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    expect(draws.reduce((sum, draw) => sum + draw, 0) / draws.length).toBeCloseTo(0.5, 1);
  });
});
