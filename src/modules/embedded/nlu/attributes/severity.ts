import { EXERCISE_TOLERANCE } from "../question-cues.ts";
import { extractSeverity, extractWalkingDistance, verbalSeverity } from "../severity.ts";
import { textOf } from "../analysed-text.ts";
import { setFound, spanText, type AttributeExtractor, type VolunteeredSpan } from "./attribute-extractor.ts";

/** "On a scale of 1 to 10", "how bad is it?", "how far can you walk?". */
const SEVERITY_CUE = new RegExp(
  `${EXERCISE_TOLERANCE.source}|\\b(?:scale|out of (?:10|ten)|1 to 10|one to ten|zero to ten|0 to 10|rate (?:it|your|the|that)|how bad|how severe|severity|how intense)\\b`,
);

/** How many words before a symptom's name may rate it ("a really bad headache"). */
const RATED_BEFORE = 3;

/** A rating in words just before the symptom's name, in its clause: "a severe headache", "really bad cramps". */
function ratedBefore(span: VolunteeredSpan): string | undefined {
  if (!span.mention) return undefined;
  const from = Math.max(span.clause[0], span.mention.start - RATED_BEFORE);
  return verbalSeverity(textOf(span.turn.analysed, from, span.mention.start));
}

/** How bad, as the 0–10 number; exercise tolerance ("maybe 100 meters") grades breathlessness by distance. */
export const severity = {
  name: "severity",
  appliesTo: ["symptom"],
  questionCue: SEVERITY_CUE,
  // Unasked: "7 out of 10" said while describing it, with or without its name, or a rating in words ("a severe headache").
  readVolunteered: (span) =>
    span.turn.entries.set(
      span.entry,
      "severity",
      extractSeverity(spanText(span)) ?? ratedBefore(span) ?? verbalSeverity(spanText(span)),
    ),
  readAnswer: (turn, entry) => {
    const { text } = turn.analysed;
    return setFound(
      turn,
      entry,
      "severity",
      extractSeverity(text, true) ??
        (turn.context.question.exerciseTolerance ? extractWalkingDistance(text) : undefined),
    );
  },
  example: {
    history: ["What brings you in?", "Chest pain."],
    question: "How bad is the pain out of ten?",
    answer: "Uh, 6.",
    attribute: "severity",
    expected: "6",
  },
} as const satisfies AttributeExtractor;
