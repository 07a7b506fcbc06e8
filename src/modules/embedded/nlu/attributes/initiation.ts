import { extractInitiation, extractVolunteeredInitiation } from "../time-expressions.ts";
import { setFound, spanText, type AttributeExtractor } from "./attribute-extractor.ts";

/** How a symptom came on, in the ontology's words ("abruptly", "gradually"). */
export const initiation = {
  name: "initiation",
  appliesTo: ["symptom"],
  questionCue: /\b(?:sudden(?:ly)?|gradual(?:ly)?|all of a sudden|abrupt(?:ly)?|out of (?:nowhere|the blue))\b/,
  readVolunteered: (span) => {
    if (span.mention) span.turn.entries.set(span.entry, "initiation", extractVolunteeredInitiation(spanText(span)));
  },
  readAnswer: (turn, entry) => setFound(turn, entry, "initiation", extractInitiation(turn.analysed.text)),
  example: {
    history: ["What brings you in?", "Chest pain."],
    question: "Did it come on suddenly or gradually?",
    answer: "Out of nowhere.",
    attribute: "initiation",
    expected: "abruptly",
  },
} as const satisfies AttributeExtractor;
