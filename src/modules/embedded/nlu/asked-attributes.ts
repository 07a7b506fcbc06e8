import type { AnalysedText } from "./analysed-text.ts";
import { extractFactors } from "./ana-factors.ts";
import { extractLocations } from "./body-locations.ts";
import { findMentions, type Mention } from "./concept-mentions.ts";
import { extractRelations } from "./family-relations.ts";
import type { CollectedEntry, EntryCollector, Found } from "./frame-builder.ts";
import { extractHabitFrequency, extractHabitStarting } from "./habit-attributes.ts";
import type { Lexicon } from "./lexicon.ts";
import { extractImpact } from "./medication-attributes.ts";
import type { AnswerPolarity } from "./negation.ts";
import type { QuestionAnalysis } from "./question-analysis.ts";
import { extractSeverity, extractWalkingDistance } from "./severity.ts";
import { extractCharacteristics, extractColor, extractProgression, extractVolume } from "./symptom-descriptors.ts";
import { extractDuration, extractFrequency, extractInitiation, extractOnsetAnswer } from "./time-expressions.ts";

/**
 * The answer to an attribute question ("when did it start?", "how bad is it?", "what colour?"),
 * read with the extractor of that attribute, in its "asked" mode (bare numbers and periods count),
 * falling back on what the doctor proposed when the patient just agrees.
 */

/** Token spans where the utterance names `value` itself (a symptom is not its own trigger). */
export function ownMentions(lexicon: Lexicon, analysed: AnalysedText, value: string): Mention[] {
  return findMentions(lexicon, analysed).filter((mention) => mention.concepts.some((concept) => concept.value === value));
}

/** Extracts the attribute the doctor asked for and sets it on `entry`; true when found. */
export function readAskedAttribute(
  lexicon: Lexicon,
  analysed: AnalysedText,
  entries: EntryCollector,
  entry: CollectedEntry,
  question: QuestionAnalysis,
  polarity: AnswerPolarity | undefined,
  found: readonly Found[],
): boolean {
  const { text, tokens } = analysed;
  const all = tokens.length;
  const value = entry.attributes.value as string;
  const isHabit = entry.base === "habit";
  switch (question.attribute) {
    case "onset":
    case "starting": {
      if (isHabit || entry.base === "medical_history") {
        const starting = extractHabitStarting(text);
        entries.set(entry, "starting", starting);
        return starting !== undefined;
      }
      const onset = extractOnsetAnswer(text);
      entries.set(entry, "onset", onset);
      return onset !== undefined;
    }
    case "duration": {
      const duration = extractDuration(text, true) ?? (polarity === "yes" ? question.proposed.duration : undefined);
      entries.set(entry, "duration", duration);
      if (polarity === "yes" && question.proposed.onset) entries.set(entry, "onset", question.proposed.onset);
      return duration !== undefined;
    }
    case "frequency": {
      const frequency = isHabit ? extractHabitFrequency(text, true) : extractFrequency(text, true);
      entries.set(entry, "frequency", frequency);
      return frequency !== undefined;
    }
    case "severity": {
      // Exercise tolerance ("how far can you walk?" — "maybe 100 meters") grades breathlessness by distance.
      const severity = extractSeverity(text, true) ?? (question.exerciseTolerance ? extractWalkingDistance(text) : undefined);
      entries.set(entry, "severity", severity);
      return severity !== undefined;
    }
    case "progression": {
      const progression = extractProgression(lexicon, analysed, 0, all, true) ?? (polarity === "yes" ? question.proposed.progression : undefined);
      entries.set(entry, "progression", progression);
      return progression !== undefined;
    }
    case "characteristics": {
      let characteristics = extractCharacteristics(lexicon, value, analysed, 0, all);
      if (characteristics.length === 0) {
        // A one- or two-word answer is the characteristic itself ("Uh harsh.").
        const words = tokens.filter((token) => token.kind === "word" && !/^(?:it's|its|it|is|mostly|pretty|very|kind|of|a|the|yeah|yes|i'd|say|would|i|like)$/.test(token.text));
        if (words.length >= 1 && words.length <= 2 && tokens.filter((token) => token.kind === "word").length <= 4) characteristics = [words.map((token) => token.text).join(" ")];
      }
      entries.set(entry, "positive_characteristics", characteristics);
      return characteristics.length > 0;
    }
    case "ana_factors": {
      // Neither the symptom itself nor a medication ("Tylenol Cold") is a trigger.
      const own = [...ownMentions(lexicon, analysed, value), ...found.filter(({ entry: other }) => other.base === "medication").map(({ mention }) => mention)];
      const factors = extractFactors(lexicon, analysed, 0, all, own);
      let any = factors.aggravating.length + factors.alleviating.length > 0;
      entries.set(entry, "aggravating_factor", factors.aggravating);
      entries.set(entry, "alleviating_factor", factors.alleviating);
      if (!any && polarity === "yes") {
        // "Yeah, exertion. As well as the cough itself": the doctor's triggers and any named in the answer.
        const named = lexicon.factors.findAll(tokens).filter((match) => !own.some((span) => match.start < span.end && span.start < match.end)).flatMap((match) => match.payloads);
        entries.set(entry, "aggravating_factor", [...question.proposedFactors, ...named]);
        any = question.proposedFactors.length + named.length > 0;
      } else if (!any && polarity === "no" && question.proposedFactors.length > 0) {
        entries.set(entry, "not_aggravating_factor", question.proposedFactors);
        any = true;
      }
      return any;
    }
    case "initiation": {
      const initiation = extractInitiation(text);
      entries.set(entry, "initiation", initiation);
      return initiation !== undefined;
    }
    case "location": {
      const locations = extractLocations(lexicon, analysed, 0, all);
      entries.set(entry, "location", locations);
      return locations.length > 0;
    }
    case "color": {
      const color = extractColor(lexicon, analysed, 0, all);
      entries.set(entry, "color", color);
      return color !== undefined;
    }
    case "volume": {
      const volume = extractVolume(text);
      entries.set(entry, "volume", volume);
      return volume !== undefined;
    }
    case "impact": {
      const impact = extractImpact(text);
      entries.set(entry, "impact", impact);
      return impact !== undefined;
    }
    case "relation": {
      const relations = extractRelations(lexicon, analysed);
      entries.set(entry, "relation", relations[0]);
      return relations.length > 0;
    }
    default:
      return false;
  }
}
