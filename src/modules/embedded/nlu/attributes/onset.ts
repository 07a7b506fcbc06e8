import { readStart } from "./starting.ts";
import { textOf } from "../analysed-text.ts";
import { withoutMenstrualTimes } from "../menstrual-history.ts";
import { extractOnset } from "../time-expressions.ts";
import { leftToAnswer, type AttributeExtractor } from "./attribute-extractor.ts";

/** "When did it start?", "how long ago?", "how long have you had it?", "how long has the cough been going on?". */
const ONSET_CUE =
  /\bwhen (?:did|was|were|do you (?:first )?(?:notice|remember))\b|\bhow long ago\b|\bsince when\b|\bhow long have you (?:had|been having|noticed|been experiencing|been feeling)\b|\bwhen .*(?:start|begin|began|notice)|\bhow long (?:has|have) (?:it|this|that|they|these|the \w+|your \w+) been (?:going on|happening|there|around|bothering you)\b/;

/** When a symptom began ("about two months ago"); asked of a habit or condition it is when it started. */
export const onset = {
  name: "onset",
  appliesTo: ["symptom"],
  questionCue: ONSET_CUE,
  // A sentence's one onset dates every symptom it names: patients give one start for the complaint as a whole.
  readVolunteered: (span) => {
    if (!leftToAnswer(span))
      span.turn.entries.set(
        span.entry,
        "onset",
        // "Tummy pain, my last period was 6 weeks ago": the period's time dates no symptom.
        extractOnset(withoutMenstrualTimes(textOf(span.turn.analysed, ...span.sentence))),
      );
  },
  readAnswer: readStart,
  example: {
    history: ["What brings you in?", "A cough."],
    question: "When did the cough start?",
    answer: "About two months ago.",
    attribute: "onset",
    expected: "two months ago",
  },
} as const satisfies AttributeExtractor;
