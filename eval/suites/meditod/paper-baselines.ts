import { readBundledJson } from "../../../src/foundation/package-paths.ts";
import type { PaperBaseline } from "../../shared/suite.ts";

/**
 * The MediTOD paper's results (`eval/paper-baselines.json`): where they come from, the test set they
 * were measured on, and one list of rows per suite, shown beside ours in the report.
 */

/** An NLU row: F1 overall, of medical and of non-medical attributes. */
export interface NluBaseline extends PaperBaseline {
  readonly overall_f1: number;
  readonly medical_f1: number;
  readonly non_medical_f1: number;
}

/** A policy row: the NLU figures and Precision@K. */
export interface PolicyBaseline extends NluBaseline {
  readonly p_at_1: number;
  readonly p_at_4: number;
  readonly p_at_8: number;
  readonly p_at_inf: number;
}

/** An NLG row: BLEU-2/4 (x100), ROUGE-1/L and BERTScore. */
export interface NlgBaseline extends PaperBaseline {
  readonly bleu2: number;
  readonly bleu4: number;
  readonly rouge1: number;
  readonly rougeL: number;
  readonly bertscore: number;
}

interface PaperBaselines {
  readonly source: string;
  readonly test_set: string;
  readonly "meditod-nlu": readonly NluBaseline[];
  readonly "meditod-pol": readonly PolicyBaseline[];
  readonly "meditod-nlg": readonly NlgBaseline[];
}

/** The paper's baselines as bundled. */
export const PAPER_BASELINES = readBundledJson("eval/paper-baselines.json") as PaperBaselines;

/** How the report names a paper row in a table: `Llama3 8B (paper, in-context)`. */
export function paperRowLabel(row: PaperBaseline): string {
  return `${row.model} (paper, ${row.setting.toLowerCase()})`;
}

/** How a chart names a paper row: `Llama3 8B (ICL)`, `PPTOD (base) (sup.)`. */
export function paperBarLabel(row: PaperBaseline): string {
  return `${row.model} (${row.setting === "Supervised" ? "sup." : "ICL"})`;
}
