import { clauseRange, textOf } from "../analysed-text.ts";
import type { VolunteeredSpan } from "../attributes/attribute-extractor.ts";
import type { CollectedEntry, Found } from "../frame-builder.ts";
import type { TokenSpan } from "../text.ts";
import type { TurnRecord } from "../turn-record.ts";
import { readAttributesAt } from "../volunteered-attributes.ts";

/**
 * Pass "back-references": "I've had a cough. It started about three days ago." A sentence that names
 * no symptom and opens by referring back ("it", "they", "this", "that") describes the symptom it
 * refers to: the last one the turn reports before it, else, when the turn reports none, the one
 * symptom the doctor's question is about ("Any cough?" — "It started yesterday."). The reference
 * stands in for the symptom's mention, so each attribute reads the span it reads after a mention.
 * A sentence whose "it" is the day, an event or a reason ("It was a long day.") gives nothing.
 */

/**
 * A sentence opening with a reference, after discourse words and a hedge: "so this has been going
 * on since yesterday", "i'd say it's an 8 out of ten", "they happen almost every day"; not "this
 * morning was really busy" (a time, not a reference).
 */
const OPENS_WITH_REFERENCE =
  /^(?:(?:and|so|but|well|yeah|yes|oh|also|now|then|honestly|like|i'd say|i would say|i think|i guess|probably|maybe)\b[\s,]*)*(it|they|(?:this|that)(?! (?:morning|afternoon|evening|night|day|week|weekend|month|year|time)\b))\b/;

/**
 * "It" that is not the symptom: the day, someone's, a reason. "it was a long day", "it's my
 * daughter's birthday on monday", "that's why i came in today", "that's all".
 */
const REFERS_ELSEWHERE =
  /^(?:it|this|that)(?:'s| is| was|'s been| has been) (?:just |really |such )?(?:a (?:long|busy|rough|hard|tough|bad|good|nice) (?:day|week|night|month|year)|my|your|his|her|our|their|why|how|what|all|the (?:reason|thing|day|week|weekend))\b/;

/** "They" who act are people, not symptoms: "they gave me antibiotics last week", "they told me it was a virus". */
const PEOPLE_AS_THEY =
  /^they (?:gave|give|told|tell|said|say|prescribed|sent|did|put|took|thought|think|wanted|want|checked|ran|found|asked|called|admitted|discharged|kept)\b/;

/** The reference a sentence opens with, or none (also none when the "it" is not the symptom). */
function openingReference(turn: TurnRecord, sentence: readonly [number, number]): TokenSpan | undefined {
  const text = textOf(turn.analysed, ...sentence);
  const opening = OPENS_WITH_REFERENCE.exec(text);
  if (!opening) return undefined;
  const offset = opening[0].length - opening[1]!.length;
  const rest = text.slice(offset);
  if (REFERS_ELSEWHERE.test(rest) || PEOPLE_AS_THEY.test(rest)) return undefined;
  const { tokens } = turn.analysed;
  const at = tokens[sentence[0]]!.start + offset;
  const start = tokens.findIndex((token, index) => index >= sentence[0] && token.start >= at);
  return start >= 0 && start < sentence[1] ? { start, end: start + 1 } : undefined;
}

/** The symptoms the turn reports as present (or maybe present), in text order. */
function reportedSymptoms(turn: TurnRecord): Found[] {
  const live = new Set(turn.entries.all());
  return turn.found.filter(({ entry }) => entry.base === "symptom" && entry.status !== "negative" && live.has(entry));
}

/** The one symptom the doctor's question names ("Any cough?", "And the cough?"), as a new positive entry. */
function askedSymptomEntry(turn: TurnRecord): CollectedEntry | undefined {
  const { symptoms } = turn.context.question;
  if (symptoms.length !== 1 || turn.entries.all().some((entry) => entry.base === "symptom")) return undefined;
  return turn.entries.add("symptom", "positive", symptoms[0]!.value, true);
}

/** Reads the attributes of the sentence opened by `reference` into `entry`. */
function readReferringSentence(
  turn: TurnRecord,
  entry: CollectedEntry,
  reference: TokenSpan,
  sentence: readonly [number, number],
): void {
  const medications = turn.found
    .filter(({ entry: other }) => other.base === "medication")
    .map(({ mention }) => mention);
  const span: VolunteeredSpan = {
    turn,
    entry,
    mention: reference,
    sentence,
    clause: clauseRange(turn.analysed, reference.start),
    spanEnd: sentence[1],
    exclude: [reference, ...medications],
  };
  readAttributesAt(span);
}

/** Attaches what each referring sentence says to the symptom it refers to. */
export function readBackReferences(turn: TurnRecord): void {
  const symptoms = reportedSymptoms(turn);
  const asked = symptoms.length === 0 ? askedSymptomEntry(turn) : undefined;
  for (const sentence of turn.analysed.sentences) {
    if (symptoms.some(({ mention }) => mention.start >= sentence[0] && mention.start < sentence[1])) continue;
    const entry = symptoms.filter(({ mention }) => mention.start < sentence[0]).at(-1)?.entry ?? asked;
    const reference = entry && openingReference(turn, sentence);
    if (entry && reference) readReferringSentence(turn, entry, reference, sentence);
  }
  // The question's symptom is reported only by what a sentence says about it.
  if (asked && Object.keys(asked.attributes).length === 1) turn.entries.remove(asked);
}
