import { policyExamples } from "../../../src/data/meditod-views.ts";
import { f4 } from "../../shared/report-blocks.ts";
import { formatScore } from "../../shared/terminal-table.ts";
import { breakdownTables, cmasFormatErrors, cmasScoresText } from "./cmas-report.ts";
import { scorePolicyPredictions, type PolicyScores } from "./meditod-scoring.ts";
import { historyTurns, meditodSuite, moduleOf } from "./meditod-suite.ts";
import { PAPER_BASELINES, paperBarLabel, paperRowLabel } from "./paper-baselines.ts";

const baselines = PAPER_BASELINES["meditod-pol"];

/** MediTOD POL: the actions of every doctor turn but the first, from the gold history and state; F1 and Precision@K. */
export const MEDITOD_POL = meditodSuite({
  id: "meditod-pol",
  module: "policy",
  protocol: "doctor turns except the first; the module sees the gold history and the gold dialogue state",
  examples: (dataset, split) => policyExamples(dataset, split),
  predict: async (example, modules, options) => {
    const { actions, ...info } = await moduleOf(modules.policy, "policy").nextActions(
      {
        history: historyTurns(example.history),
        state: example.state,
        dialogueId: example.dialogueId,
        turn: example.turn,
      },
      options,
    );
    return { prediction: actions ?? [], info };
  },
  score: (dataset, lines, judge) => scorePolicyPredictions(dataset, lines, judge),
  resultCells: (scores: PolicyScores) => [
    String(scores.samples),
    `F1 ${formatScore(scores.overall.f1)}`,
    `P@1 ${formatScore(scores.precision_at["1"])}`,
    `P@4 ${formatScore(scores.precision_at["4"])}`,
    `P@inf ${formatScore(scores.precision_at.inf)}`,
    `format errors ${formatScore(scores.format_errors)}`,
  ],
  reportSection: ({ scores, dataset, dir, ourLabel, chartLabel }) => ({
    tables: [
      {
        title: `MediTOD POL (${scores.samples} doctor turns)`,
        header: ["model", "overall F1", "medical F1", "non-medical F1", "P@1", "P@4", "P@8", "P@inf", "format errors"],
        rows: [
          [
            ourLabel,
            f4(scores.overall.f1),
            f4(scores.medical.f1),
            f4(scores.non_medical.f1),
            f4(scores.precision_at["1"]),
            f4(scores.precision_at["4"]),
            f4(scores.precision_at["8"]),
            f4(scores.precision_at.inf),
            f4(scores.format_errors),
          ],
          ...baselines.map((row) => [
            paperRowLabel(row),
            f4(row.overall_f1),
            f4(row.medical_f1),
            f4(row.non_medical_f1),
            f4(row.p_at_1),
            f4(row.p_at_4),
            f4(row.p_at_8),
            f4(row.p_at_inf),
            "",
          ]),
        ],
        ours: 0,
      },
      ...breakdownTables(dir, dataset, "meditod-pol", "pol"),
    ],
    charts: [
      {
        title: "POL overall F1",
        max: Math.max(0.5, scores.overall.f1),
        bars: [
          { label: chartLabel, value: scores.overall.f1, ours: true },
          ...baselines.map((row) => ({ label: paperBarLabel(row), value: row.overall_f1, ours: false })),
        ],
      },
    ],
  }),
  baselines,
  formatErrors: (lines, dataset) => cmasFormatErrors("pol", lines, dataset),
  scoreCommand: {
    description: "Policy F1 and Precision@K (K = 1, 2, 4, 6, 8, 10, inf).",
    predictionsHelp: "JSONL, one line per turn: {dialogue_id, turn, prediction}; - reads standard input",
    judged: true,
    print: (scores) => cmasScoresText("MediTOD POL", scores),
  },
});
