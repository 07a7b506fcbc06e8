/**
 * sacrebleu 2.x BLEU (`sacrebleu/metrics/bleu.py`) with its default 13a tokenisation and case
 * sensitivity: `sentence_bleu` (exp smoothing, effective order on) and `corpus_bleu` (exp smoothing,
 * effective order off). Scores are on the 0–100 scale.
 */
import { poolSegmentStats, segmentStats, type SegmentStats } from "./ngrams.ts";
import { tokenize13aSacrebleu } from "./tokenize-13a.ts";
import { pyExp, pyLog } from "./python-math.ts";

/** The fields of sacrebleu's `BLEUScore` that describe the result. */
export interface SacrebleuScore {
  score: number;
  counts: number[];
  totals: number[];
  precisions: number[];
  bp: number;
  sys_len: number;
  ref_len: number;
}

/** Smoothing methods supported here: sacrebleu's default `exp` (NIST geometric) and `none`. */
export type SacrebleuSmoothing = "exp" | "none";

const MAX_ORDER = 4;

/** sacrebleu `my_log`: log with 0 floored to -9999999999 instead of -Infinity. */
function myLog(x: number): number {
  return x === 0 ? -9999999999 : pyLog(x);
}

/**
 * sacrebleu `BLEU.compute_bleu` from sufficient statistics (per-order correct/total counts and the
 * system/reference lengths), keeping its operation order and using correctly rounded exp/log (as CPython
 * on glibc does) so that results match bit for bit.
 */
export function sacrebleuComputeBleu(
  correct: readonly number[],
  total: readonly number[],
  sysLen: number,
  refLen: number,
  smoothMethod: SacrebleuSmoothing,
  effectiveOrder: boolean,
): SacrebleuScore {
  let bp = 1.0;
  if (sysLen < refLen) bp = sysLen > 0 ? pyExp(1 - refLen / sysLen) : 0.0;
  const precisions = new Array<number>(MAX_ORDER).fill(0);
  const result = (score: number): SacrebleuScore => ({
    score,
    counts: [...correct],
    totals: [...total],
    precisions,
    bp,
    sys_len: sysLen,
    ref_len: refLen,
  });

  // sacrebleu #141: with no match at all the score is 0 and the precisions stay 0.
  if (!correct.some((c) => c !== 0)) return result(0.0);

  let smoothMteval = 1.0;
  let effOrder = MAX_ORDER;
  for (let n = 1; n <= MAX_ORDER; n++) {
    const t = total[n - 1] as number;
    const c = correct[n - 1] as number;
    if (t === 0) break;
    if (effectiveOrder) effOrder = n;
    if (c === 0) {
      if (smoothMethod === "exp") {
        smoothMteval *= 2;
        precisions[n - 1] = 100 / (smoothMteval * t);
      }
    } else {
      precisions[n - 1] = (100 * c) / t;
    }
  }
  let logSum = 0;
  for (let i = 0; i < effOrder; i++) logSum += myLog(precisions[i] as number);
  return result(bp * pyExp(logSum / effOrder));
}

/**
 * sacrebleu `sentence_bleu` defaults (exp smoothing, effective order) from one segment's statistics.
 * The tokens must come from {@link tokenize13aSacrebleu} (sacrebleu right-strips before 13a).
 */
export function sacrebleuSentenceFromStats(segment: SegmentStats): SacrebleuScore {
  const s = poolSegmentStats([segment], MAX_ORDER);
  return sacrebleuComputeBleu(s.matches, s.ngrams, s.hypothesisLength, s.closestReferenceLength, "exp", true);
}

/** sacrebleu `corpus_bleu` defaults (exp smoothing, no effective order) from per-segment statistics. */
export function sacrebleuCorpusFromStats(segments: readonly SegmentStats[]): SacrebleuScore {
  const s = poolSegmentStats(segments, MAX_ORDER);
  return sacrebleuComputeBleu(s.matches, s.ngrams, s.hypothesisLength, s.closestReferenceLength, "exp", false);
}

function sacrebleuSegment(hypothesis: string, references: readonly string[]): SegmentStats {
  return segmentStats(tokenize13aSacrebleu(hypothesis), references.map(tokenize13aSacrebleu), MAX_ORDER);
}

/** `sacrebleu.sentence_bleu(hypothesis, references)` with default arguments. */
export function sacrebleuSentenceBleu(hypothesis: string, references: readonly string[]): SacrebleuScore {
  return sacrebleuSentenceFromStats(sacrebleuSegment(hypothesis, references));
}

/**
 * `sacrebleu.corpus_bleu(hypotheses, references)` with default arguments. As in sacrebleu, `references`
 * is a list of reference STREAMS, each parallel to `hypotheses` (one reference each: `[refs]`).
 */
export function sacrebleuCorpusBleu(
  hypotheses: readonly string[],
  references: readonly (readonly string[])[],
): SacrebleuScore {
  for (const stream of references) {
    if (stream.length !== hypotheses.length) throw new RangeError("each reference stream must parallel the hypotheses");
  }
  return sacrebleuCorpusFromStats(
    hypotheses.map((h, i) =>
      sacrebleuSegment(
        h,
        references.map((stream) => stream[i] as string),
      ),
    ),
  );
}
