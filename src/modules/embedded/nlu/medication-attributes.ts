/**
 * Medication attributes: whether it helped (`impact`: "yes" / "no" / "maybe", the values the
 * annotators use) and what it was taken for (`respone_to`, sic — the data's spelling).
 */

/** "Hasn't really helped", "didn't do anything", "no relief", "useless": it did not help. */
const NO_HELP =
  /\b(?:(?:didn't|did\s+not|doesn't|does\s+not|hasn't|has\s+not|haven't|have\s+not|don't|do\s+not|wasn't|won't|isn't|not)\s+(?:really\s+|seem\s+to\s+|seemed\s+to\s+|quite\s+|even\s+|much\s+)*(?:help|helped|helping|work|worked|working|do\s+(?:anything|much)|did\s+(?:anything|much)|make\s+(?:a|any)\s+difference|improve|change)|no\s+(?:help|difference|change|relief|improvement)|nothing\s+(?:helped|helps|worked|works)|useless|no\s+luck)\b/;
/** "Sometimes helps", "helps a little", "kind of works", "barely": it helped somewhat. */
const SOME_HELP =
  /\b(?:minimally|barely|hardly|marginally|a\s+tiny\s+bit\s+)\b|\b(?:sometimes|somewhat|slightly|partially|partly|a\s+(?:little|bit)(?:\s+bit)?|kind\s+of|sort\s+of|temporarily|for\s+a\s+(?:bit|while)|not\s+(?:that|too|very)\s+much|a\s+tiny\s+bit|help\s+a\s+little|helps\s+a\s+little|hit\s+or\s+miss|on\s+and\s+off)\b[^.]*\b(?:help|helps|helped|helping|work|works|worked|better|relief)\b|\b(?:help|helps|helped|helping|works|worked)\b[^.]*\b(?:a\s+(?:little|bit)|somewhat|slightly|sometimes|temporarily|kind\s+of)\b/;
/** "Helps", "works", "does the trick": it helped. */
const HELP =
  /\b(?:helps|helped|helping|help|works|worked|working|relieves|relieved|better|relief|improved|improves|does\s+the\s+trick)\b/;

/** The impact said in `text` (cleaned), or undefined. "Hasn't really helped" → no; "sometimes help" → maybe. */
export function extractImpact(text: string): "yes" | "no" | "maybe" | undefined {
  if (NO_HELP.test(text)) return "no";
  if (SOME_HELP.test(text)) return "maybe";
  if (HELP.test(text)) return "yes";
  return undefined;
}

/** "For my asthma", "to help with the cough", "because of my allergies": what a medication treats (group 2). */
const PURPOSE =
  /\b(?:for|to\s+(?:help\s+(?:with\s+)?|treat|control|manage)|because\s+of|with)\s+((?:my|the|this|that|his|her)\s+)?([a-z' ]{3,40}?)(?=[,.;!?]|$|\s+(?:and|but|which|since|when|every|at|in|twice|once))/;

/** The phrase after "for" that names what a medication treats ("for my asthma" → "my asthma"), or undefined. */
export function purposePhrase(text: string): string | undefined {
  const match = PURPOSE.exec(text);
  return match ? match[2]!.trim() : undefined;
}
