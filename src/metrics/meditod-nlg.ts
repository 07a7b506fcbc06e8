/**
 * The MediTOD NLG scorer (`dair-iitd/MediTOD` `metrics/nlg_metrics.py`) as a pure function over the
 * flattened doctor turns: every text goes through `preprocess_text`, BLEU-2/4 are nltk corpus BLEU on
 * its whitespace tokens (×100), ROUGE-1/L are rouge_score F1 without stemming (0–1).
 */
import { AnamnesisError } from "../foundation/errors.ts";
import { BLEU2_WEIGHTS, BLEU4_WEIGHTS, nltkBleuFromStats } from "./bleu-nltk.ts";
import { segmentStats, type SegmentStats } from "./ngrams.ts";
import { numpyMean } from "./numpy-sum.ts";
import { rougeScoresFromTexts, rougeText } from "./rouge.ts";
import { meditodPreprocess, tokenizeMeditod } from "./tokenize-meditod.ts";

/** Why BERTScore is absent from every result. */
export const BERTSCORE_UNAVAILABLE_REASON =
  "BERTScore needs roberta-large (layer 17) weights, which are not bundled; it is reported as null, never 0.";

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
  bertscore: null;
  bertscore_reason: string;
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
 * BERTScore (roberta-large, layer 17, F1 mean on preprocessed text) needs model weights that are not
 * bundled: it is `null`, with the reason in `bertscore_reason`.
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
    bertscore_reason: BERTSCORE_UNAVAILABLE_REASON,
  };
}
