import { extractImpact } from "../medication-attributes.ts";
import { setFound, type AttributeExtractor } from "./attribute-extractor.ts";

/** Whether a medication helped ("yes", "no", "maybe"). */
export const impact = {
  name: "impact",
  appliesTo: ["medication"],
  questionCue: /\b(?:does|did|has|have) (?:it|that|this|they|those|the \w+) (?:help|helped|work|worked)\b/,
  readAnswer: (turn, entry) => setFound(turn, entry, "impact", extractImpact(turn.analysed.text)),
} as const satisfies AttributeExtractor;
