import { extractImpact } from "../medication-attributes.ts";
import { setFound, type AttributeExtractor } from "./attribute-extractor.ts";

/** Whether a medication helped ("yes", "no", "maybe"). */
export const impact = {
  name: "impact",
  appliesTo: ["medication"],
  // "Has the cough syrup helped?": a medication's name may be several words.
  questionCue:
    /\b(?:does|did|has|have) (?:it|that|this|they|those|the (?:[\w-]+ ){0,3}[\w-]+) (?:help|helped|work|worked)\b/,
  readAnswer: (turn, entry) => setFound(turn, entry, "impact", extractImpact(turn.analysed.text)),
} as const satisfies AttributeExtractor;
