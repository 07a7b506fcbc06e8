import { nlgExamples } from "../../../src/data/meditod-views.ts";
import type { MeditodNlgResult } from "../../../src/metrics/meditod-nlg.ts";
import { f1d, f4 } from "../../shared/report-blocks.ts";
import { formatScore, formatTable } from "../../shared/terminal-table.ts";
import { nlgLineFormatError, scoreNlgPredictions } from "./meditod-scoring.ts";
import { historyTurns, meditodSuite, moduleOf } from "./meditod-suite.ts";
import { PAPER_BASELINES, paperBarLabel, paperRowLabel } from "./paper-baselines.ts";

const baselines = PAPER_BASELINES["meditod-nlg"];

/** NLG scores; `format_errors` is absent from results.json files written before it was scored. */
type NlgResultScores = MeditodNlgResult & { format_errors?: number };

/** MediTOD NLG: the doctor's words for every doctor turn but the first, from the gold history and actions; BLEU and ROUGE. */
export const MEDITOD_NLG = meditodSuite({
  id: "meditod-nlg",
  module: "nlg",
  protocol: "doctor turns except the first; the module sees the gold history and the gold actions",
  examples: (dataset, split) => nlgExamples(dataset, split),
  predict: async (example, modules, options) => {
    const { text, ...info } = await moduleOf(modules.nlg, "nlg").realise(
      {
        history: historyTurns(example.history),
        actions: example.actions,
        dialogueId: example.dialogueId,
        turn: example.turn,
      },
      options,
    );
    return { prediction: text, info };
  },
  score: async (dataset, lines, _judge, models) => scoreNlgPredictions(dataset, lines, models),
  resultCells: (scores: NlgResultScores) => [
    String(scores.samples),
    `BLEU-2 ${scores.bleu2.toFixed(2)}`,
    `BLEU-4 ${scores.bleu4.toFixed(2)}`,
    `ROUGE-1 ${formatScore(scores.rouge1)}`,
    `ROUGE-L ${formatScore(scores.rougeL)}`,
    ...(scores.bertscore !== null ? [`BERTScore ${formatScore(scores.bertscore)}`] : []),
    ...(scores.format_errors !== undefined ? [`format errors ${formatScore(scores.format_errors)}`] : []),
  ],
  reportSection: ({ scores, ourLabel, chartLabel }) => ({
    tables: [
      {
        title: `MediTOD NLG (${scores.samples} doctor turns)`,
        header: ["model", "BLEU-2", "BLEU-4", "ROUGE-1", "ROUGE-L", "BERTScore", "format errors"],
        rows: [
          [
            ourLabel,
            f1d(scores.bleu2),
            f1d(scores.bleu4),
            scores.rouge1.toFixed(3),
            scores.rougeL.toFixed(3),
            scores.bertscore === null ? "n/a" : scores.bertscore.toFixed(3),
            f4(scores.format_errors),
          ],
          ...baselines.map((row) => [
            paperRowLabel(row),
            f1d(row.bleu2),
            f1d(row.bleu4),
            row.rouge1.toFixed(3),
            row.rougeL.toFixed(3),
            row.bertscore.toFixed(3),
            "",
          ]),
        ],
        ours: 0,
      },
    ],
    charts: [
      {
        title: "NLG BLEU-4",
        max: Math.max(20, scores.bleu4),
        bars: [
          { label: chartLabel, value: scores.bleu4, ours: true },
          ...baselines.map((row) => ({ label: paperBarLabel(row), value: row.bleu4, ours: false })),
        ],
      },
    ],
  }),
  baselines,
  formatErrors: (lines) =>
    lines.flatMap((line) => {
      const reason = nlgLineFormatError(line);
      return reason ? [{ line, reason }] : [];
    }),
  scoreCommand: {
    description:
      "NLG BLEU-2/4 (nltk corpus, x100), ROUGE-1/L (mean F1), and BERTScore (roberta-large L17, mean F1) with --bertscore python or --bertscore-model DIR.",
    predictionsHelp: "JSONL, one line per doctor turn: {dialogue_id, turn, prediction: text}; - reads standard input",
    judged: false,
    modelMetrics: ["bertscore"],
    print: (scores) => {
      const row = [
        String(scores.samples),
        scores.bleu2.toFixed(2),
        scores.bleu4.toFixed(2),
        formatScore(scores.rouge1),
        formatScore(scores.rougeL),
        scores.bertscore === null ? "-" : formatScore(scores.bertscore),
        formatScore(scores.format_errors),
      ];
      return `MediTOD NLG\n${formatTable(["turns", "BLEU-2", "BLEU-4", "ROUGE-1", "ROUGE-L", "BERTScore", "format errors"], [row])}\n(${scores.bertscore_reason})\n`;
    },
  },
});
