/**
 * numpy's float64 summation (`np.add.reduce`, hence `np.sum`, `np.mean`, `np.nanmean`), reproduced so
 * that aggregated metrics match numpy bit for bit. numpy does not sum left to right: it uses pairwise
 * summation with 8 interleaved accumulators inside blocks of at most 128 elements
 * (`pairwise_sum_DOUBLE` in `loops_utils.h.src`); a plain loop differs in the last bits.
 */

const BLOCK_SIZE = 128;

function pairwise(values: ArrayLike<number>, start: number, n: number): number {
  if (n < 8) {
    // numpy starts this short loop from 0. (not -0.), so an all -0.0 input sums to +0.0 here too.
    let res = 0;
    for (let i = 0; i < n; i++) res += values[start + i] as number;
    return res;
  }
  if (n <= BLOCK_SIZE) {
    let r0 = values[start] as number;
    let r1 = values[start + 1] as number;
    let r2 = values[start + 2] as number;
    let r3 = values[start + 3] as number;
    let r4 = values[start + 4] as number;
    let r5 = values[start + 5] as number;
    let r6 = values[start + 6] as number;
    let r7 = values[start + 7] as number;
    const unrolled = n - (n % 8);
    let i = 8;
    for (; i < unrolled; i += 8) {
      const k = start + i;
      r0 += values[k] as number;
      r1 += values[k + 1] as number;
      r2 += values[k + 2] as number;
      r3 += values[k + 3] as number;
      r4 += values[k + 4] as number;
      r5 += values[k + 5] as number;
      r6 += values[k + 6] as number;
      r7 += values[k + 7] as number;
    }
    let res = r0 + r1 + (r2 + r3) + (r4 + r5 + (r6 + r7));
    for (; i < n; i++) res += values[start + i] as number;
    return res;
  }
  // Split in two halves whose first length is a multiple of the unroll factor.
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwise(values, start, n2) + pairwise(values, start + n2, n - n2);
}

/**
 * `np.sum(values)` for a contiguous float64 array: the reduction's identity 0.0 plus numpy's pairwise sum
 * of all elements. Returns 0 for an empty array.
 */
export function numpySum(values: ArrayLike<number>): number {
  return 0 + pairwise(values, 0, values.length);
}

/** `np.mean(values)`: `np.sum(values) / n`; NaN for an empty array (numpy warns and returns nan). */
export function numpyMean(values: ArrayLike<number>): number {
  return numpySum(values) / values.length;
}

/**
 * `np.nanmean(values)`: NaNs are replaced by 0 IN PLACE (so they still occupy positions in the pairwise
 * tree), the array is summed, and the sum is divided by the number of non-NaN values. NaN when every
 * value is NaN or the array is empty.
 */
export function numpyNanmean(values: ArrayLike<number>): number {
  const replaced = new Float64Array(values.length);
  let count = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (Number.isNaN(v)) {
      replaced[i] = 0;
    } else {
      replaced[i] = v;
      count++;
    }
  }
  return numpySum(replaced) / count;
}
