/**
 * Every text-generation metric of the MediTOD and lm-eval consumers for (prediction, reference) pairs,
 * in the exact layout of `tests/fixtures/metrics-golden.json`.
 *
 * Each text is tokenised once per tokenizer (13a, MediTOD, rouge, rouge+stem) and the n-gram statistics
 * of each tokenisation are computed once and shared: HF bleu, sacrebleu and lm-eval reuse the 13a
 * statistics, nltk BLEU-2 and BLEU-4 the MediTOD ones, lm-eval and MediTOD the unstemmed ROUGE scores.
 */
import type { HfBleuResult } from "./bleu-hf.ts";
import { BLEU2_WEIGHTS, BLEU4_WEIGHTS, nltkBleuFromStats } from "./bleu-nltk.ts";
import { sacrebleuCorpusFromStats, sacrebleuSentenceFromStats, type SacrebleuScore } from "./bleu-sacrebleu.ts";
import { hfBleuOutcome, lmEvalFromScores, lmEvalNanmean, type HfBleuOutcome, type LmEvalDocResult } from "./lm-eval.ts";
import { meditodBleuFromStats } from "./meditod-nlg.ts";
import { segmentStats, type SegmentStats } from "./ngrams.ts";
import { numpyMean } from "./numpy-sum.ts";
import { pyRstrip } from "./python-text.ts";
import { rougeScoresFromTexts, rougeText, type RougeScores } from "./rouge.ts";
import { tokenize13a } from "./tokenize-13a.ts";
import { tokenizeMeditod } from "./tokenize-meditod.ts";
import { tokenizeRouge } from "./tokenize-rouge.ts";

/** A pair to score. */
export interface TextPair {
  id?: string;
  prediction: string;
  reference: string;
}

/** HF bleu, or the exception it raised as `"ZeroDivisionError: float division by zero"`. */
export type HfBleuField = HfBleuResult | { error: string };

/** lm-eval per-document values with NaN written as null (as in the golden file). */
export interface LmEvalField {
  bleu: number | null;
  rouge1: number | null;
  rouge2: number | null;
  rougeL: number | null;
  nan_by_length_gate: boolean;
  bleu_error: string | null;
  rouge_error: string | null;
}

/** The metrics of one pair: the fields of a golden pair other than its inputs and debug tokens. */
export interface PairMetrics {
  hf_bleu: HfBleuField;
  sacrebleu_sentence: SacrebleuScore;
  nltk_bleu2: number;
  nltk_bleu4: number;
  meditod: { bleu2_x100: number; bleu4_x100: number; rouge1: number; rougeL: number };
  rouge: { nostem: RougeScores; stem: RougeScores };
  hf_rouge_default: RougeFmeasures;
  lmeval_mts_dialog: LmEvalField;
  lmeval_medtext: LmEvalField;
}

/** F-measures of the four default HF rouge types. */
export interface RougeFmeasures {
  rouge1: number;
  rouge2: number;
  rougeL: number;
  rougeLsum: number;
}

/** lm-eval per-metric values over a corpus; null where every document is NaN (or there are none). */
export interface LmEvalMetricValues<T> {
  bleu: T;
  rouge1: T;
  rouge2: T;
  rougeL: T;
}

/** The deterministic fields of the golden `corpus.all` block (no bootstrap). */
export interface CorpusMetrics {
  ids: string[];
  hf_bleu: HfBleuField;
  sacrebleu_corpus: SacrebleuScore;
  meditod: { bleu2_x100: number; bleu4_x100: number; rouge1_mean: number | null; rougeL_mean: number | null };
  hf_rouge_default_mean: {
    rouge1: number | null;
    rouge2: number | null;
    rougeL: number | null;
    rougeLsum: number | null;
  };
  lmeval_mts_dialog_nanmean: LmEvalMetricValues<number | null>;
  lmeval_mts_dialog_n_nan: LmEvalMetricValues<number>;
  lmeval_medtext_nanmean: LmEvalMetricValues<number | null>;
  lmeval_medtext_n_nan: LmEvalMetricValues<number>;
}

/** Everything computed for one pair, shared between the per-pair and the corpus outputs. */
interface PairAnalysis {
  prediction: string;
  reference: string;
  predictionRougeTokens: string[];
  referenceRougeTokens: string[];
  stats13a: SegmentStats;
  statsSacrebleu: SegmentStats;
  statsMeditod: SegmentStats;
  hfBleu: HfBleuOutcome;
  rougeNostem: RougeScores;
  mtsDialog: LmEvalDocResult;
  medtext: LmEvalDocResult;
}

const MAX_ORDER = 4;

function hfBleuField(outcome: HfBleuOutcome): HfBleuField {
  return outcome.ok ? outcome.result : { error: `${outcome.error.name}: ${outcome.error.message}` };
}

function analyzePair(prediction: string, reference: string): PairAnalysis {
  const pred13a = tokenize13a(prediction);
  const ref13a = tokenize13a(reference);
  const stats13a = segmentStats(pred13a, [ref13a], MAX_ORDER);

  // sacrebleu right-strips before 13a; that only changes the tokens when there is trailing whitespace.
  const predStripped = pyRstrip(prediction);
  const refStripped = pyRstrip(reference);
  const statsSacrebleu =
    predStripped === prediction && refStripped === reference
      ? stats13a
      : segmentStats(tokenize13a(predStripped), [tokenize13a(refStripped)], MAX_ORDER);

  const statsMeditod = segmentStats(tokenizeMeditod(prediction), [tokenizeMeditod(reference)], MAX_ORDER);

  const predRouge = tokenizeRouge(prediction);
  const refRouge = tokenizeRouge(reference);
  const rougeNostem = rougeScoresFromTexts(
    rougeText(reference, false, refRouge),
    rougeText(prediction, false, predRouge),
  );

  const hfBleu = hfBleuOutcome([stats13a]);
  return {
    prediction,
    reference,
    predictionRougeTokens: predRouge,
    referenceRougeTokens: refRouge,
    stats13a,
    statsSacrebleu,
    statsMeditod,
    hfBleu,
    rougeNostem,
    mtsDialog: lmEvalFromScores("mts_dialog", prediction, reference, hfBleu, rougeNostem),
    medtext: lmEvalFromScores("medtext", prediction, reference, hfBleu, rougeNostem),
  };
}

function nanToNull(x: number): number | null {
  return Number.isNaN(x) ? null : x;
}

function lmEvalField(doc: LmEvalDocResult): LmEvalField {
  return {
    bleu: nanToNull(doc.bleu),
    rouge1: nanToNull(doc.rouge1),
    rouge2: nanToNull(doc.rouge2),
    rougeL: nanToNull(doc.rougeL),
    nan_by_length_gate: doc.nan_by_length_gate,
    bleu_error: doc.bleu_error,
    rouge_error: doc.rouge_error,
  };
}

function fmeasures(scores: RougeScores): RougeFmeasures {
  return {
    rouge1: scores.rouge1.fmeasure,
    rouge2: scores.rouge2.fmeasure,
    rougeL: scores.rougeL.fmeasure,
    rougeLsum: scores.rougeLsum.fmeasure,
  };
}

function pairMetrics(a: PairAnalysis): PairMetrics {
  // Only the per-pair output needs stemmed ROUGE; it reuses the unstemmed tokens.
  const rougeStem = rougeScoresFromTexts(
    rougeText(a.reference, true, a.referenceRougeTokens),
    rougeText(a.prediction, true, a.predictionRougeTokens),
  );
  const nltkBleu2 = nltkBleuFromStats([a.statsMeditod], BLEU2_WEIGHTS);
  const nltkBleu4 = nltkBleuFromStats([a.statsMeditod], BLEU4_WEIGHTS);
  return {
    hf_bleu: hfBleuField(a.hfBleu),
    sacrebleu_sentence: sacrebleuSentenceFromStats(a.statsSacrebleu),
    nltk_bleu2: nltkBleu2,
    nltk_bleu4: nltkBleu4,
    meditod: {
      bleu2_x100: nltkBleu2 * 100,
      bleu4_x100: nltkBleu4 * 100,
      // MediTOD scores ROUGE on preprocess_text output. Its rouge tokens are those of the raw text:
      // preprocessing only lower-cases (which the rouge tokenizer does too) and adds or collapses
      // whitespace next to non-alphanumerics, so no [a-z0-9] run changes (tested on every golden pair).
      rouge1: a.rougeNostem.rouge1.fmeasure,
      rougeL: a.rougeNostem.rougeL.fmeasure,
    },
    rouge: { nostem: a.rougeNostem, stem: rougeStem },
    hf_rouge_default: fmeasures(a.rougeNostem),
    lmeval_mts_dialog: lmEvalField(a.mtsDialog),
    lmeval_medtext: lmEvalField(a.medtext),
  };
}

/** Scores one pair with every metric; the object has the field names and nesting of a golden pair. */
export function scorePair(prediction: string, reference: string): PairMetrics {
  return pairMetrics(analyzePair(prediction, reference));
}

function lmEvalAggregate(docs: readonly LmEvalDocResult[]): {
  nanmean: LmEvalMetricValues<number | null>;
  nNan: LmEvalMetricValues<number>;
} {
  const keys = ["bleu", "rouge1", "rouge2", "rougeL"] as const;
  const nanmean = {} as LmEvalMetricValues<number | null>;
  const nNan = {} as LmEvalMetricValues<number>;
  for (const key of keys) {
    const values = docs.map((d) => d[key]);
    nanmean[key] = nanToNull(lmEvalNanmean(values));
    nNan[key] = values.filter(Number.isNaN).length;
  }
  return { nanmean, nNan };
}

function corpusMetrics(pairs: readonly TextPair[], analyses: readonly PairAnalysis[]): CorpusMetrics {
  const meanOf = (pick: (a: PairAnalysis) => number): number | null =>
    nanToNull(numpyMean(Float64Array.from(analyses, pick)));
  const { bleu2, bleu4 } = meditodBleuFromStats(analyses.map((a) => a.statsMeditod));
  const mts = lmEvalAggregate(analyses.map((a) => a.mtsDialog));
  const med = lmEvalAggregate(analyses.map((a) => a.medtext));
  // MediTOD's ROUGE means are the HF rouge means of the same per-pair values (see pairMetrics).
  const rouge1Mean = meanOf((a) => a.rougeNostem.rouge1.fmeasure);
  const rougeLMean = meanOf((a) => a.rougeNostem.rougeL.fmeasure);
  return {
    ids: pairs.map((p, i) => p.id ?? String(i)),
    hf_bleu: hfBleuField(hfBleuOutcome(analyses.map((a) => a.stats13a))),
    sacrebleu_corpus: sacrebleuCorpusFromStats(analyses.map((a) => a.statsSacrebleu)),
    meditod: {
      bleu2_x100: bleu2,
      bleu4_x100: bleu4,
      rouge1_mean: rouge1Mean,
      rougeL_mean: rougeLMean,
    },
    hf_rouge_default_mean: {
      rouge1: rouge1Mean,
      rouge2: meanOf((a) => a.rougeNostem.rouge2.fmeasure),
      rougeL: rougeLMean,
      rougeLsum: meanOf((a) => a.rougeNostem.rougeLsum.fmeasure),
    },
    lmeval_mts_dialog_nanmean: mts.nanmean,
    lmeval_mts_dialog_n_nan: mts.nNan,
    lmeval_medtext_nanmean: med.nanmean,
    lmeval_medtext_n_nan: med.nNan,
  };
}

/**
 * Corpus-level values over the pairs, in order: HF bleu as one `compute` call, sacrebleu `corpus_bleu`,
 * MediTOD nltk corpus BLEU ×100 and mean ROUGE F1, the mean of HF rouge per-pair F values
 * (`use_aggregator=False` then `np.mean`), and lm-eval's `nanmean` aggregation with NaN counts.
 * Means over no pairs are null. `ids` holds each pair's id, or its index when it has none.
 */
export function scoreCorpus(pairs: readonly TextPair[]): CorpusMetrics {
  return corpusMetrics(
    pairs,
    pairs.map((p) => analyzePair(p.prediction, p.reference)),
  );
}

/** {@link scorePair} for every pair plus {@link scoreCorpus}, tokenising each text only once. */
export function scorePairsAndCorpus(pairs: readonly TextPair[]): { pairs: PairMetrics[]; corpus: CorpusMetrics } {
  const analyses = pairs.map((p) => analyzePair(p.prediction, p.reference));
  return { pairs: analyses.map(pairMetrics), corpus: corpusMetrics(pairs, analyses) };
}
