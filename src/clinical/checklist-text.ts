import { porterStem } from "../metrics/porter-stemmer.ts";

/**
 * How the OSCE checklist reads a turn's words: normalised (so its rules, kept as data, are written
 * once for "what's" and "what is"), cut into sentences, and reduced to the words that say what a
 * question is specifically about. Pure string work; the rules themselves are in
 * `ontology/osce-checklist.json`.
 */

/**
 * A contraction after a pronoun or question word, e.g. "what's" (→ "what is"); other "'s" are
 * possessives ("the doctor's") and stay.
 */
const PRONOUN_IS = /\b(it|that|what|where|how|who|there|here|he|she|this|when|why)'s\b/g;

/** Contractions spelled out, in order (the irregular negatives first), e.g. "can't" → "cannot". */
const CONTRACTIONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bcan't\b/g, "cannot"],
  [/\bwon't\b/g, "will not"],
  [/\bshan't\b/g, "shall not"],
  [/\blet's\b/g, "let us"],
  [/\by'all\b/g, "you all"],
  [/n't\b/g, " not"],
  [/'re\b/g, " are"],
  [/'ve\b/g, " have"],
  [/'ll\b/g, " will"],
  [/'d\b/g, " would"],
  [/\bi'm\b/g, "i am"],
  [PRONOUN_IS, "$1 is"],
];

/**
 * A turn's text as the rules read it: lower case, typographic quotes and dashes made plain,
 * contractions spelled out, runs of spaces made one.
 */
export function normaliseUtterance(text: string): string {
  let normal = text
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, " - ");
  for (const [contraction, spelled] of CONTRACTIONS) normal = normal.replace(contraction, spelled);
  return normal.replace(/\s+/g, " ").trim();
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
