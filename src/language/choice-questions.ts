import type { DialogueTurn } from "./module-interfaces.ts";
import { joinAlternatives, namesValue, spokenValue } from "./lay-terms.ts";

/**
 * A bare "yes" to a question that offers a choice of findings ("any fevers or weight loss?") says
 * that at least one is there, not which: the embedded NLU records each as unknown, and the live
 * doctor asks once which it was ("Which have you had: fevers or weight loss, or both?") before it
 * goes on. Red flags wait for the answer: a flag whose criteria need weight loss with night sweats,
 * or fainting with palpitations, must not fire on a yes that may have meant only the fevers or the
 * dizziness. Shared by the NLU (which reads the answer), the policy (which asks) and the NLG (which
 * words it).
 */

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
 * An answer that is a yes and nothing more: no finding of its own, no doubt, no denial. Example: "yes",
 * "yeah I have", "yes she has", "a bit", "sometimes, yeah", "I think so".
 */
const BARE_YES =
  /^(?:(?:yes|yeah|yep|yup|yea|ya|aye|mhm|uh huh|sure|definitely|correct|right|i (?:have|do|did|think so|guess)|(?:she|he|they) (?:has|have|does|do|did)|think so|a bit|a little|sometimes|kind of|sort of|i have yes|ok)\b[\s,.!]*)+$/i;

/** Whether a patient turn is a bare yes ({@link BARE_YES}). */
export function isBareYes(answer: string): boolean {
  return BARE_YES.test(answer.trim());
}

/**
 * Whether asking `asked` now is the live doctor's "which of those?": the last turn is the patient's
 * bare yes to the doctor turn before it, which named every one of the values (two or more), and that
 * turn was not already a "which" question (it is asked once).
 */
export function isChoiceClarification(history: readonly DialogueTurn[], asked: readonly AskedValue[]): boolean {
  const answer = history.at(-1);
  const question = history.at(-2);
  if (asked.length < 2 || answer?.speaker !== "patient" || question?.speaker !== "doctor") return false;
  if (asksWhich(question.text) || !isBareYes(answer.text)) return false;
  return asked.every(({ slot, value }) => namesValue(question.text, slot, value));
}

/** The "which" question, in the patient's words. Example: "Which have you had: fevers or weight loss, or both?". */
export function whichQuestion(asked: readonly AskedValue[]): string {
  const spoken = asked.map(({ slot, value }) => spokenValue(slot, value));
  const all = spoken.length === 2 ? "both" : "more than one";
  return `Which have you had: ${joinAlternatives(spoken)}, or ${all}?`;
}
