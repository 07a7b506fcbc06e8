import { porterStem } from "../metrics/porter-stemmer.ts";

/**
 * How the OSCE checklist reads a turn's words: normalised (so its rules, kept as data, are written
 * once for "what's" and "what is"), cut into sentences, and reduced to the words that say what a
 * question is specifically about. Pure string work; the rules themselves are in
 * `ontology/osce-checklist.json`.
 */

/** Whole words spelled out, e.g. "can't" → "cannot". */
const IRREGULAR_CONTRACTIONS: ReadonlyMap<string, string> = new Map([
  ["can't", "cannot"],
  ["won't", "will not"],
  ["shan't", "shall not"],
  ["let's", "let us"],
  ["y'all", "you all"],
  ["i'm", "i am"],
]);

/** Endings spelled out, e.g. "don't" → "do not", "you've" → "you have". */
const CONTRACTED_ENDINGS: ReadonlyMap<string, string> = new Map([
  ["n't", " not"],
  ["'re", " are"],
  ["'ve", " have"],
  ["'ll", " will"],
  ["'d", " would"],
  ["'s", " is"],
]);

/**
 * A contraction: an irregular one ("can't"), a negative or a verb ending ("don't", "you're"), or "'s"
 * after a pronoun or question word ("what's"); other "'s" are possessives ("the doctor's") and stay.
 */
const CONTRACTION =
  /\b(?:can't|won't|shan't|let's|y'all|i'm)\b|n't\b|'(?:re|ve|ll|d)\b|(?<=\b(?:it|that|what|where|how|who|there|here|he|she|this|when|why))'s\b/g;

/**
 * A turn's text as the rules read it: lower case, typographic quotes and dashes made plain,
 * contractions spelled out, runs of spaces made one.
 */
export function normaliseUtterance(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, " - ")
    .replace(
      CONTRACTION,
      (contraction) => IRREGULAR_CONTRACTIONS.get(contraction) ?? CONTRACTED_ENDINGS.get(contraction)!,
    )
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Where a sentence ends: after ".", "?" or "!" (kept with the sentence) followed by a space, or at a
 * line break, e.g. "Thanks. Do you smoke?" → "Thanks." | "Do you smoke?".
 */
const SENTENCE_END = /(?<=[.?!])\s+|\s*\n+\s*/;

/** The sentences of a turn, each normalised; empty ones dropped. */
export function sentencesOf(text: string): string[] {
  return text
    .split(SENTENCE_END)
    .map(normaliseUtterance)
    .filter((sentence) => /[a-z0-9]/.test(sentence));
}

/** A word of a sentence: letters and digits with inner apostrophes or hyphens, e.g. "pins-and-needles". */
const WORD = /[a-z0-9]+(?:['-][a-z0-9]+)*/g;

/** The Porter stems of a sentence's words that are not function words: what it is specifically about. */
export function contentWords(sentence: string, functionWords: ReadonlySet<string>): Set<string> {
  const words = sentence.match(WORD) ?? [];
  return new Set(words.filter((word) => !functionWords.has(word)).map(porterStem));
}
