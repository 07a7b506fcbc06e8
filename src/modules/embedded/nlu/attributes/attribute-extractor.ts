import type { NluSlotName } from "../../../../cmas/cmas-names.ts";
import { textOf } from "../analysed-text.ts";
import type { CollectedEntry } from "../frame-builder.ts";
import type { TokenSpan } from "../text.ts";
import type { TurnRecord } from "../turn-record.ts";

/**
 * One attribute a doctor can ask about, in one file of `attributes/`: which slots it describes, the
 * words that ask for it, and how an answer to it is read. The registry (`registry.ts`) lists them in
 * the order their question cues are tried.
 */
export interface AttributeExtractor {
  /** The attribute as the question analysis names it (a CMAS check type). */
  readonly name: string;
  /** Slots whose entries it describes (each must allow it as a check type: `tests/…/attribute-registry.test.ts`). */
  readonly appliesTo: readonly NluSlotName[];
  /** Words of a doctor question that ask for it ("how long ago", "out of ten"), tried in registry order. */
  readonly questionCue: RegExp;
  /** Reads what the patient volunteers about a symptom (`volunteered-attributes.ts` decides the span and the order). */
  readonly readVolunteered?: (span: VolunteeredSpan) => void;
  /** Reads the answer to "what is its <attribute>?" into `entry`; true when the answer gave it. */
  readonly readAnswer?: (turn: TurnRecord, entry: CollectedEntry) => boolean;
  /** An example exchange the reader exists for: the answer sets `attribute` to `expected` (an attribute test is built from it). */
  readonly example?: {
    readonly history?: readonly string[];
    readonly question: string;
    readonly answer: string;
    readonly attribute: string;
    readonly expected: string | readonly string[];
  };
}

/**
 * Where a volunteered attribute of a symptom is read. With `mention`, the sentence names the symptom:
 * the clause is the mention's and the span runs to the next symptom named. Without, the sentence
 * names none and describes the symptom asked about: clause and span are the whole sentence.
 */
export interface VolunteeredSpan {
  readonly turn: TurnRecord;
  readonly entry: CollectedEntry;
  readonly mention?: TokenSpan;
  readonly sentence: readonly [number, number];
  readonly clause: readonly [number, number];
  readonly spanEnd: number;
  /** Phrases that are not triggers of this symptom: its own mention, medications ("Tylenol Cold"). */
  readonly exclude: readonly TokenSpan[];
}

/** The text from the symptom (or the sentence start) to the end of its span. */
export function spanText(span: VolunteeredSpan): string {
  return textOf(span.turn.analysed, span.mention?.start ?? span.sentence[0], span.spanEnd);
}

/** Whether a frequency or onset said in a sentence naming no symptom is left to the asked attribute's answer. */
export function leftToAnswer(span: VolunteeredSpan): boolean {
  return span.mention === undefined && span.turn.attributeAnswered;
}

/** Sets a value on the entry and says whether there was one. */
export function setFound(
  turn: TurnRecord,
  entry: CollectedEntry,
  attribute: string,
  value: string | readonly string[] | undefined,
): boolean {
  turn.entries.set(entry, attribute, value);
  return value !== undefined && (typeof value === "string" || value.length > 0);
}
