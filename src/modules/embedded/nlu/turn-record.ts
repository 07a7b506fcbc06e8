import type { NluFrame } from "../../../cmas/schemas.ts";
import { textOf, type AnalysedText } from "./analysed-text.ts";
import type { Mention } from "./concept-mentions.ts";
import type { HistoryContext } from "./history-context.ts";
import type { ProxyReading } from "./informant.ts";
import { EntryCollector, type Found } from "./frame-builder.ts";
import type { Concept, Lexicon } from "./lexicon.ts";
import { answerPolarity, type AnswerPolarity, type Status } from "./negation.ts";
import type { SmallTalkClassifier } from "./small-talk.ts";

/**
 * One patient turn as the NLU passes read it: the analysed utterance and its dialogue context, what
 * each pass found so far, and the entries that become the turn's frames. Every pass reads this
 * record and adds to it (`passes/`, run in order by `pipeline.ts`).
 */

/** What the NLU reads with: the compiled lexicon and the small-talk classifier. */
export interface InterpretResources {
  readonly lexicon: Lexicon;
  readonly smallTalk: SmallTalkClassifier;
}

/** A concept mention with the concept chosen for it and, once read, its status. */
export interface MentionReading {
  readonly mention: Mention;
  readonly concept: Concept;
  /** Set by the certainty pass; undefined before it. */
  readonly status?: Status;
}

export interface TurnRecord extends InterpretResources {
  readonly analysed: AnalysedText;
  readonly context: HistoryContext;
  /** How the turn answers a yes/no question ("No.", "I do", "Not that I know of"). */
  readonly polarity: AnswerPolarity | undefined;
  /** The first sentence, where short answers are read. */
  readonly firstSentence: string;
  /** Values the doctor's question asked about. */
  readonly askedValues: ReadonlySet<string | undefined>;
  readonly entries: EntryCollector;
  /** A relative or carer speaking for the patient, as known after this turn (null: the patient speaks). */
  readonly proxy: ProxyReading | null;
  /** Every concept mention of the utterance (cue words inside one are part of the concept). */
  mentions: Mention[];
  /** The concept mentions still read as reports, in text order (the mention passes narrow it). */
  readings: MentionReading[];
  /** Entries that came from a phrase of the utterance, with the phrase. */
  found: Found[];
  /** Whether the utterance names its answer to the items asked (set by the named-answers pass). */
  itemsAnswered: boolean;
  /** Whether the attribute the doctor asked for was found in the answer. */
  attributeAnswered: boolean;
  /**
   * Values of asked items a pass has already answered by a reading of its own (a pregnancy, to "when
   * was your last period, and any chance you could be pregnant?"): the generic attribute and yes/no
   * passes leave them.
   */
  readonly settled: Set<string>;
  /** Set by a pass that decides the whole turn (a clarifying question back, small talk): the pipeline stops. */
  frames?: NluFrame[];
}

/** The record of a turn before any pass has run. */
export function newTurnRecord(
  resources: InterpretResources,
  analysed: AnalysedText,
  context: HistoryContext,
  proxy: ProxyReading | null = null,
): TurnRecord {
  const first = analysed.sentences[0];
  return {
    ...resources,
    analysed,
    context,
    polarity: answerPolarity(analysed.tokens),
    firstSentence: first ? textOf(analysed, first[0], first[1]) : analysed.text,
    askedValues: new Set(context.question.items.map((item) => item.value)),
    entries: new EntryCollector(),
    proxy,
    mentions: [],
    readings: [],
    found: [],
    itemsAnswered: false,
    attributeAnswered: false,
    settled: new Set(),
  };
}
