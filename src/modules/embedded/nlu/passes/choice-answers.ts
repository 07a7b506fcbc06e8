import { CHOICE_SLOTS, CHOOSES_ALL } from "../../../../language/choice-questions.ts";
import type { AskedItem } from "../question-types.ts";
import type { TurnRecord } from "../turn-record.ts";
import { medicalItems } from "./question-answers.ts";

/**
 * Pass 7d, the answer to "Which have you had: fevers or weight loss, or both?"
 * (`language/choice-questions.ts`): "both" or "all of them" picks every finding offered; naming some
 * ("just the fevers") picks those, and the ones not picked are absent. A "no" is read as a denial of
 * them all by the yes/no answers; an unsure answer leaves them unknown.
 */

/** Whether the turn names the item itself as present (not only through the question). */
function picked(turn: TurnRecord, item: AskedItem): boolean {
  return turn.entries
    .all()
    .some((entry) => entry.attributes.value === item.value && entry.status === "positive" && !entry.fromQuestion);
}

/** Reads the patient's pick among the findings a "which" question offered. */
export function answerChoice(turn: TurnRecord): void {
  const { question } = turn.context;
  if (!question.choosesAmong || turn.polarity === "no" || turn.polarity === "unknown") return;
  const offered = medicalItems(turn).real.filter((item) => (CHOICE_SLOTS as readonly string[]).includes(item.slot));
  if (offered.length < 2) return;
  if (CHOOSES_ALL.test(turn.analysed.text)) {
    for (const item of offered) turn.entries.add(item.slot, "positive", item.value, true);
    return;
  }
  if (!offered.some((item) => picked(turn, item))) return;
  for (const item of offered) if (!picked(turn, item)) turn.entries.add(item.slot, "negative", item.value, true);
}
