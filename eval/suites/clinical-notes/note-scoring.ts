import { AnamnesisError } from "../../../src/foundation/errors.ts";
import type { NoteDataset, NoteDocument } from "../../../src/data/note-dataset.ts";
import {
  lmEvalNanmean,
  lmEvalProcessResults,
  type LmEvalDocResult,
  type LmEvalTask,
} from "../../../src/metrics/lm-eval.ts";
import { LM_EVAL_BERTSCORE } from "../../../src/metrics/bertscore/bertscore-settings.ts";
import { LM_EVAL_BLEURT_CHECKPOINT } from "../../../src/metrics/bleurt/bleurt-checkpoints.ts";
import {
  bertScoreOf,
  bertScoreUnavailable,
  bleurtOf,
  bleurtUnavailable,
  type ModelMetricRecord,
  type ModelMetricRequest,
} from "../../../src/metrics/model-metrics/model-metrics.ts";
import { aggregatePerplexity, loglikelihoodItem, type PerplexityScores } from "../../../src/metrics/perplexity.ts";
import type { NotePredictionLine } from "../../shared/predictions-file.ts";

/**
 * Scores clinical-note predictions as lm-evaluation-harness's `mts_dialog` / `medtext` tasks do: each
 * document on its own (`process_results`: length gate, HF bleu with the 1e-5 nudge, HF rouge, and —
 * given a model source — HF evaluate's `bertscore` with `lang="en"` and `bleurt-base-512`), then
 * `nanmean` over documents; and their `*_perplexity` variants from each document's log-likelihood.
 */

export interface NoteGenerationScores {
  samples: number;
  bleu: number;
  rouge1: number;
  rouge2: number;
  rougeL: number;
  /** nanmean of each document's BLEURT (bleurt-base-512); null without a BLEURT source. */
  bleurt: number | null;
  /** nanmean of each document's BERTScore F1 (roberta-large, layer 17, no idf); null without a source. */
  bert_score: number | null;
  /** Documents whose metric is NaN (left out of its nanmean); `length_gate` of them by lm-eval's length gate. */
  nan_counts: { bleu: number; rouge1: number; rouge2: number; rougeL: number; length_gate: number };
  /** How BLEURT and BERTScore were produced (reference or native, model, versions), or why they are null. */
  model_metrics: { bleurt: ModelMetricRecord; bert_score: ModelMetricRecord };
  /** What is null and why ("" when nothing is). */
  unavailable: string;
}

/** The gold document a predictions line refers to. */
function documentOf(dataset: NoteDataset, line: NotePredictionLine): NoteDocument {
  const document = dataset.documents.get(line.id);
  if (!document) {
    const some = [...dataset.documents.keys()].slice(0, 3).join(", ");
    throw new AnamnesisError(
      "UNKNOWN_DIALOGUE",
      `line ${line.line}: ${dataset.info.name} has no document '${line.id}' (ids look like ${some}, …)`,
    );
  }
  return document;
}

/** The lm-eval task of a note dataset; ACI-Bench has none (its own suite scores it as its official script). */
function lmEvalTaskOf(dataset: NoteDataset): LmEvalTask {
  if (dataset.task === "aci_bench")
    throw new AnamnesisError("INVALID_ARGUMENT", "ACI-Bench is scored by the aci-bench suite, not by lm-eval's rules");
  return dataset.task;
}

/** Per-document lm-eval results, in line order. */
export function noteDocumentResults(dataset: NoteDataset, lines: readonly NotePredictionLine[]): LmEvalDocResult[] {
  const task = lmEvalTaskOf(dataset);
  return lines.map((line) => {
    const document = documentOf(dataset, line);
    if (typeof line.prediction !== "string")
      throw new AnamnesisError("INVALID_JSON", `line ${line.line}: prediction must be the generated text as a string`);
    return lmEvalProcessResults(task, line.prediction, document.target);
  });
}

/** One model metric per document (NaN where lm-eval's length gate fired), nanmean'd, and its record. */
interface DocumentModelMetric {
  readonly mean: number | null;
  readonly record: ModelMetricRecord;
}

/** BERTScore and BLEURT of the documents the length gate let through, as lm-eval computes them one by one. */
async function documentModelMetrics(
  dataset: NoteDataset,
  lines: readonly NotePredictionLine[],
  results: readonly LmEvalDocResult[],
  models: ModelMetricRequest,
): Promise<{ bleurt: DocumentModelMetric; bert_score: DocumentModelMetric }> {
  const scored = lines.flatMap((_, i) => (results[i]!.nan_by_length_gate ? [] : [i]));
  const candidates = scored.map((i) => lines[i]!.prediction as string);
  const references = scored.map((i) => documentOf(dataset, lines[i]!).target);
  const perDocument = (values: readonly number[]) => {
    const all = new Array<number>(lines.length).fill(NaN);
    scored.forEach((index, k) => (all[index] = values[k]!));
    return lmEvalNanmean(all);
  };
  const bertScore = models.bertscore
    ? await bertScoreOf(models.bertscore, candidates, references, LM_EVAL_BERTSCORE)
    : undefined;
  const bleurt = models.bleurt
    ? await bleurtOf({ ...models, bleurt: models.bleurt }, candidates, references, LM_EVAL_BLEURT_CHECKPOINT)
    : undefined;
  return {
    bert_score: bertScore
      ? { mean: perDocument(bertScore.f1), record: bertScore.record }
      : { mean: null, record: bertScoreUnavailable(LM_EVAL_BERTSCORE) },
    bleurt: bleurt
      ? { mean: perDocument(bleurt.scores), record: bleurt.record }
      : { mean: null, record: bleurtUnavailable(LM_EVAL_BLEURT_CHECKPOINT) },
  };
}

/** What is null and why, one sentence per metric. */
function unavailableReasons(...records: readonly ModelMetricRecord[]): string {
  return records.flatMap((record) => (record.status === "unavailable" ? [record.reason] : [])).join("; ");
}

export async function scoreNotePredictions(
  dataset: NoteDataset,
  lines: readonly NotePredictionLine[],
  models: ModelMetricRequest = {},
): Promise<NoteGenerationScores> {
  const results = noteDocumentResults(dataset, lines);
  const modelMetrics = await documentModelMetrics(dataset, lines, results, models);
  const metric = (key: "bleu" | "rouge1" | "rouge2" | "rougeL") => results.map((result) => result[key]);
  const nans = (key: "bleu" | "rouge1" | "rouge2" | "rougeL") => metric(key).filter(Number.isNaN).length;
  return {
    samples: results.length,
    bleu: lmEvalNanmean(metric("bleu")),
    rouge1: lmEvalNanmean(metric("rouge1")),
    rouge2: lmEvalNanmean(metric("rouge2")),
    rougeL: lmEvalNanmean(metric("rougeL")),
    bleurt: modelMetrics.bleurt.mean,
    bert_score: modelMetrics.bert_score.mean,
    nan_counts: {
      bleu: nans("bleu"),
      rouge1: nans("rouge1"),
      rouge2: nans("rouge2"),
      rougeL: nans("rougeL"),
      length_gate: results.filter((result) => result.nan_by_length_gate).length,
    },
    model_metrics: { bleurt: modelMetrics.bleurt.record, bert_score: modelMetrics.bert_score.record },
    unavailable: unavailableReasons(modelMetrics.bleurt.record, modelMetrics.bert_score.record),
  };
}

/** Perplexity predictions: each line's prediction is the target's total log-likelihood (natural log). */
export function scoreLoglikelihoodPredictions(
  dataset: NoteDataset,
  lines: readonly NotePredictionLine[],
): PerplexityScores {
  return aggregatePerplexity(
    lines.map((line) => {
      const document = documentOf(dataset, line);
      if (typeof line.prediction !== "number" || !Number.isFinite(line.prediction) || line.prediction > 0) {
        throw new AnamnesisError(
          "INVALID_JSON",
          `line ${line.line}: prediction must be the target's log-likelihood, a finite number ≤ 0`,
        );
      }
      return loglikelihoodItem(document.target, line.prediction);
    }),
  );
}
