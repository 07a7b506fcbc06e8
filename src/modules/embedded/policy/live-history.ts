import type { DialogueState } from "../../../cmas/schemas.ts";
import { evidenceFor } from "../../../clinical/criteria.ts";
import { askOf, type Ask } from "./actions.ts";
import type { ConversationReader, ConversationReading } from "./conversation-reader.ts";
import type { HistoryPlan, PlanItem } from "../../../language/history-plan.ts";
import type { StateFacts } from "./state-facts.ts";
import { namesValue } from "../../../language/lay-terms.ts";
import { CHOICE_SLOTS, isChoiceClarification } from "../../../language/choice-questions.ts";
import type { DialogueTurn } from "../../../language/module-interfaces.ts";

/**
 * What a live history (chat, self-play) asks beyond the training doctors' habits, as a clinician
 * would (`live_history` of `ontology/history-plan.json`): screening items once the state meets their
 * criterion (night sweats once weight loss is found), and the follow-ups of a slot asked of every
 * positive entry (a medication's dose, what it is for, whether it helps). The MediTOD benchmark
 * leaves both out: its score is agreement with the annotated doctors.
 */

/** The first screening item whose criterion the state meets and that is still open, or undefined. */
export function screenItem(
  plan: HistoryPlan,
  state: DialogueState,
  open: (item: PlanItem) => boolean,
): PlanItem | undefined {
  for (const screen of plan.file.live_history.screens) {
    const item = plan.itemsById.get(screen.item)!;
    if (open(item) && evidenceFor(screen.when, state) !== null) return item;
  }
  return undefined;
}

/** Whether the plan asks a live follow-up of every positive entry of this slot. */
export function hasLiveFollowUp(plan: HistoryPlan, slot: string): boolean {
  return plan.file.live_history.follow_up[slot] !== undefined;
}

/**
 * The next live follow-up: the slots the last exchange was about (an item of the slot asked, as in
 * "Are you taking any medications?", or a positive entry of it named, as in "How often do you take the
 * levothyroxine?"), each positive entry's follow-up checks in order, skipping what the state knows
 * and what a doctor turn naming the entry already asked.
 */
export function liveFollowUp(
  plan: HistoryPlan,
  reader: ConversationReader,
  conversation: ConversationReading,
  facts: StateFacts,
  doctorTexts: readonly string[],
): Ask | undefined {
  const last = conversation.lastDoctor;
  const lastText = conversation.lastDoctorText;
  if (!last || lastText === undefined) return undefined;
  for (const [slot, checks] of Object.entries(plan.file.live_history.follow_up)) {
    const positives = facts.positives(slot).filter((value) => !plan.file.follow_up_exempt.includes(value));
    const about =
      last.items.some((id) => plan.itemsById.get(id)!.slot === slot) ||
      positives.some((value) => namesValue(lastText, slot, value));
    if (!about) continue;
    for (const value of positives) {
      for (const check of checks) {
        if (facts.hasAttribute(slot, value, plan.file.check_attributes[check] ?? [check])) continue;
        if (doctorTexts.some((text) => namesValue(text, slot, value) && reader.readDoctor(text).checks.includes(check)))
          continue;
        return askOf(slot, value, check);
      }
    }
  }
  return undefined;
}

/**
 * A yes that names neither finding of "any fevers or weight loss?" left both unknown (`language/choice-questions.ts`): the asks
 * of "which have you had?", the unknown findings the doctor's last question named. Undefined when
 * fewer than two, or when that question was already a "which" question (it is asked once).
 */
export function choiceToClarify(history: readonly DialogueTurn[], facts: StateFacts): Ask[] | undefined {
  const question = history.at(-2);
  if (question?.speaker !== "doctor") return undefined;
  const asks = CHOICE_SLOTS.flatMap((slot) =>
    facts
      .entries(slot)
      .filter((item) => item.status === "unknown" && typeof item.entry.value === "string")
      .map((item) => askOf(slot, item.entry.value as string))
      .filter((ask) => namesValue(question.text, ask.slot, ask.value)),
  );
  return isChoiceClarification(history, asks) ? asks : undefined;
}
