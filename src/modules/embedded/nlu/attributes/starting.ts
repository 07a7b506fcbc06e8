import { extractHabitStarting } from "../habit-attributes.ts";
import { extractOnsetAnswer } from "../time-expressions.ts";
import { setFound, type AttributeExtractor } from "./attribute-extractor.ts";
import type { CollectedEntry } from "../frame-builder.ts";
import type { TurnRecord } from "../turn-record.ts";

/** "How long have you smoked?", "when did you start drinking?". */
const STARTING_CUE =
  /\bhow long have you (?:smoked|been smoking|been drinking|drunk|used|been using)|when did you (?:start|begin) (?:smoking|drinking|using)|how many years have you (?:smoked|been)|started smoking|start smoking\b/;

/**
 * When something began: a habit or a past condition starts ("for 25 years" → "25 years ago", "since I
 * was 18"), a symptom has an onset. Shared by `onset` and `starting`, which doctors ask alike.
 */
export function readStart(turn: TurnRecord, entry: CollectedEntry): boolean {
  const { text } = turn.analysed;
  if (entry.base === "habit" || entry.base === "medical_history")
    return setFound(turn, entry, "starting", extractHabitStarting(text));
  return setFound(turn, entry, "onset", extractOnsetAnswer(text));
}

/** When a habit or condition started. */
export const starting = {
  name: "starting",
  appliesTo: ["habit", "medical_history"],
  questionCue: STARTING_CUE,
  readAnswer: readStart,
  example: {
    history: ["Do you smoke?", "Yes, a pack a day."],
    question: "How long have you been smoking?",
    answer: "Probably at least 25 years.",
    attribute: "starting",
    expected: "25 years ago",
  },
} as const satisfies AttributeExtractor;
