import { AnamnesisError } from "../../../src/foundation/errors.ts";
import type { AciBenchSplit } from "../../../src/data/aci-bench.ts";
import { noteSplit } from "../../../src/data/note-dataset.ts";
import { NOTE_LINES, readLinesOf, type NotePredictionLine } from "../../shared/predictions-file.ts";
import { join } from "node:path";
import { EMBEDDED_BACKEND_ID } from "../../../src/modules/builders/create-modules.ts";
import { predictionsPath, readJsonFile } from "../../shared/run-directory.ts";
import type { Suite, SuiteReportContext } from "../../shared/suite.ts";
import type { ReportSection } from "../../shared/report-blocks.ts";
import { aciBenchDataset } from "./aci-bench-data.ts";
import { ACI_BENCH_FAMILY } from "./aci-bench-family.ts";
import { ACI_EXEMPLARS, AciExemplarFinder, aciNoteRequest, aciPromptVersion, NOTE_TOKENS } from "./aci-bench-prompt.ts";
import { datasetTable, divisionTable, fullNoteTable, percent, type ScoredRow } from "./aci-bench-report.ts";
import { ACI_BENCH_SCORE_COMMAND } from "./aci-bench-score-command.ts";
import { scoreAciBenchLines, type AciBenchScores } from "./aci-bench-scores.ts";
import { comparisonRows } from "./shipped-baselines.ts";

/**
 * ACI-Bench (Yim et al. 2023): a whole doctor–patient visit in, the clinician's visit note out, scored
 * as the repository's official evaluate_fullnote.py (ROUGE; BERTScore and BLEURT from the user's
 * reference or a local ONNX export when asked, else null with the reason; MEDCON through the user's
 * QuickUMLS, else null with the reason). The embedded engine writes the visit note from the tracked
 * state and the doctor's statements (src/modules/embedded/notes/visit-note-reader.ts); prompted
 * backends use our few-shot prompt (aci-bench-prompt.ts).
 */

/** What a prompted module sees, for run records. */
const PROTOCOL = `one visit at a time: our prompt (prompts/aci-bench-note.v1.txt) as the system message, the ${ACI_EXEMPLARS} training visits nearest by BM25 over the conversations as worked examples (conversation, then the clinician's note; as many as fit --context-tokens, default 8192, beside ${NOTE_TOKENS} tokens for the note), then the visit's conversation; greedy, at most ${NOTE_TOKENS} tokens; scored as evaluate_fullnote.py (ROUGE per note and per division, numpy means per dataset and division; the paper's ROUGE-L is rougeLsum)`;

/** The report's tables: ours beside the floor and the shipped baselines, on the visits the run scored. */
function reportSection({ scores, dataset, dir, ourLabel }: SuiteReportContext<AciBenchScores>): ReportSection {
  const aci = aciBenchDataset(dataset);
  const lines = readLinesOf(predictionsPath(dir, ACI_BENCH.id), NOTE_LINES) as NotePredictionLine[];
  const scored = new Set(lines.map((line) => line.id));
  const encounters = aci.splits[scores.split as AciBenchSplit].filter((encounter) => scored.has(encounter.id));
  // The embedded engine's note is rules over the visit, not a model: the table says so beside the figures.
  const backend = readJsonFile<{ backend?: string }>(join(dir, "run.json"))?.backend;
  const label =
    backend === EMBEDDED_BACKEND_ID ? `${ourLabel}: the visit note from the tracked state (rules, offline)` : ourLabel;
  const rows: ScoredRow[] = [
    { label, scores },
    ...comparisonRows(aci, scores.split as AciBenchSplit, encounters).map((row) => ({
      label: row.model,
      scores: row.scores,
    })),
  ];
  const subset =
    scores.notes < scores.split_notes
      ? `, ${scores.notes} of ${scores.split_notes} notes: not comparable with the paper`
      : "";
  return {
    tables: [
      fullNoteTable(`ACI-Bench full note, ${scores.split} (${scores.notes} notes${subset}; x100)`, rows),
      divisionTable(rows),
      datasetTable(rows),
    ],
    charts: [
      {
        title: "ACI-Bench ROUGE-1 (full note)",
        bars: rows.map((row, index) => ({
          label: index === 0 ? "this run" : row.label,
          value: row.scores.rouge.ALL!.rouge1 * 100,
          ours: index === 0,
        })),
        max: 100,
      },
    ],
  };
}

/** ACI-Bench: a full visit note from a whole conversation. */
export const ACI_BENCH: Suite<"aci-bench", AciBenchScores> = {
  id: "aci-bench",
  family: ACI_BENCH_FAMILY,
  data: "aci-bench",
  module: "note",
  protocol: PROTOCOL,
  format: NOTE_LINES,
  prompt: {
    module: "note",
    get version() {
      return aciPromptVersion();
    },
  },
  examples: (dataset, split) => {
    const aci = aciBenchDataset(dataset);
    const finder = new AciExemplarFinder(aci);
    return noteSplit(aci, split).map((document) => {
      const encounter = aci.encounters.get(document.id)!;
      return {
        key: encounter.id,
        fields: { id: encounter.id },
        predict: async (modules, options) => {
          if (!modules.note) throw new AnamnesisError("INVALID_ARGUMENT", "aci-bench needs a note writer");
          const { text, ...info } = await modules.note.write(
            aciNoteRequest(encounter, finder.nearest(encounter)),
            options,
          );
          return { prediction: text, info };
        },
      };
    });
  },
  score: async (dataset, lines, _judge, models) =>
    scoreAciBenchLines(aciBenchDataset(dataset), lines as readonly NotePredictionLine[], models),
  resultCells: (scores) => {
    const all = scores.rouge.ALL!;
    return [
      String(scores.notes),
      `ROUGE-1 ${percent(all.rouge1)}`,
      `ROUGE-2 ${percent(all.rouge2)}`,
      `ROUGE-L ${percent(all.rougeLsum)}`,
    ];
  },
  reportSection,
  baselines: [],
  scoreCommand: ACI_BENCH_SCORE_COMMAND,
};
