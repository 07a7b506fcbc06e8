import type { DoctorAction } from "../../../cmas/schemas.ts";
import type { Conversation } from "./conversation-reader.ts";
import type { HistoryPlan } from "./history-plan.ts";
import type { StateFacts } from "./state-facts.ts";

/**
 * The end of a history: once the questions are done the doctor asks whether the patient has any
 * questions (`chit-chat`), then names a working diagnosis and the tests to confirm it, then says
 * goodbye (`nod_prompt_salutations`). Which of these comes next is read from the conversation.
 */

export type ClosingMove = "diagnosis" | "farewell";

/** The closing move due now, if the doctor has already opened the closing. */
export function closingMove(plan: HistoryPlan, conversation: Conversation): ClosingMove | undefined {
  const opened = conversation.doctor.findLastIndex((reading) => reading.closingQuestion);
  if (opened < 0) return undefined;
  const last = conversation.doctor.length - 1;
  if (opened === last) return "diagnosis";
  const later = conversation.doctor.slice(opened + 1);
  // After the explanation, or when the patient thanks the doctor, only the goodbye is left.
  if (later.some((reading) => reading.explanation)) return "farewell";
  if (conversation.lastPatient && plan.closing.farewell.some((cue) => cue.test(conversation.lastPatient!))) return "farewell";
  return "diagnosis";
}

/**
 * The working diagnosis and its tests: the plan's candidate with the most positive findings among
 * its evidence (requiring one of its key findings), as `inquire medical_test` + `diagnosis`; a bare
 * `diagnosis` when none fits.
 */
export function diagnosisActions(plan: HistoryPlan, facts: StateFacts): DoctorAction[] {
  const positive = new Set([...facts.positiveKeys()].map((key) => key.slice(key.indexOf(":") + 1)));
  let best: HistoryPlan["file"]["diagnoses"][number] | undefined;
  let bestScore = 0;
  for (const candidate of plan.file.diagnoses) {
    if (candidate.requires_any.length > 0 && !candidate.requires_any.some((value) => positive.has(value))) continue;
    const score = candidate.evidence.filter((value) => positive.has(value)).length;
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  // No candidate fits the findings: an assessment without a named disease (examine, then investigate).
  if (!best) return [{ action: "diagnosis" }];
  const actions: DoctorAction[] = [];
  if (best.tests.length > 0) actions.push({ action: "inquire", medical_test: best.tests.map((value) => ({ value })) });
  actions.push({ action: "diagnosis", disease: [{ value: best.disease }] });
  return actions;
}
