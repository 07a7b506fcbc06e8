import { ACI_DIVISIONS } from "../../../src/metrics/aci-bench-sections.ts";
import type { AciRouge } from "../../../src/metrics/aci-bench-scoring.ts";
import type { ReportTable } from "../../shared/report-blocks.ts";
import type { AciBenchScores } from "./aci-bench-scores.ts";

/**
 * The aci-bench report's tables: the full note (the paper's columns: ROUGE-1, ROUGE-2 and its ROUGE-L,
 * which is rougeLsum, on a 0–100 scale), then by division and by source dataset, each with our row
 * first and the floor and the shipped baselines below it, all on the same visits.
 */

/** A row of a table: who, and their scores. */
export interface ScoredRow {
  readonly label: string;
  readonly scores: AciBenchScores;
}

/** A fraction as the paper prints it: ×100, two decimals; a missing value as a dash. */
export function percent(value: number | undefined): string {
  return value === undefined || Number.isNaN(value) ? "–" : (value * 100).toFixed(2);
}

/** ROUGE-1 / ROUGE-2 / ROUGE-L (Lsum) of a cohort, in one cell. */
function rougeCell(rouge: AciRouge | undefined): string {
  return rouge ? `${percent(rouge.rouge1)} / ${percent(rouge.rouge2)} / ${percent(rouge.rougeLsum)}` : "–";
}

/** The full-note table: the paper's three columns, the sentence-level ROUGE-L, and the model-based figures (not computed). */
export function fullNoteTable(title: string, rows: readonly ScoredRow[]): ReportTable {
  return {
    title,
    header: ["model", "ROUGE-1", "ROUGE-2", "ROUGE-L (Lsum)", "ROUGE-L (sentence)", "BERTScore", "BLEURT", "MEDCON"],
    rows: rows.map(({ label, scores }) => {
      const all = scores.rouge.ALL;
      return [
        label,
        percent(all?.rouge1),
        percent(all?.rouge2),
        percent(all?.rougeLsum),
        percent(all?.rougeL),
        "n/a",
        "n/a",
        "n/a",
      ];
    }),
    ours: 0,
  };
}

/** ROUGE-1 / ROUGE-2 / ROUGE-L of each division. */
export function divisionTable(rows: readonly ScoredRow[]): ReportTable {
  return {
    title:
      "By division (ROUGE-1 / ROUGE-2 / ROUGE-L; a division carries __lf1__ for its line breaks, so its ROUGE-L and Lsum agree)",
    header: ["model", ...ACI_DIVISIONS],
    rows: rows.map(({ label, scores }) => [
      label,
      ...ACI_DIVISIONS.map((division) => rougeCell(scores.rouge[`division-${division}`])),
    ]),
    ours: 0,
  };
}

/** ROUGE-1 / ROUGE-2 / ROUGE-L (Lsum) of each source dataset, in the order ours lists them. */
export function datasetTable(rows: readonly ScoredRow[]): ReportTable {
  const cohorts = Object.keys(rows[0]?.scores.rouge ?? {}).filter((cohort) => cohort.startsWith("dataset-"));
  return {
    title: "By source dataset (ROUGE-1 / ROUGE-2 / ROUGE-L)",
    header: ["model", ...cohorts.map((cohort) => cohort.slice("dataset-".length))],
    rows: rows.map(({ label, scores }) => [label, ...cohorts.map((cohort) => rougeCell(scores.rouge[cohort]))]),
    ours: 0,
  };
}
