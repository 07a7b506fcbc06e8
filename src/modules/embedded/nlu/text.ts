import { porterStem } from "../../../metrics/porter-stemmer.ts";
import { HESITATIONS, NUMBER_WORDS, SKIPPABLE_WORDS } from "./word-lists.ts";

/**
 * Text handling shared by the NLU pieces: cleaning transcribed speech, tokens with offsets, stems
 * used as matching keys, sentence and clause boundaries, number words.
 *
 * Everything downstream works on the *cleaned* text (lower case, hesitations removed, stutters
 * collapsed), so that extracted spans read like the short phrases annotators copy ("two months ago",
 * not "um, two, two months ago").
 */

/**
 * Words a multi-word form may skip over ("not [really] able to smell", "chest [kind of] hurts"):
 * hedges and discourse fillers that speakers drop into the middle of a phrase.
 */
export const SKIPPABLE = SKIPPABLE_WORDS;

/** Token classes: words, digit sequences, punctuation. */
export type TokenKind = "word" | "number" | "punct";

/** A token range `[start, end)`. */
export interface TokenSpan {
  readonly start: number;
  readonly end: number;
}

/** A token of cleaned text. */
export interface Token {
  /** The token as written in the cleaned text ("haven't", "6"). */
  readonly text: string;
  /** Matching key: clitics removed, Porter-stemmed (possibly after spelling correction). */
  readonly key: string;
  readonly kind: TokenKind;
  /** Character offsets into the cleaned text. */
  readonly start: number;
  readonly end: number;
}

/**
 * Negated contractions typed without their apostrophe, which patients often do ("i dont smoke",
 * "havent had any"). Not "cant"/"wont" alone as nouns: in a patient's turn both are the verbs.
 */
const APOSTROPHE_LESS = /\b(do|does|did|have|has|had|ca|could|wo|would|should|is|are|was|were|ai|must|need)nt\b/g;

/**
 * A pronoun's contraction typed without its apostrophe, where no other word is spelt so ("im 24",
 * "ive had", "hes 79", "thats"). Not "its", "ill", "id", "were", "well", "hell", "shell": each is a
 * word of its own ("im" is taken as "I'm": a patient types it far more often than the abbreviation IM).
 */
const PRONOUN_CONTRACTIONS: Readonly<Record<string, string>> = Object.fromEntries(
  [
    ...["i'm", "i've", "he's", "she's", "that's", "what's", "there's"],
    ...["you're", "you've", "they're", "they've", "we've", "they'll", "you'll", "they'd", "you'd"],
  ].map((spelt) => [spelt.replace("'", ""), spelt]),
);
const PRONOUN_APOSTROPHE_LESS = new RegExp(`\\b(?:${Object.keys(PRONOUN_CONTRACTIONS).join("|")})\\b`, "g");

/** A contraction without its apostrophe, spelt with it. Example: "i dont smoke" → "i don't smoke", "im 24" → "i'm 24". */
export function restoreApostrophes(text: string): string {
  return text.replace(APOSTROPHE_LESS, "$1n't").replace(PRONOUN_APOSTROPHE_LESS, (word) => PRONOUN_CONTRACTIONS[word]!);
}

/**
 * "Feel" said once for two states: "I feel sweaty and a bit sick" is read as "feel sweaty and feel a
 * bit sick", so the second is a symptom as the first is ("sick" alone is not: "sick of it").
 */
const FEEL_BOTH =
  /\b(feel|feels|feeling|felt)( (?:a bit |a little |quite |really |very |so )?[a-z]+) and (?=(?:a bit |a little |quite |really |very |so )?(?:sick|sweaty|dizzy|faint|tired|breathless|shaky|weak|light-?headed|clammy|hot|cold|unwell|rough|awful|terrible|off)\b)/g;

/**
 * Whether a text may hold a hesitation word ("um", "uh"…) as a word of its own: most texts have none,
 * and then no word needs looking at. Bounded as the words are read below (a run of letters, with one
 * apostrophe-joined part).
 */
const HESITATION = new RegExp(
  `(?<![a-z])(?:${[...HESITATIONS].map((word) => word.replace(/[^a-z']/g, "\\$&")).join("|")})(?![a-z]|'[a-z])`,
);

/**
 * Lower-cases and removes hesitations and stutters ("it's it's mostly dry" → "it's mostly dry"),
 * keeping punctuation, since sentence and clause boundaries matter for negation scope; "feel" said
 * once for two states is said for both ({@link FEEL_BOTH}).
 */
export function cleanText(raw: string): string {
  let text = raw
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`]/g, "'")
    .replace(/[\u201c\u201d]/g, '"');
  text = restoreApostrophes(text);
  if (HESITATION.test(text)) text = text.replace(/[a-z]+(?:'[a-z]+)?/g, (word) => (HESITATIONS.has(word) ? "" : word));
  // Stutters: "I I", "it's it's", "any any", possibly separated by a comma ("pretty, pretty much").
  text = text.replace(/\b([a-z']+)(?:[\s,]+\1\b)+/g, "$1");
  text = text.replace(/\s+([,.?!;])/g, "$1").replace(/([,.?!;])(?:\s*[,;])+/g, "$1");
  if (text.includes(" and ")) text = text.replace(FEEL_BOTH, "$1$2 and $1 ");
  text = text
    .replace(/^[\s,.;]+/, "")
    .replace(/\s+/g, " ")
    .trim();
  return text;
}

const CLITIC = /'(?:s|re|ve|ll|d|m)$/;

/** The matching key of a word: possessive/contraction clitic removed, then Porter-stemmed. */
export function stemKey(word: string): string {
  const lower = word.toLowerCase();
  if (lower.endsWith("n't")) return lower;
  return porterStem(lower.replace(CLITIC, ""));
}

const TOKEN = /[a-z0-9]+(?:'[a-z]+)?|[.?!;,]/g;

/**
 * The kind of a {@link TOKEN} match, by its characters rather than two more regexes per token (the
 * tokenizer runs over every lexicon form at build time): a punctuation match is one of `.?!;,`, and
 * a number is digits only ("12"; "12th" and "2's" are words).
 */
function tokenKind(word: string): TokenKind {
  if (word.length === 1 && ".?!;,".includes(word)) return "punct";
  for (let index = 0; index < word.length; index += 1) {
    const code = word.charCodeAt(index);
    if (code < 48 || code > 57) return "word";
  }
  return "number";
}

/** Tokens of cleaned text; `correct` may replace a misspelt word before stemming. */
export function tokenize(text: string, correct?: (word: string) => string | undefined): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const word = match[0];
    const start = match.index ?? 0;
    const kind = tokenKind(word);
    const fixed = kind === "word" ? (correct?.(word) ?? word) : word;
    tokens.push({ text: word, key: kind === "punct" ? word : stemKey(fixed), kind, start, end: start + word.length });
  }
  return tokens;
}

/** Keys of a lexicon form, tokenised like utterances. */
export function formKeys(form: string): string[] {
  return cleanFormKeys(cleanText(form));
}

/** {@link formKeys} of a form already cleaned by {@link cleanText}. */
export function cleanFormKeys(clean: string): string[] {
  return tokenize(clean)
    .filter((token) => token.kind !== "punct")
    .map((token) => token.key);
}

/** Sentences as `[start, end)` token ranges (split at . ? ! ;). */
export function sentenceRanges(tokens: readonly Token[]): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let start = 0;
  tokens.forEach((token, index) => {
    if (token.kind === "punct" && token.text !== ",") {
      if (index > start) ranges.push([start, index]);
      start = index + 1;
    }
  });
  if (start < tokens.length) ranges.push([start, tokens.length]);
  return ranges;
}

/** A cardinal written as digits or a word ("6", "six", "twenty five" is not handled), or undefined. */
export function numberValue(word: string): number | undefined {
  if (/^\d+(?:\.\d+)?$/.test(word)) return Number(word);
  return NUMBER_WORDS[word.toLowerCase()];
}

/** Regex source matching a number written as digits or words ("6", "six", "twenty five", "half"). */
export const NUMBER_PATTERN = `(?:\\d+(?:\\.\\d+)?|(?:${Object.keys(NUMBER_WORDS).join("|")})(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?)`;

/** Collapses whitespace and trims punctuation from an extracted span. */
export function tidySpan(span: string): string {
  return span
    .replace(/\s+/g, " ")
    .replace(/^[\s,.;:!?]+|[\s,.;:!?]+$/g, "")
    .trim();
}
