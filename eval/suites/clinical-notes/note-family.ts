import { AnamnesisError } from "../../../src/foundation/errors.ts";
import { isNoteDataset, type BenchDataset } from "../../shared/bench-dataset.ts";
import type { BenchResults } from "../../shared/bench-results.ts";
import { runLine } from "../../shared/report-blocks.ts";
import type { SuiteFamily } from "../../shared/suite-family.ts";
import { MEDTEXT_DATA, MTS_DIALOG_DATA } from "./note-data.ts";

/**
 * The clinical-note suites' family: lm-evaluation-harness's mts_dialog and medtext tasks and their
 * perplexity variants, one document at a time. lm-eval publishes no reference scores for them, so the
 * report shows ours alone, with whether the run is comparable with lm-eval's numbers at all.
 */

/**
 * MEDIQA-Chat 2023 task A's suite reads the same MTS-Dialog data under the challenge's official
 * settings (a section header, accuracy), not lm-eval's: the report and the results table say so.
 */
export const MEDIQA_CHAT_A_ID = "mediqa-chat-a";

/** What the report and the results table say when task A is in the run. */
const TASK_A_LABEL =
  "mediqa-chat-a is MEDIQA-Chat 2023 task A under its official settings (which of the 20 section headers a dialogue belongs under, scored by accuracy; the challenge's test set is test1), not lm-eval's mts_dialog settings; its floor names the most common training header every time.";

/** The perplexity variants score log-likelihoods; the others generate text. */
export function isPerplexitySuite(id: string): boolean {
  return id.endsWith("-perplexity");
}

/** The protocol's prompt as the report prints it: its text, or its JSON when it is structured. */
function promptText(prompt: unknown): string {
  return typeof prompt === "string" ? prompt : prompt === undefined ? "" : JSON.stringify(prompt);
}

/** The report's opening: the run, the engine or prompt, the data and whether lm-eval's numbers compare. */
function reportIntro(results: BenchResults, dataset: BenchDataset): string[] {
  if (!isNoteDataset(dataset))
    throw new AnamnesisError("INVALID_ARGUMENT", "the clinical-note suites need a clinical-note dataset");
  const { info } = dataset;
  const data = results.dataset;
  const engine =
    typeof results.protocol.engine === "string"
      ? `Engine: ${results.protocol.engine}.`
      : `Prompt: ${
          Object.values(results.prompt_versions)
            .map((version) => `\`${version}\``)
            .join(", ") || "none"
        } (${promptText(results.protocol.prompt)}).`;
  const intro = [
    runLine(results),
    engine,
    data
      ? `Data: ${data.name}; ${data.source}; split \`${data.split}\` (${data.documents} documents); target: ${data.target}.`
      : `Data: ${info.name}.`,
    `**${data?.comparable_with_lm_eval ? "Comparable" : "Not comparable"} with lm-evaluation-harness's numbers.** ${data?.note ?? info.note}`,
    "lm-evaluation-harness publishes no reference scores for these tasks, so no baselines are shown beside ours.",
  ];
  if (Object.keys(results.suites).some((suite) => !isPerplexitySuite(suite) && suite !== MEDIQA_CHAT_A_ID)) {
    intro.push(
      "BLEU and ROUGE are lm-eval's per-document values (HF evaluate bleu on 13a tokens with the 1e-5 nudge, rouge_score F without stemming) averaged with nanmean; BLEURT and BERTScore need model weights that are not bundled.",
    );
  }
  if (MEDIQA_CHAT_A_ID in results.suites) intro.push(`**${TASK_A_LABEL}**`);
  return intro;
}

/** The clinical-note suites' family. */
export const NOTE_FAMILY: SuiteFamily = {
  id: "clinical-notes",
  title: "the clinical-note suites",
  datasets: [MTS_DIALOG_DATA, MEDTEXT_DATA],
  helpLabel: "lm-eval's clinical-note suites",
  countLabel: "documents",
  order: "run",
  frameResultsTable: (table, results) => {
    const data = results.dataset!;
    const taskA = MEDIQA_CHAT_A_ID in results.suites ? `\n${TASK_A_LABEL}` : "";
    return `${table}\n${data.name}, split ${data.split}: ${data.comparable_with_lm_eval ? "comparable" : "not comparable"} with lm-evaluation-harness's numbers (see the report).${taskA}`;
  },
  reportIntro,
};
