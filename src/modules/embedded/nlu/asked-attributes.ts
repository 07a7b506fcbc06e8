import type { AnalysedText } from "./analysed-text.ts";
import { attributeExtractor } from "./attributes/registry.ts";
import { findMentions, type Mention } from "./concept-mentions.ts";
import type { CollectedEntry } from "./frame-builder.ts";
import type { Lexicon } from "./lexicon.ts";
import type { TurnRecord } from "./turn-record.ts";

/**
 * The answer to an attribute question ("when did it start?", "how bad is it?", "what colour?"),
 * read by that attribute's extractor (`attributes/`) in its "asked" mode (bare numbers and periods
 * count), falling back on what the doctor proposed when the patient just agrees.
 */

/** Token spans where the utterance names `value` itself (a symptom is not its own trigger). */
export function ownMentions(lexicon: Lexicon, analysed: AnalysedText, value: string): Mention[] {
  return findMentions(lexicon, analysed).filter((mention) => mention.concepts.some((concept) => concept.value === value));
}

/** Extracts the attribute the doctor asked for and sets it on `entry`; true when found. */
export function readAskedAttribute(turn: TurnRecord, entry: CollectedEntry): boolean {
  return attributeExtractor(turn.context.question.attribute)?.readAnswer?.(turn, entry) ?? false;
}
