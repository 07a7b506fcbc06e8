import type { Concept } from "./lexicon.ts";
import type { QuestionAnalysis } from "./question-types.ts";

/**
 * What the history tells the NLU about the current patient turn: the doctor's last question (read
 * with the one before, for "how about X?" follow-ups), the symptoms currently in focus (what "it" or
 * "your symptoms" refer to), and the concepts the patient has already reported.
 */

export interface HistoryContext {
  readonly question: QuestionAnalysis;
  /** Symptoms "it"/"this"/"your symptoms" most likely refer to, most recent first. */
  readonly focus: readonly Concept[];
  /** Medications the patient named most recently ("what do you take that for?"). */
  readonly medications: readonly Concept[];
  /** Values the patient has already reported as present (base slot + value keys). */
  readonly knownPositive: ReadonlySet<string>;
  /** Values already reported absent. */
  readonly knownNegative: ReadonlySet<string>;
  /** Where the generic pain already reported is felt (its latest sites), for telling a second pain apart. */
  readonly painSites: readonly string[];
}
