import { getDialogue } from "../../../src/data/meditod.ts";
import { nluExamples } from "../../../src/data/meditod-views.ts";
import type { CmasScores } from "../../../src/metrics/cmas-f1.ts";
import { isOfficialQuery } from "../../../src/modules/official/official-turns.ts";
import { f4 } from "../../shared/report-blocks.ts";
import { formatScore } from "../../shared/terminal-table.ts";
import { breakdownTables, cmasFormatErrors, cmasScoresText } from "./cmas-report.ts";
import { scoreNluPredictions } from "./meditod-scoring.ts";
import { historyTurns, meditodSuite, moduleOf } from "./meditod-suite.ts";
import { PAPER_BASELINES, paperBarLabel, paperRowLabel } from "./paper-baselines.ts";

const baselines = PAPER_BASELINES["meditod-nlu"];

/** MediTOD NLU: the frames of every patient turn, from the gold history; F1 overall, medical, non-medical. */
export const MEDITOD_NLU = meditodSuite({
  id: "meditod-nlu",
  module: "nlu",
  protocol: "patient turns; the module sees the gold dialogue history",
  // The official pipeline builds no query for a patient turn that ends its dialogue (prompt_gen.py).
  examples: (dataset, split, protocol) =>
    nluExamples(dataset, split).filter(
      (example) =>
        protocol !== "official" ||
        isOfficialQuery("nlu", getDialogue(dataset, example.dialogueId).utterances, example.turn),
    ),
  predict: async (example, modules, options) => {
    const { frames, ...info } = await moduleOf(modules.nlu, "nlu").understand(
      {
        history: historyTurns(example.history),
        utterance: example.text,
        dialogueId: example.dialogueId,
        turn: example.turn,
      },
      options,
    );
    return { prediction: frames ?? [], info };
  },
  score: (dataset, lines, judge) => scoreNluPredictions(dataset, lines, judge),
  resultCells: (scores: CmasScores) => [
    String(scores.samples),
    `F1 ${formatScore(scores.overall.f1)}`,
    `medical F1 ${formatScore(scores.medical.f1)}`,
    `non-medical F1 ${formatScore(scores.non_medical.f1)}`,
    `format errors ${formatScore(scores.format_errors)}`,
  ],
  reportSection: ({ scores, dataset, dir, ourLabel, chartLabel }) => ({
    tables: [
      {
        title: `MediTOD NLU (${scores.samples} patient turns)`,
        header: ["model", "overall F1", "medical F1", "non-medical F1", "joint acc.", "format errors"],
        rows: [
          [
            ourLabel,
            f4(scores.overall.f1),
            f4(scores.medical.f1),
            f4(scores.non_medical.f1),
            f4(scores.joint_accuracy),
            f4(scores.format_errors),
          ],
          ...baselines.map((row) => [
            paperRowLabel(row),
            f4(row.overall_f1),
            f4(row.medical_f1),
            f4(row.non_medical_f1),
            "",
            "",
          ]),
        ],
        ours: 0,
      },
      ...breakdownTables(dir, dataset, "meditod-nlu", "nlu"),
    ],
    charts: [
      {
        title: "NLU overall F1",
        max: 1,
        bars: [
          { label: chartLabel, value: scores.overall.f1, ours: true },
          ...baselines.map((row) => ({ label: paperBarLabel(row), value: row.overall_f1, ours: false })),
        ],
      },
    ],
  }),
  baselines,
  formatErrors: (lines, dataset) => cmasFormatErrors("nlu", lines, dataset),
  scoreCommand: {
    description: "NLU F1 (overall / medical / non-medical), joint accuracy, format errors.",
    predictionsHelp: "JSONL, one line per turn: {dialogue_id, turn, prediction}; - reads standard input",
    judged: true,
    print: (scores) => cmasScoresText("MediTOD NLU", scores),
  },
});
