import type { AnalysedText } from "./analysed-text.ts";
import type { Lexicon } from "./lexicon.ts";
import { HEREDITY, PEOPLE, wordsPattern } from "./word-lists.ts";

/** Words a sentence may start with before its subject ("Yeah, mom has …"). */
const SENTENCE_OPENER = /^(?:yeah|yes|yep|well|oh|so|also|and|um|uh|actually|,)$/;

/** A verb right after a bare relation that makes it the subject: "mom has heart problems", "dad's diabetic". */
const SUBJECT_VERB = /^(?:has|had|have|is|was|'s|got|gets|suffers|suffered|died|passed|takes|took)$/;

/** "Mom has heart problems": a bare relation word opening its sentence as the subject of an illness. */
function isBareSubject(analysed: AnalysedText, start: number, end: number): boolean {
  let before = start - 1;
  while (before >= 0 && SENTENCE_OPENER.test(analysed.tokens[before]!.text)) before -= 1;
  const opensSentence = before < 0 || /^[.!?;]$/.test(analysed.tokens[before]!.text);
  return opensSentence && SUBJECT_VERB.test(analysed.tokens[end]?.text ?? "");
}

/**
 * Family relations ("my mum" → "mother", "my sister" → "sister"), canonical and in the order said.
 * Only relations after a possessive (or joined to one) count: "my dad", "my mom and sister", not
 * "when I was a kid"; a bare relation counts when it opens its sentence as a subject ("Mom has …").
 */
export function extractRelations(
  lexicon: Lexicon,
  analysed: AnalysedText,
  from = 0,
  to = analysed.tokens.length,
): string[] {
  const found: string[] = [];
  for (const match of lexicon.relations.findAll(analysed.tokens, from, to)) {
    // "my dad", "my older brother", "my mom and sister" — not "when I was a kid".
    let before = match.start - 1;
    if (
      /^(?:older|younger|big|little|late|eldest|oldest|youngest|twin|step|half|baby)$/.test(
        analysed.tokens[before]?.text ?? "",
      )
    )
      before -= 1;
    const previous = analysed.tokens[before]?.text;
    const possessed = previous !== undefined && /^(?:my|his|her|our|their|and|or|,)$/.test(previous);
    if (!possessed && !isBareSubject(analysed, match.start, match.end)) continue;
    for (const relation of match.payloads) if (!found.includes(relation)) found.push(relation);
  }
  return found;
}

/** Words that put a question or statement about illness in the family ("your mother", "runs in the family"). */
export const FAMILY_CUE = new RegExp(wordsPattern(PEOPLE.family, PEOPLE.bloodRelatives, HEREDITY));
