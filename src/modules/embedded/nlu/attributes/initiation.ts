import { extractInitiation, extractVolunteeredInitiation } from "../time-expressions.ts";
import { textOf } from "../analysed-text.ts";
import { setFound, spanText, type AttributeExtractor, type VolunteeredSpan } from "./attribute-extractor.ts";

/** "A sudden headache", "sudden onset of pain", "an abrupt, severe pain": the word just before the name, or one adjective before it. */
const SUDDEN_BEFORE = /\b(?:sudden|abrupt)(?:\s+onset(?:\s+of)?)?(?:,?\s+[a-z]+)?\s*$/;

/** Whether "sudden" modifies the symptom's name itself ("a sudden headache"), not something else in the sentence. */
function suddenBefore(span: VolunteeredSpan): boolean {
  const { analysed } = span.turn;
  const start = span.mention!.start;
  return SUDDEN_BEFORE.test(textOf(analysed, Math.max(span.clause[0], start - 4), start));
}

/** How a symptom came on, in the ontology's words ("abruptly", "gradually"). */
export const initiation = {
  name: "initiation",
  appliesTo: ["symptom"],
  questionCue: /\b(?:sudden(?:ly)?|gradual(?:ly)?|all of a sudden|abrupt(?:ly)?|out of (?:nowhere|the blue))\b/,
  readVolunteered: (span) => {
    if (!span.mention) return;
    const said = extractVolunteeredInitiation(spanText(span)) ?? (suddenBefore(span) ? "abruptly" : undefined);
    span.turn.entries.set(span.entry, "initiation", said);
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
