import { hasTopLevelAlternation } from "../foundation/regex-source.ts";

/**
 * A regular expression that opens with lookbehinds, given a cheap lookahead in front of them.
 *
 * Many red-flag sign patterns guard their words with leading lookbehinds over a window of words
 * (`(?<!\b(?:cycling|bike)\b[^.;]{0,60})\b(?:numb|dead)…`). An engine tries a pattern at every position
 * of a sentence and evaluates a leading lookbehind at each of them before looking at the words after
 * it: on a long sentence that costs milliseconds a sign. A lookahead of the first thing every match
 * must start with (`(?=\b(?:numb|dead))`) fails at once at nearly every position, and the matches stay
 * the same, since every match meets it already.
 */

/** The index after the group that opens at `start`, or -1 when it does not close. */
function groupEnd(source: string, start: number): number {
  let depth = 0;
  for (let index = start, inClass = false; index < source.length; index += 1) {
    const char = source[index];
    if (char === "\\") index += 1;
    else if (inClass) inClass = char !== "]";
    else if (char === "[") inClass = true;
    else if (char === "(") depth += 1;
    else if (char === ")" && --depth === 0) return index + 1;
  }
  return -1;
}

/** A back-reference or a named group, which a copied group would renumber or repeat. Example: `\1`, `(?<word>`. */
const REFERENCES = /\\[1-9]|\\k<|\(\?<[A-Za-z]/;
/** A lookbehind's opening. Example: the `(?<!` of `(?<!\bbike\b)numb`. */
const LOOKBEHIND_OPENING = /^\(\?<[!=]/;
/** Any lookaround's opening. Example: `(?=`, `(?!`, `(?<=`, `(?<!`. */
const LOOKAROUND_OPENING = /^\(\?<?[=!]/;
/** Word boundaries kept in front of the first atom. Example: the `\b` of `\b(?:numb|dead)`. */
const BOUNDARIES = /^(?:\\b)*/;
/** A quantifier after an atom, which may skip it. Example: `?`, `*`, `{0,2}`. */
const QUANTIFIER = /^(?:[?*+]|\{\d*(?:,\d*)?\})/;
/** A run of plain lower-case letters. Example: the `numb` of `numb\w*`. */
const LETTERS = /^[a-z]+/;

/**
 * What every match of `tail` starts with: its word boundaries and its first group, or its first
 * letters but the last (which a quantifier may follow); undefined when the first atom is optional or
 * a lookaround. Example: `\b(?:numb|dead)` of `\b(?:numb|dead)[^.;]{0,40}below`, `nu` of `numb\w*`.
 */
function firstAtom(tail: string): string | undefined {
  const boundaries = BOUNDARIES.exec(tail)![0];
  const rest = tail.slice(boundaries.length);
  if (rest.startsWith("(")) {
    if (LOOKAROUND_OPENING.test(rest)) return undefined;
    const end = groupEnd(rest, 0);
    if (end < 0 || QUANTIFIER.test(rest.slice(end))) return undefined;
    return `${boundaries}${rest.slice(0, end)}`;
  }
  const letters = LETTERS.exec(rest)?.[0] ?? "";
  return letters.length >= 2 ? `${boundaries}${letters.slice(0, -1)}` : undefined;
}

/**
 * `(?<!X)(?<!Y)R` as `(?=A)(?<!X)(?<!Y)R`, where `A` is what every match of `R` starts with. A pattern
 * with no leading lookbehind, an alternation at its top level, a back-reference or named group, or no
 * such start is returned as it is.
 */
export function withFirstAtomLookahead(source: string): string {
  let rest = 0;
  while (LOOKBEHIND_OPENING.test(source.slice(rest))) {
    const end = groupEnd(source, rest);
    if (end < 0) return source;
    rest = end;
  }
  if (rest === 0 || hasTopLevelAlternation(source) || REFERENCES.test(source)) return source;
  const first = firstAtom(source.slice(rest));
  return first === undefined ? source : `(?=${first})${source}`;
}
