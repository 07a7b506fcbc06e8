import type { AttributeExtractor } from "./attribute-extractor.ts";

/** "What do you take it for?", "tried anything for this cough?". */
const RESPONE_TO_CUE =
  /\bwhat (?:(?:is|are|was|were) (?:it|that|this|they|those)|do you (?:take|use|need) (?:it|that|this|them|those)|are you (?:taking|using) (?:it|that|this|them|those)) for\b|\bfor what\b|\btried anything for\b|\banything for (?:this|the|that|your)\b/;

/** What a medication is for (`respone_to`, the data's spelling); read from the medication phrases (`slot-details.ts`). */
export const responeTo = {
  name: "respone_to",
  appliesTo: ["medication"],
  questionCue: RESPONE_TO_CUE,
} as const satisfies AttributeExtractor;
