import { textOf } from "../analysed-text.ts";
import { extractVolume } from "../symptom-descriptors.ts";
import { setFound, type AttributeExtractor } from "./attribute-extractor.ts";

/**
 * "How much sputum", "teaspoons", "how much … a day", and the embedded doctor's own wording of the
 * check (`nlg-templates.json` inquire/symptom/volume): "how much coughing up blood are you getting?".
 */
const VOLUME_CUE =
  /\bhow much (?:sputum|phlegm|mucus|blood|are you (?:bringing|producing|coughing))|\bhow much (?:[\w/]+ ){1,4}are you (?:getting|bringing up|coughing up|producing)\b|teaspoons?|tablespoons?|how much .* (?:each|a|per) day\b/;

/** Symptoms that are something coughed up, which have a colour and an amount. */
export const SPUTUM_VALUES: ReadonlySet<string> = new Set(["colored/excess sputum", "hemoptysis"]);

/** How much is brought up ("5 to 10 teaspoons a day"). */
export const volume = {
  name: "volume",
  appliesTo: ["symptom"],
  questionCue: VOLUME_CUE,
  readVolunteered: (span) => {
    if (!SPUTUM_VALUES.has(span.entry.attributes.value as string)) return;
    span.turn.entries.set(
      span.entry,
      "volume",
      extractVolume(textOf(span.turn.analysed, span.clause[0], span.sentence[1])),
    );
  },
  readAnswer: (turn, entry) => setFound(turn, entry, "volume", extractVolume(turn.analysed.text)),
  example: {
    history: ["What brings you in?", "I'm coughing up phlegm."],
    question: "How much sputum are you bringing up?",
    answer: "Maybe 5 to 10 teaspoons a day.",
    attribute: "volume",
    expected: "5 to 10 teaspoons a day",
  },
} as const satisfies AttributeExtractor;
