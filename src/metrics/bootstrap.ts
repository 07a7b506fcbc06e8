/**
 * Bootstrap confidence intervals of a mean, percentile method: the values are resampled with
 * replacement `resamples` times (default 1,000) by a seeded generator (mulberry32, default seed
 * 20240601), the mean of each resample is taken, and the interval is the 2.5th and 97.5th percentiles
 * of those means (for 95 %), interpolated linearly between order statistics as numpy's
 * `percentile(..., method="linear")` does. The same values give the same interval on every run and
 * every machine.
 */

/** A mean with its bootstrap interval; `n` values went in. */
export interface BootstrapInterval {
  readonly mean: number;
  readonly low: number;
  readonly high: number;
  readonly n: number;
}

/** How the interval is drawn. */
export interface BootstrapOptions {
  readonly resamples?: number;
  readonly seed?: number;
  /** The interval's coverage, e.g. 0.95. */
  readonly level?: number;
}

/** The resamples and seed every figure of the consultation suites uses. */
export const BOOTSTRAP_DEFAULTS = { resamples: 1000, seed: 20240601, level: 0.95 } as const;

/** mulberry32: a small, fast generator of uniform numbers in [0, 1) from a 32-bit seed. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** numpy's linear percentile of sorted values, `fraction` in [0, 1]. */
export function percentileOfSorted(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = fraction * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

/** The mean of the values and its bootstrap interval; an empty list gives NaN throughout. */
export function bootstrapMean(values: readonly number[], options: BootstrapOptions = {}): BootstrapInterval {
  const { resamples, seed, level } = { ...BOOTSTRAP_DEFAULTS, ...options };
  const n = values.length;
  if (n === 0) return { mean: Number.NaN, low: Number.NaN, high: Number.NaN, n };
  const mean = values.reduce((sum, value) => sum + value, 0) / n;
  const random = mulberry32(seed);
  const means = new Float64Array(resamples);
  for (let resample = 0; resample < resamples; resample += 1) {
    let sum = 0;
    for (let draw = 0; draw < n; draw += 1) sum += values[Math.floor(random() * n)]!;
    means[resample] = sum / n;
  }
  const sorted = [...means].sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return { mean, low: percentileOfSorted(sorted, tail), high: percentileOfSorted(sorted, 1 - tail), n };
}
