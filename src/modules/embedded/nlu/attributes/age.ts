import type { AttributeExtractor } from "./attribute-extractor.ts";
import { AGE_CUE } from "../question-cues.ts";

/** The patient's age ("how old are you?"); read by the social details (`extractAge`), not as an asked attribute. */
export const age = {
  name: "age",
  appliesTo: ["basic_information"],
  questionCue: AGE_CUE,
} as const satisfies AttributeExtractor;
