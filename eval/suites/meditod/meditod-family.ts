import { BUNDLED_MEDITOD_DIR, type Split } from "../../../src/data/meditod.ts";
import { PROTOCOLS } from "../../../src/modules/builders/modules-for-protocol.ts";
import type { BenchDataset } from "../../shared/bench-dataset.ts";
import type { BenchResults } from "../../shared/bench-results.ts";
import { describeProtocol } from "../../shared/protocol-label.ts";
import { runLine } from "../../shared/report-blocks.ts";
import type { SuiteFamily } from "../../shared/suite-family.ts";
import { MEDITOD_DATA, meditodDataset } from "./meditod-data.ts";
import { PAPER_BASELINES } from "./paper-baselines.ts";

/**
 * The MediTOD suites' family: NLU, POL and NLG on MediTOD's dialogues, under the paper's protocol (NLU
 * sees the gold history; the policy the gold history and state; NLG the gold history and actions),
 * prompted the official way, ours, or not at all (the embedded engine).
 */

/** What each protocol is, beside its name in the report. */
const PROTOCOL_NOTES: Record<string, string> = {
  official: "dair-iitd/MediTOD's in-context pipeline, step for step",
  anamnesis: "ours, not the paper's pipeline",
  embedded: "the offline engine, not prompted",
};

/** The protocol line, and for a run on dialogues the engine was shaped on, the warning. */
function protocolLines(results: BenchResults): string[] {
  const name = typeof results.protocol.name === "string" ? results.protocol.name : "";
  const differences =
    typeof results.protocol.differences_from_the_paper === "string"
      ? ` Differences from the paper: ${results.protocol.differences_from_the_paper}.`
      : "";
  const lines = [
    `Protocol: ${describeProtocol(results.protocol)}${PROTOCOL_NOTES[name] ? ` (${PROTOCOL_NOTES[name]})` : ""}.${differences}`,
  ];
  if (results.tuned_on_split)
    lines.push(
      `**${results.tuned_on_split}.** These figures are not an estimate of how the engine does on unseen dialogues.`,
    );
  return lines;
}

/** The report's opening: the run, the protocol, the prompts and the judge, and what the paper's figures are measured on. */
function reportIntro(results: BenchResults, dataset: BenchDataset): string[] {
  const meditod = meditodDataset(dataset);
  const caveat =
    meditod.dir === BUNDLED_MEDITOD_DIR
      ? `Our figures are on the bundled public sample (${results.split} split: ${meditod.splits[results.split as Split]?.length ?? 0} dialogue). The paper's figures are on ${PAPER_BASELINES.test_set}: a different test set, shown for orientation only.`
      : `The paper's figures are on ${PAPER_BASELINES.test_set}.`;
  const templates = Object.entries(results.prompt_versions)
    .map(([task, version]) => `${task} \`${version}\``)
    .join(", ");
  return [
    runLine(results),
    ...protocolLines(results),
    // The protocol line already says when there are no prompts; templates are named when there are.
    `${templates ? `Prompt templates: ${templates}. ` : ""}Non-medical matching: \`${String(results.protocol.judge)}\`${results.protocol.judge === "exact" ? " (exact match, stricter than the paper's LLM judge)" : ""}.`,
    caveat,
    `Paper baselines: ${PAPER_BASELINES.source}`,
  ];
}

/** The MediTOD suites' family. */
export const MEDITOD_FAMILY: SuiteFamily = {
  id: "meditod",
  title: "the MediTOD suites",
  datasets: [MEDITOD_DATA],
  alias: { word: "meditod", suites: ["meditod-nlu", "meditod-pol", "meditod-nlg"], description: "all three" },
  protocols: PROTOCOLS,
  countLabel: "turns",
  // The paper's order, NLU, POL, NLG, whichever order the suites were asked for.
  order: "registry",
  frameResultsTable: (table, results) =>
    `protocol ${describeProtocol(results.protocol)}\n${table}${results.tuned_on_split ? `\n${results.tuned_on_split}` : ""}`,
  reportIntro,
};
