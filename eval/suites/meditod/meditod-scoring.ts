import { AnamnesisError } from "../../../src/foundation/errors.ts";
import { getDialogue, type MeditodDataset, type Utterance } from "../../../src/data/meditod.ts";
import { isScoredDoctorTurn } from "../../../src/data/meditod-views.ts";
import {
  scoreCmas,
  scoreUnrolledTurns,
  unrollTurns,
  type CmasScores,
  type TurnToScore,
} from "../../../src/metrics/cmas-f1.ts";
import { precisionAtK, type PrecisionAtKDialogue } from "../../../src/metrics/precision-at-k.ts";
import { unrollActions } from "../../../src/cmas/scoring-tuples.ts";
import { exactJudge, type AttributeJudge } from "../../../src/metrics/attribute-judge.ts";
import { scoreMeditodNlg, withMeditodBertScore, type MeditodNlgResult } from "../../../src/metrics/meditod-nlg.ts";
import type { ModelMetricRequest } from "../../../src/metrics/model-metrics/model-metrics.ts";
import type { PredictionLine } from "../../shared/predictions-file.ts";
import { nlgReplyFormatError } from "../../../src/modules/prompting/nlg-reply-check.ts";

/** Policy scores: the NLU fields plus Precision@K keyed "1" … "10" and "inf". */
export type PolicyScores = CmasScores & { precision_at: Record<string, number> };

function describeTurn(utterance: Utterance | undefined): string {
  if (!utterance) return "it does not exist";
  return `it is a ${utterance.speaker} turn`;
}

/** The utterance a prediction line refers to, checked to be of the task's kind. */
function goldUtterance(dataset: MeditodDataset, line: PredictionLine, speaker: "patient" | "doctor"): Utterance {
  let dialogue;
  try {
    dialogue = getDialogue(dataset, line.dialogue_id);
  } catch (error) {
    if (error instanceof AnamnesisError) throw new AnamnesisError(error.code, `line ${line.line}: ${error.message}`);
    throw error;
  }
  const utterance = dialogue.utterances[line.turn];
  const scored =
    speaker === "patient"
      ? utterance?.speaker === "patient"
      : utterance !== undefined && isScoredDoctorTurn(utterance, line.turn);
  if (!scored) {
    const wanted = speaker === "patient" ? "a patient turn" : "a scored doctor turn (doctor turns except the first)";
    const why =
      utterance?.speaker === "doctor" && line.turn === 0
        ? "it is the opening doctor turn, which is not scored"
        : describeTurn(utterance);
    throw new AnamnesisError(
      "UNKNOWN_TURN",
      `line ${line.line}: dialogue ${line.dialogue_id} turn ${line.turn} is not ${wanted}: ${why}`,
    );
  }
  return utterance!;
}

/** The line's `format_error` (the model's output could not be read), as the scorer takes it. */
function outputFailure(line: PredictionLine): { outputFormatError?: string } {
  return typeof line.format_error === "string" ? { outputFormatError: line.format_error } : {};
}

/** NLG scores plus the share of turns whose reply was not an utterance. */
export type NlgScores = MeditodNlgResult & { format_errors: number };

/** Why an NLG line is a format error: its recorded reason, or a reply that is no utterance; else undefined. */
export function nlgLineFormatError(line: { format_error?: unknown; prediction: unknown }): string | undefined {
  if (typeof line.format_error === "string") return line.format_error;
  return typeof line.prediction === "string" ? nlgReplyFormatError(line.prediction) : undefined;
}

/** Scores NLU predictions (patient turns) against the dataset's gold frames. */
export async function scoreNluPredictions(
  dataset: MeditodDataset,
  lines: readonly PredictionLine[],
  judge: AttributeJudge = exactJudge,
): Promise<CmasScores> {
  const turns: TurnToScore[] = lines.map((line) => {
    const utterance = goldUtterance(dataset, line, "patient");
    return {
      gold: utterance.speaker === "patient" ? utterance.nlu : [],
      prediction: line.prediction,
      ...outputFailure(line),
    };
  });
  return scoreCmas("nlu", turns, judge);
}

/** Scores policy predictions (doctor turns but the first) and Precision@K per dialogue. */
export async function scorePolicyPredictions(
  dataset: MeditodDataset,
  lines: readonly PredictionLine[],
  judge: AttributeJudge = exactJudge,
): Promise<PolicyScores> {
  const turns: TurnToScore[] = lines.map((line) => {
    const utterance = goldUtterance(dataset, line, "doctor");
    return {
      gold: utterance.speaker === "doctor" ? utterance.actions : [],
      prediction: line.prediction,
      ...outputFailure(line),
    };
  });
  const unrolled = unrollTurns("pol", turns);
  const scores = await scoreUnrolledTurns(unrolled, judge);
  const byDialogue = new Map<string, PrecisionAtKDialogue & { positions: Map<number, number> }>();
  lines.forEach((line, index) => {
    let entry = byDialogue.get(line.dialogue_id);
    if (!entry) {
      const gold: PrecisionAtKDialogue["gold"][number][] = [];
      const positions = new Map<number, number>();
      getDialogue(dataset, line.dialogue_id).utterances.forEach((utterance, turn) => {
        if (utterance.speaker !== "doctor" || !isScoredDoctorTurn(utterance, turn)) return;
        positions.set(turn, gold.length);
        gold.push(unrollActions(utterance.actions));
      });
      entry = { gold, positions, predictions: [] };
      byDialogue.set(line.dialogue_id, entry);
    }
    (entry.predictions as Array<PrecisionAtKDialogue["predictions"][number]>).push({
      position: entry.positions.get(line.turn)!,
      prediction: unrolled[index]!.prediction,
    });
  });
  return { ...scores, precision_at: precisionAtK([...byDialogue.values()]) };
}

/**
 * Scores NLG predictions (doctor turns but the first) against the gold doctor utterances; an empty,
 * `null` or HTML reply, or a line with a `format_error`, counts as a format error (and is scored as written). A prediction
 * that is not a string cannot be scored as text: it raises an error naming its line.
 */
export async function scoreNlgPredictions(
  dataset: MeditodDataset,
  lines: readonly PredictionLine[],
  models: ModelMetricRequest = {},
): Promise<NlgScores> {
  const references: string[] = [];
  const predictions: string[] = [];
  for (const line of lines) {
    const utterance = goldUtterance(dataset, line, "doctor");
    if (typeof line.prediction !== "string") {
      throw new AnamnesisError(
        "INVALID_JSON",
        `line ${line.line}: prediction must be the doctor's utterance as a string`,
      );
    }
    predictions.push(line.prediction);
    references.push(utterance.text);
  }
  const formatErrors = lines.filter((line) => nlgLineFormatError(line) !== undefined).length;
  const scores = await withMeditodBertScore(
    scoreMeditodNlg(predictions, references),
    predictions,
    references,
    models.bertscore,
  );
  return { ...scores, format_errors: lines.length > 0 ? formatErrors / lines.length : 0 };
}
