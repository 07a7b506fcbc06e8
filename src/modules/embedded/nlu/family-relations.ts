import type { AnalysedText } from "./analysed-text.ts";
import type { Lexicon } from "./lexicon.ts";
import { HEREDITY, PEOPLE, wordsPattern } from "./word-lists.ts";

/**
 * Family relations ("my mum" → "mother", "my sister" → "sister"), canonical and in the order said.
 * Only relations after a possessive (or joined to one) count: "my dad", "my mom and sister", not
 * "when I was a kid".
 */
export function extractRelations(lexicon: Lexicon, analysed: AnalysedText, from = 0, to = analysed.tokens.length): string[] {
  const found: string[] = [];
  for (const match of lexicon.relations.findAll(analysed.tokens, from, to)) {
    // "my dad", "my older brother", "my mom and sister" — not "when I was a kid".
    let before = match.start - 1;
    if (/^(?:older|younger|big|little|late|eldest|oldest|youngest|twin|step|half|baby)$/.test(analysed.tokens[before]?.text ?? "")) before -= 1;
    const previous = analysed.tokens[before]?.text;
    if (!previous || !/^(?:my|his|her|our|their|and|or|,)$/.test(previous)) continue;
    for (const relation of match.payloads) if (!found.includes(relation)) found.push(relation);
  }
  return found;
}

/** Words that put a question or statement about illness in the family ("your mother", "runs in the family"). */
export const FAMILY_CUE = new RegExp(wordsPattern(PEOPLE.family, PEOPLE.bloodRelatives, HEREDITY));
