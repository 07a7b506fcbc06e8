import { clauseRange, textOf } from "./analysed-text.ts";
import type { AttributeExtractor, VolunteeredSpan } from "./attributes/attribute-extractor.ts";
import { anaFactors } from "./attributes/ana-factors.ts";
import { characteristics } from "./attributes/characteristics.ts";
import { color } from "./attributes/color.ts";
import { duration } from "./attributes/duration.ts";
import { frequency } from "./attributes/frequency.ts";
import { initiation } from "./attributes/initiation.ts";
import { location } from "./attributes/location.ts";
import { onset } from "./attributes/onset.ts";
import { progression } from "./attributes/progression.ts";
import { severity } from "./attributes/severity.ts";
import { volume } from "./attributes/volume.ts";
import type { CollectedEntry, Found } from "./frame-builder.ts";
import { readMedicineMentions } from "./medicine-mentions.ts";
import type { TurnRecord } from "./turn-record.ts";

/**
 * Attributes the patient volunteers ("it's been getting worse", "worse at night", "green phlegm"),
 * attached to the symptom phrase they describe: the nearest one before them in the sentence, or,
 * for an onset, every symptom of the sentence. Each attribute reads its own span
 * (`attributes/<name>.ts`, `readVolunteered`); this module decides the spans and the order, which is
 * the order of the attributes in the frames.
 */

/** Read for each symptom a sentence names, after the sentence's onset has dated them all. */
export const IN_MENTION: readonly AttributeExtractor[] = [
  progression,
  characteristics,
  color,
  volume,
  location,
  anaFactors,
  severity,
  frequency,
  duration,
  initiation,
];
/** Read for the symptoms asked about, from a sentence that names none ("a bit of clear stuff"). */
export const IN_SENTENCE: readonly AttributeExtractor[] = [
  color,
  volume,
  anaFactors,
  duration,
  progression,
  frequency,
  onset,
  severity,
  location,
];

/** The volunteered attributes of the symptoms a sentence names. */
function readMentionedSymptoms(
  turn: TurnRecord,
  targets: readonly Found[],
  sentence: readonly [number, number],
  exclude: readonly Found["mention"][],
): void {
  const spans: VolunteeredSpan[] = targets.map(({ mention, entry }) => {
    const next = targets.find((other) => other.mention.start > mention.start);
    const clause = clauseRange(turn.analysed, mention.start);
    const spanEnd = Math.max(clause[1], next ? Math.min(sentence[1], next.mention.start) : sentence[1]);
    return { turn, entry, mention, sentence, clause, spanEnd, exclude: [mention, ...exclude] };
  });
  // A sentence's one onset dates every symptom it names ("pain in my chest for over a week now and it's
  // caused me trouble breathing"): patients give one start for the complaint as a whole.
  for (const span of spans) onset.readVolunteered(span);
  for (const span of spans) for (const attribute of IN_MENTION) attribute.readVolunteered?.(span);
}

/** The volunteered attributes of one symptom read at one span, its onset first. */
export function readAttributesAt(span: VolunteeredSpan): void {
  onset.readVolunteered(span);
  for (const attribute of IN_MENTION) attribute.readVolunteered?.(span);
}

/** Volunteered attributes of a sentence with no symptom phrase, for the symptoms asked about. */
function readAskedSymptoms(
  turn: TurnRecord,
  targets: readonly CollectedEntry[],
  sentence: readonly [number, number],
): void {
  for (const entry of targets) {
    const span: VolunteeredSpan = { turn, entry, sentence, clause: sentence, spanEnd: sentence[1], exclude: [] };
    for (const attribute of IN_SENTENCE) attribute.readVolunteered?.(span);
  }
}

/** Whether a sentence names a habit, medicine, condition or anything but a symptom: its times and amounts are that thing's. */
function aboutSomethingElse(turn: TurnRecord, [start, end]: readonly [number, number]): boolean {
  const named = turn.found.some(
    ({ entry, mention }) => entry.base !== "symptom" && mention.start >= start && mention.start < end,
  );
  return named || readMedicineMentions(textOf(turn.analysed, start, end), false).length > 0;
}

/** Attributes the patient volunteers, attached to the symptom phrase they describe (or the focus). */
export function attachSymptomAttributes(turn: TurnRecord): void {
  const { analysed, entries, found } = turn;
  const symptoms = found.filter(({ entry }) => entry.base === "symptom" && entry.status !== "negative");
  // "Tylenol Cold" is a medication, not cold weather.
  const medicationSpans = found.filter(({ entry }) => entry.base === "medication").map(({ mention }) => mention);
  for (const sentence of analysed.sentences) {
    const [start, end] = sentence;
    const inSentence = symptoms.filter(({ mention }) => mention.start >= start && mention.start < end);
    if (inSentence.length > 0) {
      readMentionedSymptoms(turn, inSentence, sentence, medicationSpans);
      continue;
    }
    // No symptom named here: the attributes describe what the question is about, unless the sentence
    // is about something else ("I smoked for 30 years, stopped 5 years ago", "amlodipine once a day").
    const focusEntries = entries
      .all()
      .filter((entry) => entry.fromQuestion && entry.base === "symptom" && entry.status === "positive");
    if (focusEntries.length === 0 || symptoms.length > 0 || aboutSomethingElse(turn, sentence)) continue;
    readAskedSymptoms(turn, focusEntries, sentence);
  }
}
