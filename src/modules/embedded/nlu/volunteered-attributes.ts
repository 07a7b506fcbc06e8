import { clauseRange, textOf, type AnalysedText } from "./analysed-text.ts";
import { extractFactors } from "./ana-factors.ts";
import { extractLocations } from "./body-locations.ts";
import type { CollectedEntry, EntryCollector, Found } from "./frame-builder.ts";
import type { Lexicon } from "./lexicon.ts";
import { extractSeverity } from "./severity.ts";
import { extractCharacteristics, extractColor, extractProgression, extractVolume } from "./symptom-descriptors.ts";
import { extractDuration, extractFrequency, extractOnset, extractVolunteeredInitiation } from "./time-expressions.ts";

/**
 * Attributes the patient volunteers ("it's been getting worse", "worse at night", "green phlegm"),
 * attached to the symptom phrase they describe: the nearest one before them in the sentence, or,
 * for an onset, every symptom of the sentence.
 */

/** How many tokens after a symptom its site may be named ("pain in my left calf"), and before it ("left calf pain"). */
const SITE_AFTER_WINDOW = 6;
const SITE_BEFORE_WINDOW = 3;

/** Attributes the patient volunteers, attached to the symptom phrase they describe (or the focus). */
export function attachSymptomAttributes(lexicon: Lexicon, analysed: AnalysedText, entries: EntryCollector, found: readonly Found[], attributeAnswered: boolean): void {
  const symptoms = found.filter(({ entry }) => entry.base === "symptom" && entry.status !== "negative");
  // "Tylenol Cold" is a medication, not cold weather.
  const medicationSpans = found.filter(({ entry }) => entry.base === "medication").map(({ mention }) => mention);
  for (const [start, end] of analysed.sentences) {
    const inSentence = symptoms.filter(({ mention }) => mention.start >= start && mention.start < end);
    const targets = inSentence;
    if (targets.length === 0) {
      // No symptom named here: the attributes describe what the question is about.
      const focusEntries = entries.all().filter((entry) => entry.fromQuestion && entry.base === "symptom" && entry.status === "positive");
      if (focusEntries.length === 0 || symptoms.length > 0) continue;
      applySentenceAttributes(lexicon, analysed, entries, focusEntries, start, end, attributeAnswered);
      continue;
    }
    const sentenceText = textOf(analysed, start, end);
    // A sentence's one onset dates every symptom it names ("pain in my chest for over a week now and it's
    // caused me trouble breathing"): patients give one start for the complaint as a whole.
    const onset = extractOnset(sentenceText);
    if (onset) for (const { entry } of targets) entries.set(entry, "onset", onset);
    for (const { mention, entry } of targets) {
      const value = entry.attributes.value as string;
      const next = targets.find((other) => other.mention.start > mention.start);
      const [clauseStart, clauseEnd] = clauseRange(analysed, mention.start);
      const spanEnd = Math.max(clauseEnd, next ? Math.min(end, next.mention.start) : end);
      entries.set(entry, "progression", extractProgression(lexicon, analysed, mention.start, spanEnd));
      entries.set(entry, "positive_characteristics", extractCharacteristics(lexicon, value, analysed, clauseStart, spanEnd));
      attachSputumDescriptors(lexicon, analysed, entries, entry, clauseStart, end);
      if (lexicon.locatable.has(value) && entry.attributes.location === undefined) {
        const after = extractLocations(lexicon, analysed, mention.end, Math.min(clauseEnd, mention.end + SITE_AFTER_WINDOW));
        const near = after.length > 0 ? after : extractLocations(lexicon, analysed, Math.max(clauseStart, mention.start - SITE_BEFORE_WINDOW), mention.start);
        // "My ankles have been a bit swollen": the subject of the clause.
        entries.set(entry, "location", near.length > 0 ? near : extractLocations(lexicon, analysed, clauseStart, mention.start));
      }
      const factors = extractFactors(lexicon, analysed, clauseStart, spanEnd, [mention, ...medicationSpans]);
      entries.set(entry, "aggravating_factor", factors.aggravating);
      entries.set(entry, "alleviating_factor", factors.alleviating);
      const spanText = textOf(analysed, mention.start, spanEnd);
      entries.set(entry, "severity", extractSeverity(spanText));
      entries.set(entry, "frequency", extractFrequency(spanText));
      entries.set(entry, "duration", extractDuration(spanText));
      entries.set(entry, "initiation", extractVolunteeredInitiation(spanText));
    }
  }
}

/** Colour and amount of what is coughed up (sputum, blood), read from tokens `[from, to)`. */
function attachSputumDescriptors(lexicon: Lexicon, analysed: AnalysedText, entries: EntryCollector, entry: CollectedEntry, from: number, to: number): void {
  const value = entry.attributes.value as string;
  if (value !== "colored/excess sputum" && value !== "hemoptysis") return;
  entries.set(entry, "color", extractColor(lexicon, analysed, from, to));
  entries.set(entry, "volume", extractVolume(textOf(analysed, from, to)));
}

/** Volunteered attributes of a sentence with no symptom phrase, for the symptoms asked about. */
function applySentenceAttributes(lexicon: Lexicon, analysed: AnalysedText, entries: EntryCollector, targets: readonly CollectedEntry[], start: number, end: number, attributeAnswered: boolean): void {
  const sentenceText = textOf(analysed, start, end);
  const factors = extractFactors(lexicon, analysed, start, end);
  for (const entry of targets) {
    // "Are you bringing anything up?" — "a bit of clear stuff".
    attachSputumDescriptors(lexicon, analysed, entries, entry, start, end);
    entries.set(entry, "aggravating_factor", factors.aggravating);
    entries.set(entry, "alleviating_factor", factors.alleviating);
    entries.set(entry, "duration", extractDuration(sentenceText));
    entries.set(entry, "progression", extractProgression(lexicon, analysed, start, end));
    if (!attributeAnswered) {
      entries.set(entry, "frequency", extractFrequency(sentenceText));
      entries.set(entry, "onset", extractOnset(sentenceText));
    }
  }
}
