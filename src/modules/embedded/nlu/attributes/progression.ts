import { textOf } from "../analysed-text.ts";
import { extractProgression } from "../symptom-descriptors.ts";
import { setFound, type AttributeExtractor, type VolunteeredSpan } from "./attribute-extractor.ts";

/** "Is it getting worse?", "has it changed since?", "better or worse?". */
const PROGRESSION_CUE =
  /\b(?:getting (?:worse|better)|gotten (?:worse|better)|staying the same|stayed the same|changed (?:since|over)|progress(?:ed|ing)?|improving|worsening|better or worse|worse or better)\b/;

/** Trends that before a symptom's name are its amount or its kind, not its course: "increased thirst", "constant pain", "the same cough". */
const NOT_A_TREND_BEFORE = new Set(["increasing", "increased", "decreasing", "improved", "improvement"]);
const UNCHANGED = "unchanged with time";

/**
 * A trend said just before the symptom's name, in its clause: "more and more breathless", "a
 * worsening cough", "getting more and more tired". Only a trend that ends where the name starts: "it
 * got worse after the fall, and now my knee hurts" is not about the knee.
 */
function trendBefore(span: VolunteeredSpan): string | undefined {
  const { lexicon, analysed } = span.turn;
  if (!span.mention) return undefined;
  const start = span.mention.start;
  const adjacent = lexicon.progression
    .findAll(analysed.tokens, span.clause[0], start)
    .filter((match) => match.end === start && !NOT_A_TREND_BEFORE.has(textOf(analysed, match.start, match.end)))
    .find((match) => match.payloads[0] !== UNCHANGED);
  return adjacent?.payloads[0];
}

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
      extractProgression(lexicon, analysed, span.mention?.start ?? span.sentence[0], span.spanEnd) ?? trendBefore(span),
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
