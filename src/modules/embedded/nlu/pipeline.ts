import { readTemperaturesSaid } from "./passes/temperatures-said.ts";
import type { NluFrame } from "../../../cmas/schemas.ts";
import type { AnalysedText } from "./analysed-text.ts";
import type { HistoryContext } from "./history-context.ts";
import type { ProxyReading } from "./informant.ts";
import { readAllergicReactions } from "./passes/allergic-reactions.ts";
import { answerAskedAttribute } from "./passes/asked-attribute-answers.ts";
import { readBackReferences } from "./passes/back-references.ts";
import { readCorrections } from "./passes/corrections.ts";
import { readDeniedAllergies } from "./passes/denied-allergies.ts";
import { readCertainty } from "./passes/certainty.ts";
import { addMentionEntries } from "./passes/mention-entries.ts";
import { filterAfterStatus, filterBeforeStatus } from "./passes/mention-filters.ts";
import {
  answerClarifying,
  answerContact,
  answerMedicationPurpose,
  answerNamedItems,
  answerPastExperience,
} from "./passes/question-answers.ts";
import { readPeriodsAndPregnancy } from "./passes/periods-and-pregnancy.ts";
import { readMentions } from "./passes/read-mentions.ts";
import { separatePains } from "./passes/separate-pains.ts";
import { answerSites } from "./passes/site-answers.ts";
import { attachVolunteeredDetails } from "./passes/volunteered-details.ts";
import { answerSmallTalk, dropRepeats, writeFrames } from "./passes/write-frames.ts";
import { answerYesNo } from "./passes/yes-no-answers.ts";
import { answerChoice } from "./passes/choice-answers.ts";
import { newTurnRecord, type InterpretResources, type TurnRecord } from "./turn-record.ts";

export type { InterpretResources } from "./turn-record.ts";

/**
 * The embedded NLU reads a patient turn with a pipeline of named passes over one turn record
 * (`turn-record.ts`). The utterance arrives tokenised (`analyseText`: cleaning, spelling, clauses,
 * sentences); then, in order:
 *
 * 1. mentions — concept phrases and the concept each denotes here;
 * 2. filters before status — mentions that are not reports (something heard of, an unasked topic word);
 * 3. certainty — negation and uncertainty cues, topic states, lists sharing a status;
 * 4. filters after status — mentions used as triggers or comparisons;
 * 5. entries — the slot each report belongs to (family history, someone else's habit) and its sites;
 * 6. answers to the question — medication purpose, a question back, periods and a possible
 *    pregnancy, named answers, the asked
 *    attribute, yes/no answers, the pick among findings offered, sick contacts, past episodes;
 * 7. volunteered attributes — what the patient says about what they name, and the social slots;
 *    back-references — a sentence of its own about "it" (the last symptom named, else the one asked);
 * 8. frames — repeats dropped, small talk, sites normalised, MediTOD frames written.
 *
 * A pass that decides the whole turn (a question asked back, small talk) sets `turn.frames` and the
 * passes after it do not run. `docs/embedded-engine.md` tells how to add a pass, a rule or an attribute.
 */
export interface NluPass {
  readonly name: string;
  readonly run: (turn: TurnRecord) => void;
}

/** The passes, in order. */
export const NLU_PASSES: readonly NluPass[] = [
  { name: "mentions", run: readMentions },
  { name: "filters before status", run: (turn) => filterBeforeStatus(turn) },
  { name: "certainty", run: readCertainty },
  { name: "filters after status", run: (turn) => filterAfterStatus(turn) },
  { name: "entries", run: addMentionEntries },
  { name: "allergic reactions", run: readAllergicReactions },
  { name: "denied allergies", run: readDeniedAllergies },
  { name: "medication purpose", run: answerMedicationPurpose },
  { name: "question asked back", run: answerClarifying },
  { name: "periods and pregnancy", run: readPeriodsAndPregnancy },
  { name: "named answers", run: answerNamedItems },
  { name: "asked attribute", run: answerAskedAttribute },
  { name: "corrections", run: readCorrections },
  { name: "site answers", run: answerSites },
  { name: "yes/no answers", run: answerYesNo },
  { name: "choice answers", run: answerChoice },
  { name: "temperatures said", run: readTemperaturesSaid },
  { name: "sick contacts", run: answerContact },
  { name: "past episodes", run: answerPastExperience },
  { name: "volunteered attributes", run: attachVolunteeredDetails },
  { name: "back-references", run: readBackReferences },
  { name: "separate pains", run: separatePains },
  { name: "repeats", run: dropRepeats },
  { name: "small talk", run: answerSmallTalk },
  { name: "frames", run: writeFrames },
];

/** Runs the passes over a turn record until one decides the turn's frames. */
export function runPasses(turn: TurnRecord, passes: readonly NluPass[] = NLU_PASSES): TurnRecord {
  for (const pass of passes) {
    pass.run(turn);
    if (turn.frames) break;
  }
  return turn;
}

/** The NLU frames of one analysed patient utterance in its dialogue context (never empty). */
export function interpretTurn(
  resources: InterpretResources,
  analysed: AnalysedText,
  context: HistoryContext,
  proxy: ProxyReading | null = null,
): NluFrame[] {
  return runPasses(newTurnRecord(resources, analysed, context, proxy)).frames!;
}
