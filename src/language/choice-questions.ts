import type { DialogueTurn } from "./module-interfaces.ts";
import { joinAlternatives, namesValue, spokenValue } from "./lay-terms.ts";

/**
 * A "yes" that names none of the findings a question offers as a choice ("any fevers or weight
 * loss?") says that at least one is there, not which: the embedded NLU records each as unknown, and
 * the live doctor asks once which it was ("Which have you had: fevers or weight loss, or both?") before it
 * goes on. Red flags wait for the answer: a flag whose criteria need weight loss with night sweats,
 * or fainting with palpitations, must not fire on a yes that may have meant only the fevers or the
 * dizziness. Shared by the NLU (which reads the answer), the policy (which asks) and the NLG (which
 * words it).
 */

/** Slots whose findings a question can offer as a choice ("any fevers or weight loss?", "asthma or COPD?"). */
export const CHOICE_SLOTS = ["symptom", "medical_history"] as const;

/** A value asked about, by slot. */
export interface AskedValue {
  readonly slot: string;
  readonly value: string;
}

/**
 * The doctor asks the patient to choose among findings. Example: "Which have you had: fevers or
 * weight loss, or both?", "which of them has she had?", "which one do you have?".
 */
const WHICH_QUESTION = /\bwhich (?:ones? |of (?:them|these|the two) )?(?:have|has|do|does|did|is|are|was|were)\b/i;

/** Whether a doctor turn asks the patient to choose among the findings it names. */
export function asksWhich(doctorText: string): boolean {
  return WHICH_QUESTION.test(doctorText);
}

/** An answer that chooses every finding offered. Example: "both", "yes both of them", "all of them", "the lot". */
export const CHOOSES_ALL = /\b(?:both|all of (?:them|those|these|it)|all three|the lot|each of them)\b/i;

/**
 * An answer that opens with a yes. Example: "yes", "yeah, it started four days ago", "I have", "she
 * has", "a bit", "sometimes", "I think so".
 */
const OPENS_WITH_YES =
  /^\W*(?:yes|yeah|yep|yup|yea|ya|aye|mhm|uh huh|sure|definitely|correct|right|i (?:have|do|did|think so|guess)|(?:she|he|they) (?:has|have|does|do|did)|a bit|a little|sometimes)\b/i;

/**
 * Whether asking `asked` now is the live doctor's "which of those?": the last turn is the patient's yes
 * (bare, or with words that name none of them: "yes, it started four days ago"), neither a denial nor
 * unsure, to the doctor turn before it, which named every one of the values (two or more) and was not
 * already a "which" question (it is asked once).
 */
export function isChoiceClarification(history: readonly DialogueTurn[], asked: readonly AskedValue[]): boolean {
  const answer = history.at(-1);
  const question = history.at(-2);
  if (asked.length < 2 || answer?.speaker !== "patient" || question?.speaker !== "doctor") return false;
  if (asksWhich(question.text) || !OPENS_WITH_YES.test(answer.text)) return false;
  return asked.every(({ slot, value }) => namesValue(question.text, slot, value));
}

/** The "which" question, in the patient's words. Example: "Which have you had: fevers or weight loss, or both?". */
export function whichQuestion(asked: readonly AskedValue[]): string {
  const spoken = asked.map(({ slot, value }) => spokenValue(slot, value));
  const all = spoken.length === 2 ? "both" : "more than one";
  return `Which have you had: ${joinAlternatives(spoken)}, or ${all}?`;
}
