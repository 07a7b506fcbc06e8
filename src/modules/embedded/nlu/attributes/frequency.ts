import { extractHabitFrequency } from "../habit-attributes.ts";
import { extractFrequency } from "../time-expressions.ts";
import { leftToAnswer, setFound, spanText, type AttributeExtractor } from "./attribute-extractor.ts";

/** "How often", "how many cigarettes", "how much do you drink". */
const FREQUENCY_CUE =
  /\bhow often|how many times|how frequently|how much do you (?:smoke|drink)|how many (?:cigarettes|packs|drinks|beers|joints)|how much alcohol|how regularly\b/;

/** How often (a habit: how much, "30 cigarettes a day"). */
export const frequency = {
  name: "frequency",
  appliesTo: ["symptom", "habit", "medication", "medical_history"],
  questionCue: FREQUENCY_CUE,
  readVolunteered: (span) => {
    if (!leftToAnswer(span)) span.turn.entries.set(span.entry, "frequency", extractFrequency(spanText(span)));
  },
  readAnswer: (turn, entry) => {
    const { text } = turn.analysed;
    return setFound(
      turn,
      entry,
      "frequency",
      entry.base === "habit" ? extractHabitFrequency(text, true) : extractFrequency(text, true),
    );
  },
  example: {
    question: "How many cigarettes do you smoke?",
    answer: "About 10 a day.",
    attribute: "frequency",
    expected: "10 a day",
  },
} as const satisfies AttributeExtractor;
