import type { DialogueTurn } from "./module-interfaces.ts";
import { ASKS_TO_REPEAT_OR_EXPLAIN } from "./repeat-request-pattern.ts";

/**
 * What a live doctor does when the patient asks to hear the question again or what it means, as a
 * clinician would: the first time, it asks the same thing again in plainer words (`repeat`); if the
 * patient asks again right after that, it says it will move on and asks the next question (`move-on`),
 * which the patient may in turn ask to hear again.
 * The policy and the NLG both read it from the history, so the question chosen and its wording agree.
 */
export type ClarificationMove = "repeat" | "move-on";

/** Whether a patient turn asks to repeat or explain what the doctor said. */
export function asksToRepeat(text: string): boolean {
  return ASKS_TO_REPEAT_OR_EXPLAIN.test(text.toLowerCase());
}

/**
 * The move the history's last turn calls for: none unless the patient spoke last and asked to
 * repeat or explain. Requests in a row (one doctor turn between each) alternate: the first asks
 * again, the second moves on, a third is about the new question and asks it again, and so on.
 */
export function clarificationMove(history: readonly DialogueTurn[]): ClarificationMove | undefined {
  let requests = 0;
  for (let index = history.length - 1; index >= 0; index -= 2) {
    const turn = history[index]!;
    if (turn.speaker !== "patient" || !asksToRepeat(turn.text) || history[index - 1]?.speaker !== "doctor") break;
    requests += 1;
  }
  if (requests === 0) return undefined;
  return requests % 2 === 1 ? "repeat" : "move-on";
}

/** The word a patient asks the meaning of. Example: "Sorry, what do you mean by phlegm?" → "phlegm". */
const ASKED_WORD = /\bwhat do you mean by (?:the |a |an |your )?["']?([a-z][a-z' -]*?)["']?\s*[?.!]*\s*$/i;

/** The word or phrase the patient asks the meaning of, lower-cased, or undefined. */
export function askedMeaningOf(text: string): string | undefined {
  const word = ASKED_WORD.exec(text.trim())?.[1]?.trim().toLowerCase();
  return word === undefined || word === "that" || word === "it" ? undefined : word;
}
