import type { DialogueState, DoctorAction } from "../../../cmas/schemas.ts";
import { loadDiagnoses } from "../../../clinical/diagnoses.ts";
import type { ConversationReading } from "./conversation-reader.ts";
import type { HistoryPlan } from "../../../language/history-plan.ts";
import type { StateFacts } from "./state-facts.ts";

/**
 * The end of a history: once the questions are done the doctor asks whether the patient has any
 * questions (`chit-chat`), then names a working diagnosis and the tests to confirm it (or, when the
 * history meets no diagnosis's criteria, says so and what it will pass on), then says goodbye (`nod_prompt_salutations`). Which of these comes next is read from the conversation.
 */

export type ClosingMove = "diagnosis" | "farewell";

/** The closing move due now, if the doctor has already opened the closing. */
export function closingMove(plan: HistoryPlan, conversation: ConversationReading): ClosingMove | undefined {
  const opened = conversation.doctor.findLastIndex((reading) => reading.closingQuestion);
  if (opened < 0) return undefined;
  const last = conversation.doctor.length - 1;
  if (opened === last) return "diagnosis";
  const later = conversation.doctor.slice(opened + 1);
  // After the explanation, or when the patient thanks the doctor, only the goodbye is left.
  if (later.some((reading) => reading.explanation)) return "farewell";
  if (conversation.lastPatient && plan.closing.farewell.some((cue) => cue.test(conversation.lastPatient!)))
    return "farewell";
  return "diagnosis";
}

/** Positive symptoms passed on when no diagnosis is named (the most the closing lists). */
const SUMMARY_LIMIT = 4;

/**
 * The working diagnosis and its tests, only when the state meets a diagnosis's explicit criteria
 * (`ontology/diagnoses.json`), as `inquire medical_test` + `diagnosis`. Otherwise a `diagnosis`
 * naming no disease, carrying the positive symptoms the doctor will pass on: no disease and no
 * test outside the evidence is ever offered.
 */
export function diagnosisActions(state: DialogueState, facts: StateFacts): DoctorAction[] {
  const impression = loadDiagnoses().workingImpression(state);
  if (!impression) {
    const heard = facts
      .positives("symptom")
      .filter((value) => value !== "general")
      .slice(0, SUMMARY_LIMIT);
    return [
      heard.length > 0 ? { action: "diagnosis", symptom: heard.map((value) => ({ value })) } : { action: "diagnosis" },
    ];
  }
  const actions: DoctorAction[] = [];
  if (impression.tests.length > 0)
    actions.push({ action: "inquire", medical_test: impression.tests.map((value) => ({ value })) });
  actions.push({ action: "diagnosis", disease: [{ value: impression.disease }] });
  return actions;
}
