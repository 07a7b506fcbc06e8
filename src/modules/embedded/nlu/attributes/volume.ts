import { extractVolume } from "../symptom-descriptors.ts";
import { setFound, type AttributeExtractor } from "./attribute-extractor.ts";

/** "How much sputum", "teaspoons", "how much … a day". */
const VOLUME_CUE = /\bhow much (?:sputum|phlegm|mucus|blood|are you (?:bringing|producing|coughing))|teaspoons?|tablespoons?|how much .* (?:each|a|per) day\b/;

/** How much is brought up ("5 to 10 teaspoons a day"). */
export const volume = {
  name: "volume",
  appliesTo: ["symptom"],
  questionCue: VOLUME_CUE,
  readAnswer: (turn, entry) => setFound(turn, entry, "volume", extractVolume(turn.analysed.text)),
  example: { history: ["What brings you in?", "I'm coughing up phlegm."], question: "How much sputum are you bringing up?", answer: "Maybe 5 to 10 teaspoons a day.", attribute: "volume", expected: "5 to 10 teaspoons a day" },
} as const satisfies AttributeExtractor;
