/**
 * Hugging Face evaluate's "bleu" metric: 13a tokenisation, then tensorflow/nmt `compute_bleu` with
 * `max_order=4`, `smooth=False`. Brevity penalty uses the SHORTEST reference, precisions are pooled
 * over the corpus, and there is no smoothing, so any segment set with no 4-gram match scores 0.
 */
import { poolSegmentStats, segmentStats, type SegmentStats } from "./ngrams.ts";
import { tokenize13a } from "./tokenize-13a.ts";
import { pyExp, pyLog } from "./python-math.ts";

/** Python's `ZeroDivisionError`, which the reference raises when a length is zero. */
export class ZeroDivisionError extends Error {
  constructor(message = "float division by zero") {
    super(message);
    this.name = "ZeroDivisionError";
  }
}

/** The dictionary HF evaluate's `bleu.compute` returns. */
export interface HfBleuResult {
  bleu: number;
  precisions: number[];
  brevity_penalty: number;
  length_ratio: number;
  translation_length: number;
  reference_length: number;
}

const MAX_ORDER = 4;

/**
 * tensorflow/nmt `compute_bleu(max_order=4, smooth=False)` over already-computed segment statistics
 * (13a tokens, clipped matches of orders 1–4).
 *
 * @throws {ZeroDivisionError} when the summed reference length is 0 (every reference empty) or the summed
 *   translation length is 0, exactly where the Python code divides by zero. lm-eval turns this into NaN.
 */
export function hfBleuFromStats(segments: readonly SegmentStats[]): HfBleuResult {
  const pooled = poolSegmentStats(segments, MAX_ORDER);
  const referenceLength = pooled.shortestReferenceLength;
  const translationLength = pooled.hypothesisLength;
  const precisions = pooled.matches.map((m, i) => {
    const possible = pooled.ngrams[i] as number;
    return possible > 0 ? m / possible : 0;
  });
  let geoMean = 0;
  if (Math.min(...precisions) > 0) {
    // Python's sum(): left to right from 0, each term (1/max_order) * log(p).
    let logSum = 0;
    for (const p of precisions) logSum += (1 / MAX_ORDER) * pyLog(p);
    geoMean = pyExp(logSum);
  }

  if (referenceLength === 0) throw new ZeroDivisionError();
  const ratio = translationLength / referenceLength;
  let bp: number;
  if (ratio > 1) {
    bp = 1;
  } else {
    if (ratio === 0) throw new ZeroDivisionError();
    bp = pyExp(1 - 1 / ratio);
  }
  return {
    bleu: geoMean * bp,
    precisions,
    brevity_penalty: bp,
    length_ratio: ratio,
    translation_length: translationLength,
    reference_length: referenceLength,
  };
}

/**
 * HF evaluate `bleu.compute(predictions, references)` with its defaults. A reference entry may be one
 * string or a list of strings (several references for that prediction).
 *
 * @throws {ZeroDivisionError} see {@link hfBleuFromStats}.
 */
export function hfBleu(
  predictions: readonly string[],
  references: readonly (string | readonly string[])[],
): HfBleuResult {
  if (predictions.length !== references.length) throw new RangeError("predictions and references differ in length");
  const segments = predictions.map((prediction, i) => {
    const refs = references[i] as string | readonly string[];
    const refList = typeof refs === "string" ? [refs] : refs;
    return segmentStats(tokenize13a(prediction), refList.map(tokenize13a), MAX_ORDER);
  });
  return hfBleuFromStats(segments);
}
