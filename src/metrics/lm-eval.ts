/**
 * lm-evaluation-harness `mts_dialog` and `medtext` tasks: `process_results` of their `utils.py` (HF
 * evaluate bleu + rouge per document) and the `nanmean` aggregation of `lm_eval/api/metrics.py`.
 * bleurt and bert_score are not computed (they need model weights that are not bundled).
 *
 * The gate and exception paths return NaN as lm-eval does with numpy < 2; under numpy ≥ 2 those paths
 * raise AttributeError instead, because the code uses the removed `np.NAN` alias (an upstream quirk).
 */
import { hfBleuFromStats, type HfBleuResult } from "./bleu-hf.ts";
import { segmentStats, type SegmentStats } from "./ngrams.ts";
import { numpyNanmean } from "./numpy-sum.ts";
import { pyLen } from "./python-text.ts";
import { rougeScoresFromTexts, rougeText, type RougeScores } from "./rouge.ts";
import { tokenize13a } from "./tokenize-13a.ts";

/** The two lm-eval tasks; they differ only in the target field and the length gate. */
export type LmEvalTask = "mts_dialog" | "medtext";

/** Documents whose prediction or target is shorter than this (in code points) score NaN everywhere. */
export const LM_EVAL_MIN_LENGTH: Readonly<Record<LmEvalTask, number>> = { mts_dialog: 5, medtext: 1 };

/** Per-document metrics; NaN where lm-eval returns `np.nan`. */
export interface LmEvalDocResult {
  bleu: number;
  rouge1: number;
  rouge2: number;
  rougeL: number;
  /** The length gate fired (every metric is NaN). */
  nan_by_length_gate: boolean;
  /** What lm-eval prints when HF bleu raises (`"Bleu error: …"`); the bleu is then NaN. */
  bleu_error: string | null;
  /** What lm-eval prints when HF rouge raises. rouge_score never raises on string inputs, so always null. */
  rouge_error: string | null;
}

/** HF bleu of one document, or the exception it raised. */
export type HfBleuOutcome = { ok: true; result: HfBleuResult } | { ok: false; error: Error };

/** Runs HF evaluate bleu on 13a segment statistics, capturing the exception as lm-eval's `try` does. */
export function hfBleuOutcome(segments: readonly SegmentStats[]): HfBleuOutcome {
  try {
    return { ok: true, result: hfBleuFromStats(segments) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
  }
}

/**
 * lm-eval `process_results` from precomputed pieces: the HF bleu outcome and the unstemmed rouge scores
 * (HF rouge defaults on one pair with the aggregator give exactly that pair's F values).
 */
export function lmEvalFromScores(
  task: LmEvalTask,
  prediction: string,
  reference: string,
  bleu: HfBleuOutcome,
  rouge: RougeScores,
): LmEvalDocResult {
  const min = LM_EVAL_MIN_LENGTH[task];
  // Python len(): code points, on the raw (unstripped) strings.
  if (pyLen(reference) < min || pyLen(prediction) < min) {
    return {
      bleu: NaN,
      rouge1: NaN,
      rouge2: NaN,
      rougeL: NaN,
      nan_by_length_gate: true,
      bleu_error: null,
      rouge_error: null,
    };
  }
  let bleuValue: number;
  let bleuError: string | null = null;
  if (bleu.ok) {
    bleuValue = bleu.result.bleu;
    // "Sometimes bleu is 0.0 and this breaks the stderr computation": 0 becomes exactly 1e-05.
    if (bleuValue === 0) bleuValue += 1e-5;
  } else {
    bleuValue = NaN;
    bleuError = `Bleu error: ${bleu.error.message}`;
  }
  return {
    bleu: bleuValue,
    rouge1: rouge.rouge1.fmeasure,
    rouge2: rouge.rouge2.fmeasure,
    rougeL: rouge.rougeL.fmeasure,
    nan_by_length_gate: false,
    bleu_error: bleuError,
    rouge_error: null,
  };
}

/** lm-eval `process_results(doc, [prediction])` for `mts_dialog` / `medtext` (bleu, rouge1/2/L). */
export function lmEvalProcessResults(task: LmEvalTask, prediction: string, reference: string): LmEvalDocResult {
  const bleu = hfBleuOutcome([segmentStats(tokenize13a(prediction), [tokenize13a(reference)], 4)]);
  const rouge = rougeScoresFromTexts(rougeText(reference, false), rougeText(prediction, false));
  return lmEvalFromScores(task, prediction, reference, bleu, rouge);
}

/**
 * lm-eval's `nanmean` aggregation: NaN for an empty or all-NaN list, otherwise `np.nanmean` (numpy
 * pairwise summation with NaNs zeroed in place, divided by the non-NaN count).
 */
export function lmEvalNanmean(values: readonly number[]): number {
  if (values.length === 0 || values.every(Number.isNaN)) return NaN;
  return numpyNanmean(values);
}
