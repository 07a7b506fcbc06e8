import { getDialogue, type MeditodDataset } from "../../../src/data/meditod.ts";
import { cmasBreakdown, type BreakdownRow } from "../../../src/metrics/cmas-breakdown.ts";
import { unrollTurns, type CmasScores, type CmasTask } from "../../../src/metrics/cmas-f1.ts";
import { readPredictionLines, type PredictionLine } from "../../shared/predictions-file.ts";
import { f4, type ReportTable } from "../../shared/report-blocks.ts";
import { predictionsPath } from "../../shared/run-directory.ts";
import type { FormatError } from "../../shared/suite.ts";
import { formatScore, formatTable } from "../../shared/terminal-table.ts";
import type { PolicyScores } from "./meditod-scoring.ts";

/**
 * What the two CMAS suites (NLU and POL, scored on frames and actions) show besides their headline:
 * F1 by slot and by attribute or check type, the lines whose output could not be read, and the
 * terminal's precision/recall table of `anamnesis score`.
 */

/** The gold frames (NLU) or actions (POL) of a turn. */
function goldFor(
  task: CmasTask,
  dataset: MeditodDataset,
  dialogueId: string,
  turn: number,
): ReadonlyArray<Record<string, unknown>> {
  const utterance = getDialogue(dataset, dialogueId).utterances[turn]!;
  return utterance.speaker === "patient"
    ? task === "nlu"
      ? utterance.nlu
      : []
    : task === "pol"
      ? utterance.actions
      : [];
}

function breakdownTable(title: string, rows: Record<string, BreakdownRow>, label: string): ReportTable {
  return {
    title,
    header: [label, "precision", "recall", "F1", "gold", "predicted"],
    rows: Object.entries(rows)
      .sort(([, a], [, b]) => b.support - a.support)
      .map(([key, row]) => [
        key,
        f4(row.precision),
        f4(row.recall),
        f4(row.f1),
        String(row.support),
        String(row.predicted),
      ]),
  };
}

/** F1 by slot, and by attribute (NLU) or check type (POL), from the suite's predictions file in `dir`. */
export function breakdownTables(dir: string, dataset: MeditodDataset, suite: string, task: CmasTask): ReportTable[] {
  const lines = readPredictionLines(predictionsPath(dir, suite));
  const unrolled = unrollTurns(
    task,
    lines.map((line) => ({ gold: goldFor(task, dataset, line.dialogue_id, line.turn), prediction: line.prediction })),
  );
  const { bySlot, byAttribute } = cmasBreakdown(task, unrolled);
  const name = task === "nlu" ? "NLU" : "POL";
  const kind = task === "nlu" ? "attribute" : "check type";
  return [
    breakdownTable(`${name} F1 by slot`, bySlot, "slot"),
    breakdownTable(`${name} F1 by ${kind}`, byAttribute, kind),
  ];
}

/** Lines whose output could not be read as frames or actions (or was not valid), with the reason. */
export function cmasFormatErrors(
  task: CmasTask,
  lines: readonly PredictionLine[],
  dataset: MeditodDataset,
): FormatError[] {
  const turns = lines.map((line) => ({
    gold: goldFor(task, dataset, line.dialogue_id, line.turn),
    prediction: line.prediction,
    ...(typeof line.format_error === "string" ? { outputFormatError: line.format_error } : {}),
  }));
  return unrollTurns(task, turns).flatMap((turn, index) =>
    turn.outputFailed || (!turn.skipped && turn.prediction === null)
      ? [{ line: lines[index]!, reason: turn.formatError ?? "invalid" }]
      : [],
  );
}

/** `anamnesis score meditod-nlu|pol` without `--json`: precision, recall and F1, and Precision@K for the policy. */
export function cmasScoresText(title: string, scores: CmasScores | PolicyScores): string {
  const rows = (["overall", "medical", "non_medical"] as const).map((part) => [
    part,
    formatScore(scores[part].precision),
    formatScore(scores[part].recall),
    formatScore(scores[part].f1),
  ]);
  let text = `${title}: ${scores.samples} turns, joint accuracy ${formatScore(scores.joint_accuracy)}, format errors ${formatScore(scores.format_errors)}\n`;
  text += `${formatTable(["", "precision", "recall", "F1"], rows)}\n`;
  if ("precision_at" in scores) {
    const ks = Object.keys(scores.precision_at);
    text += `\n${formatTable(
      ks.map((k) => `P@${k}`),
      [ks.map((k) => formatScore(scores.precision_at[k]))],
    )}\n`;
  }
  return text;
}
