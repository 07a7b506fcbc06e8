import type { DialogueState } from "../../../cmas/schemas.ts";
import { evidenceFor } from "../../../clinical/criteria.ts";
import { askOf, type Ask } from "./actions.ts";
import type { ConversationReader, ConversationReading } from "./conversation-reader.ts";
import type { HistoryPlan, PlanItem } from "../../../language/history-plan.ts";
import type { StateFacts } from "./state-facts.ts";
import { spokenValue } from "../../../language/lay-terms.ts";

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

const wholeWord = (words: string): RegExp => new RegExp(`\\b${words.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "i");

/**
 * Whether a doctor turn names the entry of a slot, as its value or as the NLG says it to the patient
 * ("inhalers" for bronchodilator agents), as whole words ("iron", not "environment").
 */
const names = (text: string, slot: string, value: string): boolean =>
  wholeWord(value).test(text) || wholeWord(spokenValue(slot, value)).test(text);

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
      positives.some((value) => names(lastText, slot, value));
    if (!about) continue;
    for (const value of positives) {
      for (const check of checks) {
        if (facts.hasAttribute(slot, value, plan.file.check_attributes[check] ?? [check])) continue;
        if (doctorTexts.some((text) => names(text, slot, value) && reader.readDoctor(text).checks.includes(check)))
          continue;
        return askOf(slot, value, check);
      }
    }
  }
  return undefined;
}
