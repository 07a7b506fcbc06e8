import { extractRelations } from "../family-relations.ts";
import { setFound, type AttributeExtractor } from "./attribute-extractor.ts";

/** Who in the family has a condition. */
export const relation = {
  name: "relation",
  appliesTo: ["family_history"],
  questionCue: /\bwho (?:in your family|has|had)\b|\bwhich (?:family member|relative)\b/,
  readAnswer: (turn, entry) => setFound(turn, entry, "relation", extractRelations(turn.lexicon, turn.analysed)[0]),
} as const satisfies AttributeExtractor;
