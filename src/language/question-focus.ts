import { isPunctuated } from "./spoken-text.ts";

/**
 * What a patient's answer answers: the question a doctor's turn ends with, not the whole turn. In a
 * recorded visit the doctor talks at length — examination findings, results, the plan — and then
 * asks; "no" after "…your lungs are clear and there's some swelling of the ankle. any chest pain?"
 * denies chest pain, not the swelling. In chat the doctor's turn is one question and is its own focus.
 */

/** A sentence end in a punctuated turn. Example: "your lungs are clear . any chest pain ?". */
const SENTENCE_END = /(?<=[.?!])\s+/;

/**
 * Where a question starts in an unpunctuated turn: a question word, or an auxiliary before "you",
 * "it", "this", "that", "anyone" or "there" — not after a subject ("we have you on…" states). Example:
 * "okay alright so on your facial exam does this hurt" → "does this hurt".
 */
const QUESTION_START =
  /(?<!\b(?:we|they|you|he|she|it|that|which|who|what)\s+)\b(?:(?:do|does|did|are|is|was|were|have|has|had|can|could|would|will|any|how|what|when|where|which|who|why)\s+(?:you|your|it|this|that|there|they|anyone|anybody|any|he|she)\b|any\s+\w+)/g;

/** The words of a focus when an unpunctuated turn asks nothing we can find: its last few. */
const UNPUNCTUATED_TAIL_WORDS = 12;

/** The longest focus kept from an unpunctuated turn, in words (a question rarely runs longer). */
const UNPUNCTUATED_FOCUS_WORDS = 25;

/** The part of a doctor's turn that a patient's answer to it answers. */
export function questionFocus(turn: string): string {
  const text = turn.trim();
  if (isPunctuated(text)) return punctuatedFocus(text);
  let start = -1;
  for (const match of text.matchAll(QUESTION_START)) start = match.index;
  const words = (start >= 0 ? text.slice(start) : text).split(/\s+/);
  return words.slice(-(start >= 0 ? UNPUNCTUATED_FOCUS_WORDS : UNPUNCTUATED_TAIL_WORDS)).join(" ");
}

/**
 * A short question that points back at what was just said. Example: "how are you doing with that ?"
 * (after "…your blood pressure medications .").
 */
const POINTS_BACK = /^(?=(?:\S+\s+){0,7}\S+\s*\?$)[^?]*\b(?:that|it|this|those|them|these)\b/;

/**
 * The questions a punctuated turn ends with (consecutive asking sentences, and the sentence before
 * them when a short one points back at it), else its last sentence.
 */
function punctuatedFocus(text: string): string {
  const sentences = text.split(SENTENCE_END).filter((sentence) => sentence.length > 0);
  const last = sentences.findLastIndex((sentence) => sentence.includes("?"));
  if (last < 0) return sentences[sentences.length - 1] ?? text;
  let first = last;
  while (first > 0 && sentences[first - 1]!.includes("?")) first -= 1;
  if (first > 0 && first === last && POINTS_BACK.test(sentences[first]!)) first -= 1;
  return sentences.slice(first).join(" ");
}
