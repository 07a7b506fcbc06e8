/**
 * The MediTOD NLG scorer (`dair-iitd/MediTOD` `metrics/nlg_metrics.py`) as a pure function over the
 * flattened doctor turns: every text goes through `preprocess_text`, BLEU-2/4 are nltk corpus BLEU on
 * its whitespace tokens (×100), ROUGE-1/L are rouge_score F1 without stemming (0–1); and BERTScore
 * (`bert_score.score(preds, golds, lang='en')`, `F1.mean()`) when a model source is given.
 */
import { AnamnesisError } from "../foundation/errors.ts";
import { BLEU2_WEIGHTS, BLEU4_WEIGHTS, nltkBleuFromStats } from "./bleu-nltk.ts";
import { segmentStats, type SegmentStats } from "./ngrams.ts";
import { numpyMean } from "./numpy-sum.ts";
import { rougeScoresFromTexts, rougeText } from "./rouge.ts";
import { meditodPreprocess, tokenizeMeditod } from "./tokenize-meditod.ts";
import { MEDITOD_BERTSCORE } from "./bertscore/bertscore-settings.ts";
import {
  bertScoreOf,
  bertScoreUnavailable,
  type ModelMetricRecord,
  type ModelMetricSource,
} from "./model-metrics/model-metrics.ts";

const UNAVAILABLE = bertScoreUnavailable(MEDITOD_BERTSCORE);

/** Result of {@link scoreMeditodNlg}. */
export interface MeditodNlgResult {
  samples: number;
  /** nltk corpus BLEU-2 ×100 (0–100). */
  bleu2: number;
  /** nltk corpus BLEU-4 ×100 (0–100). */
  bleu4: number;
  /** Arithmetic mean of per-turn rouge1 F1 (0–1); NaN when there are no samples. */
  rouge1: number;
  /** Arithmetic mean of per-turn rougeL F1 (0–1); NaN when there are no samples. */
  rougeL: number;
  /** `F1.mean()` of roberta-large layer 17 on the preprocessed texts (0–1); null without a model source. */
  bertscore: number | null;
  /** Why BERTScore is null, or how it was computed (the record's label). */
  bertscore_reason: string;
  /** How BERTScore was produced: the reference's hash code and versions, or the native model, or why not. */
  model_metrics: { bert_score: ModelMetricRecord };
}

/** nltk BLEU-2 and BLEU-4 ×100 from MediTOD-token segment statistics (orders 1–4). */
export function meditodBleuFromStats(segments: readonly SegmentStats[]): { bleu2: number; bleu4: number } {
  return {
    bleu2: nltkBleuFromStats(segments, BLEU2_WEIGHTS) * 100,
    bleu4: nltkBleuFromStats(segments, BLEU4_WEIGHTS) * 100,
  };
}

/**
 * Scores MediTOD NLG predictions against the gold doctor utterances, pair by pair in order.
 *
 * BLEU is exact: nltk `corpus_bleu` (pooled counts, no smoothing) over `preprocess_text(x).split()`.
 *
 * ROUGE differs from the official script on purpose: the script calls HF evaluate `rouge` with
 * `use_aggregator=True`, which reports the MEDIAN of 1000 bootstrap resamples drawn with an unseeded
 * `np.random.choice`, so its value cannot be reproduced exactly (it varies run to run by ~1e-3). We
 * report the arithmetic mean of the same per-pair rouge_score F1 values (numpy summation order), which
 * is the quantity the bootstrap estimates.
 *
 * BERTScore (roberta-large, layer 17, F1 mean on preprocessed text) needs a model: here it is `null`,
 * with the reason in `bertscore_reason`; {@link withMeditodBertScore} adds it.
 *
 * @throws {AnamnesisError} INVALID_ARGUMENT when the two lists differ in length.
 */
export function scoreMeditodNlg(predictions: readonly string[], references: readonly string[]): MeditodNlgResult {
  if (predictions.length !== references.length) {
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `predictions (${predictions.length}) and references (${references.length}) differ in length`,
    );
  }
  const segments: SegmentStats[] = [];
  const rouge1 = new Float64Array(predictions.length);
  const rougeL = new Float64Array(predictions.length);
  predictions.forEach((prediction, i) => {
    const reference = references[i] as string;
    segments.push(segmentStats(tokenizeMeditod(prediction), [tokenizeMeditod(reference)], 4));
    // ROUGE sees the preprocessed strings, as in the script.
    const scores = rougeScoresFromTexts(
      rougeText(meditodPreprocess(reference), false),
      rougeText(meditodPreprocess(prediction), false),
    );
    rouge1[i] = scores.rouge1.fmeasure;
    rougeL[i] = scores.rougeL.fmeasure;
  });
  const { bleu2, bleu4 } = meditodBleuFromStats(segments);
  return {
    samples: predictions.length,
    bleu2,
    bleu4,
    rouge1: numpyMean(rouge1),
    rougeL: numpyMean(rougeL),
    bertscore: null,
    bertscore_reason: UNAVAILABLE.status === "unavailable" ? UNAVAILABLE.reason : "",
    model_metrics: { bert_score: UNAVAILABLE },
  };
}

/**
 * Adds MediTOD's BERTScore from the given source: bert-score over the preprocessed prediction and gold
 * of every turn in one call (batches of 64), reported as the mean F1 (the reference's own `F1.mean()`).
 */
export async function withMeditodBertScore(
  result: MeditodNlgResult,
  predictions: readonly string[],
  references: readonly string[],
  source: ModelMetricSource | undefined,
): Promise<MeditodNlgResult> {
  if (!source) return result;
  const outcome = await bertScoreOf(
    source,
    predictions.map(meditodPreprocess),
    references.map(meditodPreprocess),
    MEDITOD_BERTSCORE,
  );
  const label = outcome.record.status === "unavailable" ? outcome.record.reason : outcome.record.label;
  return {
    ...result,
    bertscore: outcome.f1Mean,
    bertscore_reason: label,
    model_metrics: { bert_score: outcome.record },
  };
}
