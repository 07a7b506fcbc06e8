/**
 * nltk 3.8 `nltk.translate.bleu_score.corpus_bleu` / `sentence_bleu` with no smoothing function (so
 * `SmoothingFunction().method0`) and `auto_reweigh=False`, as MediTOD's NLG scorer calls them.
 *
 * Two behaviours callers must expect: the result is exactly 0 when no unigram matches at all (nltk
 * returns the int 0), and otherwise any order without matches is replaced by `sys.float_info.min`, so
 * the score is tiny but NOT zero (e.g. 1.49e-154 for a one-word exact match with BLEU-2 weights).
 */
import { poolSegmentStats, segmentStats, type SegmentStats } from "./ngrams.ts";
import { pyExp, pyLog } from "./python-math.ts";

/** Python's `sys.float_info.min` (smallest normal double), which method0 substitutes for zero precisions. */
export const PY_FLOAT_MIN = 2.2250738585072014e-308;

/** BLEU-4 weights, nltk's default. */
export const BLEU4_WEIGHTS: readonly number[] = [0.25, 0.25, 0.25, 0.25];
/** BLEU-2 weights as MediTOD passes them. */
export const BLEU2_WEIGHTS: readonly number[] = [0.5, 0.5];

/**
 * Python's `math.fsum`: the correctly rounded sum of the values, using Shewchuk's non-overlapping
 * partials and CPython's final half-even correction across partials (`mathmodule.c` `math_fsum`).
 *
 * @throws {RangeError} on intermediate overflow of finite values, or on `-inf + inf` (Python raises
 *   OverflowError / ValueError there).
 */
export function fsum(values: Iterable<number>): number {
  const partials: number[] = [];
  let specialSum = 0;
  let infSum = 0;
  for (const value of values) {
    let x = value;
    let kept = 0;
    for (let j = 0; j < partials.length; j++) {
      let y = partials[j] as number;
      if (Math.abs(x) < Math.abs(y)) {
        const t = x;
        x = y;
        y = t;
      }
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[kept++] = lo;
      x = hi;
    }
    partials.length = kept;
    if (x !== 0) {
      if (!Number.isFinite(x)) {
        // Non-finite sums come either from overflow of finite inputs or from inf/nan inputs.
        if (Number.isFinite(value)) throw new RangeError("intermediate overflow in fsum");
        if (value === Infinity || value === -Infinity) infSum += value;
        specialSum += value;
        partials.length = 0;
      } else {
        partials.push(x);
      }
    }
  }

  if (specialSum !== 0) {
    if (Number.isNaN(infSum)) throw new RangeError("-inf + inf in fsum");
    return specialSum;
  }

  let n = partials.length;
  if (n === 0) return 0;
  let hi = partials[--n] as number;
  let lo = 0;
  // Add the partials from the top while the running sum stays exact.
  while (n > 0) {
    const x = hi;
    const y = partials[--n] as number;
    hi = x + y;
    lo = y - (hi - x);
    if (lo !== 0) break;
  }
  // Half-even rounding across partials: if the discarded remainder and the next partial have the same
  // sign, the true sum lies beyond the halfway point, so round away from hi when that is representable.
  if (n > 0 && ((lo < 0 && (partials[n - 1] as number) < 0) || (lo > 0 && (partials[n - 1] as number) > 0))) {
    const y = lo * 2;
    const x = hi + y;
    if (y === x - hi) hi = x;
  }
  return hi;
}

/**
 * nltk `corpus_bleu` from per-segment statistics (tokens already split, clipped matches for at least
 * `weights.length` orders). Numerators and denominators are pooled as integers, like nltk's
 * un-normalised Fractions, and only divided when the logarithm is taken.
 */
export function nltkBleuFromStats(
  segments: readonly SegmentStats[],
  weights: readonly number[] = BLEU4_WEIGHTS,
): number {
  const pooled = poolSegmentStats(segments, weights.length);
  const numerators = pooled.matches;
  // modified_precision: each segment's denominator is max(1, number of hypothesis n-grams).
  const denominators = pooled.ngramsAtLeastOne;
  const hypLengths = pooled.hypothesisLength;
  const refLengths = pooled.closestReferenceLength;

  // nltk returns the int 0 before any smoothing when no unigram matches.
  if (numerators[0] === 0) return 0;

  let bp: number;
  if (hypLengths > refLengths) bp = 1;
  else if (hypLengths === 0) bp = 0;
  else bp = pyExp(1 - refLengths / hypLengths);

  // method0: an order without matches contributes log(sys.float_info.min) instead of log(0).
  const terms = numerators.map((num, i) => {
    const p = num !== 0 ? num / (denominators[i] as number) : PY_FLOAT_MIN;
    return (weights[i] as number) * pyLog(p);
  });
  return bp * pyExp(fsum(terms));
}

/**
 * nltk `corpus_bleu(list_of_references, hypotheses, weights)` without smoothing.
 * @param listOfReferences for each hypothesis, its list of tokenised references.
 */
export function nltkCorpusBleu(
  listOfReferences: readonly (readonly (readonly string[])[])[],
  hypotheses: readonly (readonly string[])[],
  weights: readonly number[] = BLEU4_WEIGHTS,
): number {
  if (listOfReferences.length !== hypotheses.length) {
    throw new RangeError("The number of hypotheses and their reference(s) should be the same");
  }
  const segments = hypotheses.map((hyp, i) => segmentStats(hyp, listOfReferences[i] ?? [], weights.length));
  return nltkBleuFromStats(segments, weights);
}

/** nltk `sentence_bleu(references, hypothesis, weights)` = `corpus_bleu([references], [hypothesis], weights)`. */
export function nltkSentenceBleu(
  references: readonly (readonly string[])[],
  hypothesis: readonly string[],
  weights: readonly number[] = BLEU4_WEIGHTS,
): number {
  return nltkCorpusBleu([references], [hypothesis], weights);
}
