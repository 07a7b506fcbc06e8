import { sentenceOf, textOf, type AnalysedText } from "../analysed-text.ts";
import { extractLocations } from "../body-locations.ts";
import { findMentions, type Mention } from "../concept-mentions.ts";
import type { HistoryContext } from "../history-context.ts";
import { chooseConcept } from "../choose-concept.ts";
import { isSpecificPain, type Concept, type Lexicon } from "../lexicon.ts";
import type { TurnRecord } from "../turn-record.ts";

/**
 * Pass 2, mentions: the concept phrases of the utterance, each with the concept it denotes here —
 * the one the question's slots point to, an asked item it shortens ("No fevers" to "fevers or
 * chills?"), or the specific pain a generic "it hurts" refers to.
 */
export function readMentions(turn: TurnRecord): void {
  const { lexicon, analysed, context } = turn;
  turn.mentions = findMentions(lexicon, analysed, context.question.slots);
  // In text order: "the pain" may refer to a pain named earlier in the turn.
  turn.readings = [];
  for (const mention of turn.mentions) turn.readings.push({ mention, concept: resolveConcept(turn, mention) });
}

/** The last specific pain the turn named before token `at` ("I have chest pain. The pain …"). */
function specificPainBefore(turn: TurnRecord, at: number): Concept | undefined {
  return turn.readings
    .filter(({ mention, concept }) => mention.end <= at && isSpecificPain(turn.lexicon, concept))
    .at(-1)?.concept;
}

/** The specific pain under discussion (chest pain, headache …), when the focus is one. */
export function painInFocus(lexicon: Lexicon, context: HistoryContext): Concept | undefined {
  const focused = context.focus[0];
  return focused && isSpecificPain(lexicon, focused) ? focused : undefined;
}

/** Whether the sentence of token `at` names a body site. */
export function namesSite(lexicon: Lexicon, analysed: AnalysedText, at: number): boolean {
  return extractLocations(lexicon, analysed, ...sentenceOf(analysed, at)).length > 0;
}

/** "the pain", "that pain", "this pain": a pain already talked about. */
function isDefinite(analysed: AnalysedText, start: number): boolean {
  return /^(?:the|that|this|my|your)$/.test(analysed.tokens[start - 1]?.text ?? "");
}

/** The concept a mention denotes in this turn. */
function resolveConcept(turn: TurnRecord, mention: Mention): Concept {
  const { lexicon, analysed, context, askedValues } = turn;
  const { question } = context;
  let concept = chooseConcept(lexicon, mention, question);
  // "No fevers or sweats" to "any fevers, chills or night sweats?": a shortened name of an asked item is that item.
  if (!askedValues.has(concept.value)) {
    const words = textOf(analysed, mention.start, mention.end).split(" ");
    const shortened = question.items.find(
      (item) =>
        item.slot === concept.slot &&
        item.value !== undefined &&
        words.every((word) => item.value!.split(" ").includes(word)),
    );
    if (shortened) concept = { ...concept, value: shortened.value! };
  }
  if (concept.value !== "pain" || concept.location) return concept;
  // "Any chest pain?" — "Yes, it hurts on the right": a generic pain is the specific one asked about.
  const asked = question.items.find((item) => item.slot === "symptom" && isSpecificPain(lexicon, item));
  if (asked?.value) return { ...concept, value: asked.value, ...(asked.location ? { location: asked.location } : {}) };
  // "When I take a deep breath the pain is a lot worse": "the pain" is the specific pain being discussed.
  const focused = specificPainBefore(turn, mention.start) ?? painInFocus(lexicon, context);
  if (focused && isDefinite(analysed, mention.start) && !namesSite(lexicon, analysed, mention.start)) {
    return { ...concept, value: focused.value, ...(focused.location ? { location: focused.location } : {}) };
  }
  return concept;
}
