import { extractColor } from "../symptom-descriptors.ts";
import { setFound, type AttributeExtractor } from "./attribute-extractor.ts";

/** The colour of what is coughed up ("white or yellowish"). */
export const color = {
  name: "color",
  appliesTo: ["symptom"],
  questionCue: /\bcolou?rs?\b/,
  readAnswer: (turn, entry) => setFound(turn, entry, "color", extractColor(turn.lexicon, turn.analysed, 0, turn.analysed.tokens.length)),
  example: { history: ["What brings you in?", "I'm coughing up phlegm."], question: "What colour is the phlegm?", answer: "White or yellowish.", attribute: "color", expected: "white or yellowish" },
} as const satisfies AttributeExtractor;
