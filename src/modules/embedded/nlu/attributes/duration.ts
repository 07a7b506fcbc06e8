import { extractDuration } from "../time-expressions.ts";
import { setFound, spanText, type AttributeExtractor } from "./attribute-extractor.ts";

/** "How long does it last?", "is it constant or does it come and go?". */
const DURATION_CUE =
  /\bhow long (?:does|do|did|will|would) (?:it|they|that|the \w+|each \w+|these|those) (?:\w+ )?last\b|\b(?:constant|constantly|all the time|come and go|comes and goes|on and off|intermittent)\b/;

/** How long a symptom lasts; a bare yes adopts the doctor's proposal ("has it been constant?"), and its onset. */
export const duration = {
  name: "duration",
  appliesTo: ["symptom"],
  questionCue: DURATION_CUE,
  readVolunteered: (span) => span.turn.entries.set(span.entry, "duration", extractDuration(spanText(span))),
  readAnswer: (turn, entry) => {
    const { polarity } = turn;
    const { proposed } = turn.context.question;
    const found = setFound(
      turn,
      entry,
      "duration",
      extractDuration(turn.analysed.text, true) ?? (polarity === "yes" ? proposed.duration : undefined),
    );
    if (polarity === "yes" && proposed.onset) turn.entries.set(entry, "onset", proposed.onset);
    return found;
  },
  example: {
    history: ["What brings you in?", "Chest pain."],
    question: "How long does it last?",
    answer: "About 20 minutes.",
    attribute: "duration",
    expected: "20 minutes",
  },
} as const satisfies AttributeExtractor;
