import { extractColor } from "../symptom-descriptors.ts";
import { SPUTUM_VALUES } from "./volume.ts";
import { setFound, type AttributeExtractor } from "./attribute-extractor.ts";

/** The colour of what is coughed up ("white or yellowish"). */
export const color = {
  name: "color",
  appliesTo: ["symptom"],
  questionCue: /\bcolou?rs?\b/,
  // "A bit of clear stuff": what is coughed up (sputum, blood), from the clause to the sentence's end.
  readVolunteered: (span) => {
    if (!SPUTUM_VALUES.has(span.entry.attributes.value as string)) return;
    span.turn.entries.set(
      span.entry,
      "color",
      extractColor(span.turn.lexicon, span.turn.analysed, span.clause[0], span.sentence[1]),
    );
  },
  readAnswer: (turn, entry) =>
    setFound(turn, entry, "color", extractColor(turn.lexicon, turn.analysed, 0, turn.analysed.tokens.length)),
  example: {
    history: ["What brings you in?", "I'm coughing up phlegm."],
    question: "What colour is the phlegm?",
    answer: "White or yellowish.",
    attribute: "color",
    expected: "white or yellowish",
  },
} as const satisfies AttributeExtractor;
