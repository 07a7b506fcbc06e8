import { hasTopLevelAlternation } from "../../../foundation/regex-source.ts";

/**
 * A test that rules out most cue regexes before running them: the policy runs every plan item's cues
 * over each doctor and patient turn, and most cues start with a literal word that the text lacks. A cue
 * whose pattern starts (after an optional `\b`) with literal letters, and has no `|` outside a group,
 * can only match where those letters occur, so a text without them cannot match it. Exact: a text
 * with a character outside ASCII (where case folding could match what lower-casing misses) is never
 * ruled out, and a cue without such a prefix is always run.
 */

/** Letters, digits, space and apostrophe: what a literal prefix is made of. */
const LITERAL = /^[a-z0-9 ']$/i;
/** Quantifiers that make the character before them optional or repeated. */
const QUANTIFIER = /^[?*{]$/;
const NON_ASCII = /[^\x00-\x7f]/;

/** The lower-case literal text every match of a case-insensitive pattern starts with, or null (fewer than 3 characters). */
export function literalPrefix(source: string): string | null {
  if (hasTopLevelAlternation(source)) return null;
  let index = source.startsWith("\\b") ? 2 : source.startsWith("^") ? 1 : 0;
  let prefix = "";
  while (index < source.length && LITERAL.test(source[index]!)) {
    const next = source[index + 1] ?? "";
    if (QUANTIFIER.test(next)) break;
    prefix += source[index]!.toLowerCase();
    index += 1;
    if (next === "+") break;
  }
  return prefix.length >= 3 ? prefix : null;
}

const prefixes = new WeakMap<RegExp, string | null>();

/** A text prepared for {@link mayMatch}: lower-cased once, or null when it must never be ruled out. */
export function prefilterText(text: string): string | null {
  return NON_ASCII.test(text) ? null : text.toLowerCase();
}

/** False only when `cue` cannot match the text `prepared` came from ({@link prefilterText}). */
export function mayMatch(cue: RegExp, prepared: string | null): boolean {
  if (prepared === null || !cue.ignoreCase) return true;
  let prefix = prefixes.get(cue);
  if (prefix === undefined) {
    prefix = literalPrefix(cue.source);
    prefixes.set(cue, prefix);
  }
  return prefix === null || prepared.includes(prefix);
}
