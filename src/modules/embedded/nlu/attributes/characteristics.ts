import type { CollectedEntry } from "../frame-builder.ts";
import { readMedicineMentions } from "../medicine-mentions.ts";
import { extractCharacteristics } from "../symptom-descriptors.ts";
import type { TurnRecord } from "../turn-record.ts";
import { setFound, type AttributeExtractor } from "./attribute-extractor.ts";

/** "Can you describe it?", "what does it feel like?", "dry or wet?", "sharp or dull?". */
const CHARACTERISTICS_CUE =
  /\b(?:describe|what (?:does|did) (?:it|the \w+|that) feel like|quality|what kind of (?:cough|pain)|what type of (?:cough|pain)|dry or|wet or|dry cough|productive|sharp or|dull or|barky|like a \w+ or)\b/;

/** Words of a short answer that are not the characteristic ("it's mostly", "I'd say"). */
const NOT_A_CHARACTERISTIC = /^(?:it's|its|it|is|mostly|pretty|very|kind|of|a|the|yeah|yes|i'd|say|would|i|like)$/;

/**
 * A short answer that rates, places, dates or tells the course of the symptom rather than describing
 * it: "10 out of 10", "about a 7", "all over", "its getting wose" (typed so), "since monday".
 */
const SAYS_ANOTHER_ATTRIBUTE =
  /\d|\b(?:out of|all over|everywhere|all around|getting|got|gotten|worse|better|the same|since|ago|started|yesterday)\b/;

/** Whether the answer names another entry or a medicine ("just the pill" to "can you describe the burning?"): then it is no description. */
function namesSomethingElse(turn: TurnRecord, entry: CollectedEntry): boolean {
  return (
    turn.found.some((found) => found.entry !== entry) || readMedicineMentions(turn.analysed.text, false).length > 0
  );
}

/**
 * The symptom's characteristics; a one- or two-word answer is the characteristic itself ("Uh harsh."),
 * unless it is an unsure one ("Not sure.", "Don't know.") or a refusal ("No." to "can he describe the
 * confusion?": he cannot), which describes nothing.
 */
function readCharacteristics(turn: TurnRecord, entry: CollectedEntry): boolean {
  const { lexicon, analysed } = turn;
  const { tokens } = analysed;
  let found = extractCharacteristics(lexicon, entry.attributes.value as string, analysed, 0, tokens.length);
  if (
    found.length === 0 &&
    turn.polarity !== "unknown" &&
    turn.polarity !== "no" &&
    !SAYS_ANOTHER_ATTRIBUTE.test(analysed.text) &&
    !namesSomethingElse(turn, entry)
  ) {
    const words = tokens.filter((token) => token.kind === "word" && !NOT_A_CHARACTERISTIC.test(token.text));
    if (words.length >= 1 && words.length <= 2 && tokens.filter((token) => token.kind === "word").length <= 4)
      found = [words.map((token) => token.text).join(" ")];
  }
  return setFound(turn, entry, "positive_characteristics", found);
}

/** What a symptom is like. */
export const characteristics = {
  name: "characteristics",
  appliesTo: ["symptom"],
  questionCue: CHARACTERISTICS_CUE,
  readVolunteered: (span) => {
    if (!span.mention) return;
    const { lexicon, analysed, entries } = span.turn;
    entries.set(
      span.entry,
      "positive_characteristics",
      extractCharacteristics(lexicon, span.entry.attributes.value as string, analysed, span.clause[0], span.spanEnd),
    );
  },
  readAnswer: readCharacteristics,
  example: {
    history: ["What brings you in?", "A cough."],
    question: "How would you describe the cough?",
    answer: "Uh harsh.",
    attribute: "positive_characteristics",
    expected: ["harsh"],
  },
} as const satisfies AttributeExtractor;
