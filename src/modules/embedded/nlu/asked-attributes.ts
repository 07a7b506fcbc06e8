import { attributeExtractor } from "./attributes/registry.ts";
import type { CollectedEntry } from "./frame-builder.ts";
import type { TurnRecord } from "./turn-record.ts";

/**
 * The answer to an attribute question ("when did it start?", "how bad is it?", "what colour?"),
 * read by that attribute's extractor (`attributes/`) in its "asked" mode (bare numbers and periods
 * count), falling back on what the doctor proposed when the patient just agrees.
 */

/** Extracts the attribute the doctor asked for and sets it on `entry`; true when found. */
export function readAskedAttribute(turn: TurnRecord, entry: CollectedEntry): boolean {
  return attributeExtractor(turn.context.question.attribute)?.readAnswer?.(turn, entry) ?? false;
}
