import { describe, expect, it } from "vitest";
import { numpyMean, numpyNanmean, numpySum } from "../../src/metrics/numpy-sum.ts";

const SCALES = [1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3];

/** Mixed-magnitude values built only from correctly rounded operations, so Python and JS agree on the inputs. */
function values(n: number): number[] {
  return Array.from({ length: n }, (_, i) => ((((i * 7919) % 1001) - 500) / 7) * (SCALES[i % 7] as number));
}

function withNaNs(xs: readonly number[]): number[] {
  return xs.map((x, i) => (i % 3 === 0 ? NaN : x));
}

// [n, np.sum(a), np.mean(a), np.nanmean(a with a[::3] = nan)] from numpy (float64), for values(n).
const NUMPY: ReadonlyArray<readonly [number, number, number, number]> = [
  [5, 245.70285714285717, 49.140571428571434, 70.78190476190477],
  [8, -3668.600285714286, -458.5750357142858, 202.46565714285714],
  [16, 51074.37342857142, 3192.148339285714, 4955.934914285714],
  [43, 66065.41042857143, 1536.4048936877077, 2018.2143061224488],
  [128, 179467.93171428575, 1402.0932165178574, 834.4887210084033],
  [129, 179469.64599999995, 1391.2375658914725, 824.8052973421928],
  [1000, 99225.92014285695, 99.22592014285695, -145.54463256113257],
  [10007, 468763.48714285565, 46.843558223529094, 21.956219221791414],
];

describe("numpy pairwise summation", () => {
  it.each(NUMPY)("n = %i: sum, mean and nanmean equal numpy bit for bit", (n, sum, mean, nanmean) => {
    const xs = values(n);
    expect(numpySum(xs)).toBe(sum);
    expect(numpyMean(xs)).toBe(mean);
    expect(numpyNanmean(withNaNs(xs))).toBe(nanmean);
    expect(numpySum(Float64Array.from(xs))).toBe(sum);
  });

  it("differs from a left-to-right loop where numpy does (so the test can tell them apart)", () => {
    const differing = NUMPY.filter(([n, sum]) => values(n).reduce((s, x) => s + x, 0) !== sum).map(([n]) => n);
    expect(differing.length).toBeGreaterThanOrEqual(4);
  });

  it("keeps NaN positions in the pairwise tree instead of dropping them", () => {
    // Dropping the NaNs changes the grouping; numpy zero-fills in place. numpyNanmean matches numpy on
    // every case above, and dropping would not.
    const differing = NUMPY.filter(([n, , , nanmean]) => {
      const dropped = withNaNs(values(n)).filter((x) => !Number.isNaN(x));
      return numpySum(dropped) / dropped.length !== nanmean;
    });
    expect(differing.length).toBeGreaterThanOrEqual(1);
  });

  it("returns NaN for empty and all-NaN input, like numpy", () => {
    expect(numpyMean([])).toBeNaN();
    expect(numpyNanmean([])).toBeNaN();
    expect(numpyNanmean([NaN, NaN])).toBeNaN();
    expect(numpySum([])).toBe(0);
  });
});
