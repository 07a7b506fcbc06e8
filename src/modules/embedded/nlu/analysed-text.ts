import { clauseIds } from "./negation.ts";
import { cleanText, sentenceRanges, tokenize, type Token } from "./text.ts";

/**
 * An utterance prepared once for every extractor: cleaned text, tokens (spelling-corrected keys),
 * clause ids and sentence ranges.
 */
export interface AnalysedText {
  readonly raw: string;
  readonly text: string;
  readonly tokens: readonly Token[];
  readonly clauses: readonly number[];
  readonly sentences: ReadonlyArray<readonly [number, number]>;
}

/** Cleans, tokenises (with optional spelling correction) and segments an utterance. */
export function analyseText(raw: string, correct?: (word: string) => string | undefined): AnalysedText {
  const text = cleanText(raw);
  const tokens = tokenize(text, correct);
  return { raw, text, tokens, clauses: clauseIds(tokens), sentences: sentenceRanges(tokens) };
}

/** The cleaned text of tokens `[from, to)`. */
export function textOf(analysed: AnalysedText, from: number, to: number): string {
  const first = analysed.tokens[from];
  const last = analysed.tokens[to - 1];
  if (!first || !last || to <= from) return "";
  return analysed.text.slice(first.start, last.end);
}

/** The sentence range `[start, end)` that contains token `index`. */
export function sentenceOf(analysed: AnalysedText, index: number): readonly [number, number] {
  return analysed.sentences.find(([start, end]) => index >= start && index < end) ?? [0, analysed.tokens.length];
}

/** The token range of the clause that contains token `index`. */
export function clauseRange(analysed: AnalysedText, index: number): readonly [number, number] {
  const id = analysed.clauses[index];
  let start = index;
  let end = index + 1;
  while (start > 0 && analysed.clauses[start - 1] === id) start -= 1;
  while (end < analysed.tokens.length && analysed.clauses[end] === id) end += 1;
  return [start, end];
}
