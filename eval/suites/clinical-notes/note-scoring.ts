import { AnamnesisError } from "../../../src/foundation/errors.ts";
import type { NoteDataset, NoteDocument } from "../../../src/data/note-dataset.ts";
import {
  lmEvalNanmean,
  lmEvalProcessResults,
  type LmEvalDocResult,
  type LmEvalTask,
} from "../../../src/metrics/lm-eval.ts";
import { aggregatePerplexity, loglikelihoodItem, type PerplexityScores } from "../../../src/metrics/perplexity.ts";
import type { NotePredictionLine } from "../../shared/predictions-file.ts";

/**
 * Scores clinical-note predictions as lm-evaluation-harness's `mts_dialog` / `medtext` tasks do: each
 * document on its own (`process_results`: length gate, HF bleu with the 1e-5 nudge, HF rouge), then
 * `nanmean` over documents; and their `*_perplexity` variants from each document's log-likelihood.
 */

export const MODEL_METRICS_UNAVAILABLE = "BLEURT and BERTScore need model weights that are not bundled";

export interface NoteGenerationScores {
  samples: number;
  bleu: number;
  rouge1: number;
  rouge2: number;
  rougeL: number;
  bleurt: null;
  bert_score: null;
  /** Documents whose metric is NaN (left out of its nanmean); `length_gate` of them by lm-eval's length gate. */
  nan_counts: { bleu: number; rouge1: number; rouge2: number; rougeL: number; length_gate: number };
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

export function scoreNotePredictions(dataset: NoteDataset, lines: readonly NotePredictionLine[]): NoteGenerationScores {
  const results = noteDocumentResults(dataset, lines);
  const metric = (key: "bleu" | "rouge1" | "rouge2" | "rougeL") => results.map((result) => result[key]);
  const nans = (key: "bleu" | "rouge1" | "rouge2" | "rougeL") => metric(key).filter(Number.isNaN).length;
  return {
    samples: results.length,
    bleu: lmEvalNanmean(metric("bleu")),
    rouge1: lmEvalNanmean(metric("rouge1")),
    rouge2: lmEvalNanmean(metric("rouge2")),
    rougeL: lmEvalNanmean(metric("rougeL")),
    bleurt: null,
    bert_score: null,
    nan_counts: {
      bleu: nans("bleu"),
      rouge1: nans("rouge1"),
      rouge2: nans("rouge2"),
      rougeL: nans("rougeL"),
      length_gate: results.filter((result) => result.nan_by_length_gate).length,
    },
    unavailable: MODEL_METRICS_UNAVAILABLE,
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
