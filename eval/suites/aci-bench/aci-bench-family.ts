import type { BenchDataset } from "../../shared/bench-dataset.ts";
import type { BenchResults } from "../../shared/bench-results.ts";
import { runLine } from "../../shared/report-blocks.ts";
import type { SuiteFamily } from "../../shared/suite-family.ts";
import { ACI_BENCH_DATA, aciBenchDataset } from "./aci-bench-data.ts";
import { ACI_MODEL_METRICS_UNAVAILABLE } from "./aci-bench-scores.ts";

/**
 * ACI-Bench's family: one suite, a full visit note from a whole conversation, scored as the
 * repository's official `evaluation/evaluate_fullnote.py` scores it.
 */

/** How the figures are made, in one paragraph of the report. */
const SCORING =
  "Scored as ACI-Bench's evaluate_fullnote.py: each note and its four divisions (the official section tagger's subjective, objective_exam, objective_results, assessment_and_plan) by Hugging Face evaluate's rouge (rouge_score, no stemming), averaged with numpy over all notes, per source dataset and per division. The paper's ROUGE-L is rougeLsum; the sentence-level ROUGE-L is shown beside it.";

/** The engine or the prompt of the run, in one line. */
function engineLine(results: BenchResults): string {
  if (typeof results.protocol.engine === "string") return `Engine: ${results.protocol.engine}.`;
  const versions = Object.values(results.prompt_versions)
    .map((version) => `\`${version}\``)
    .join(", ");
  const protocol = results.protocol["aci-bench"];
  return `Prompt: ${versions || "none"} (ours, not the paper's${typeof protocol === "string" ? `; ${protocol}` : ""}).`;
}

function reportIntro(results: BenchResults, dataset: BenchDataset): string[] {
  const aci = aciBenchDataset(dataset);
  return [
    runLine(results),
    engineLine(results),
    `Data: ${aci.info.name}, ${aci.dir}; split \`${results.split}\`.`,
    SCORING,
    `BERTScore, BLEURT and MEDCON are not computed: ${ACI_MODEL_METRICS_UNAVAILABLE}.`,
    "Beside ours, on the same visits: a floor that copies the conversation as the note, and the baseline outputs wyim/aci-bench ships for this split, scored here by the same code.",
  ];
}

/** ACI-Bench's family. */
export const ACI_BENCH_FAMILY: SuiteFamily = {
  id: "aci-bench",
  title: "the ACI-Bench suite",
  datasets: [ACI_BENCH_DATA],
  helpLabel: "ACI-Bench's",
  countLabel: "notes",
  order: "run",
  frameResultsTable: (table, results) =>
    `${table}\nACI-Bench split ${results.split}, scored as its official evaluate_fullnote.py (ROUGE-L is rougeLsum, as the paper's tables; x100).`,
  reportIntro,
};
