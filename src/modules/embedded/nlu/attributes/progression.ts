import { extractProgression } from "../symptom-descriptors.ts";
import { setFound, type AttributeExtractor } from "./attribute-extractor.ts";

/** "Is it getting worse?", "has it changed since?", "better or worse?". */
const PROGRESSION_CUE =
  /\b(?:getting (?:worse|better)|gotten (?:worse|better)|staying the same|stayed the same|changed (?:since|over)|progress(?:ed|ing)?|improving|worsening|better or worse|worse or better)\b/;

/** How a symptom has changed; a bare yes adopts the trend the doctor proposed. */
export const progression = {
  name: "progression",
  appliesTo: ["symptom"],
  questionCue: PROGRESSION_CUE,
  readVolunteered: (span) => {
    const { lexicon, analysed, entries } = span.turn;
    entries.set(
      span.entry,
      "progression",
      extractProgression(lexicon, analysed, span.mention?.start ?? span.sentence[0], span.spanEnd),
    );
  },
  readAnswer: (turn, entry) => {
    const { lexicon, analysed, polarity } = turn;
    const said = extractProgression(lexicon, analysed, 0, analysed.tokens.length, true);
    return setFound(
      turn,
      entry,
      "progression",
      said ?? (polarity === "yes" ? turn.context.question.proposed.progression : undefined),
    );
  },
  example: {
    history: ["What brings you in?", "A cough."],
    question: "Has it been getting better or worse?",
    answer: "It's been getting worse.",
    attribute: "progression",
    expected: "gradually getting worse over time",
  },
} as const satisfies AttributeExtractor;
