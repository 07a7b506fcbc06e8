import { asksToRepeat } from "../language/repeat-requests.ts";
import { loadDiagnoses } from "../clinical/diagnoses.ts";
import type { DoctorAction, NluFrame } from "../cmas/schemas.ts";
import { Conversation } from "../dialogue-manager/conversation.ts";
import type { DialogueModules } from "../language/module-interfaces.ts";
import { actionSlots } from "../language/action-signature.ts";
import type { SelfPlayCase } from "./case-library.ts";
import { coverageOf } from "./coverage.ts";
import { PatientSimulator } from "./patient-simulator.ts";

/**
 * Self-play: a doctor (any backend) takes a whole history from the simulated patient of a case, and
 * the history is scored against the case: how much of its profile was asked (values, and the
 * attributes of positive values), in how many turns, how many questions were repeats, which of its
 * red flags the dialogue manager caught, and whether the closing fits (the diagnosis its history
 * supports, or an honest "none" where it supports none).
 */

export interface TranscriptLine {
  readonly turn: number;
  readonly speaker: "doctor" | "patient";
  readonly text: string;
  readonly actions?: DoctorAction[] | null;
  readonly frames?: NluFrame[] | null;
  readonly escalation?: readonly string[];
}

/** How the closing fits the case. */
export type ClosingFit =
  | "right diagnosis"
  | "honest none"
  | "missed diagnosis"
  | "wrong diagnosis"
  | "contradicted by the profile"
  | "no closing";

/** One case's self-play: the scores and the whole transcript. */
export interface CaseResult {
  readonly id: string;
  readonly title: string;
  readonly system: string;
  readonly source: string;
  readonly doctorTurns: number;
  /** Profile entries asked / in the profile. */
  readonly values: { readonly asked: number; readonly total: number };
  /** Attributes of positive entries asked / present. */
  readonly attributes: { readonly asked: number; readonly total: number };
  /** Facts and attributes together, as a fraction. */
  readonly coverage: number;
  /** Inquiries (slot, value, check) asked again in a later turn. */
  readonly repeatedQuestions: number;
  readonly redFlags: {
    readonly expected: readonly string[];
    readonly caught: readonly string[];
    readonly missed: readonly string[];
    readonly falseAlarms: readonly string[];
  };
  readonly expectedDiagnosis: string | null;
  readonly namedDiagnosis: string | null;
  readonly closing: ClosingFit;
  readonly error: string | null;
  readonly transcript: readonly TranscriptLine[];
}

/** `slot|value|check` of every inquiry entry of a turn. */
function inquiryKeys(actions: readonly DoctorAction[]): string[] {
  return actions
    .filter((action) => action.action === "inquire")
    .flatMap((action) =>
      actionSlots(action).flatMap(([slot, entries]) =>
        entries.flatMap((entry) => {
          const checks = (entry.checks ?? []).map((check) => check.type ?? "");
          return (checks.length > 0 ? checks : [""]).map((check) => `${slot}|${entry.value ?? ""}|${check}`);
        }),
      ),
    );
}

/**
 * Repeats: inquiries a turn makes that an earlier turn already made. A turn that answers the
 * patient's request to repeat or explain (`reasked[index]`) asks again on purpose: not a repeat.
 */
export function countRepeats(turns: readonly DoctorAction[][], reasked: readonly boolean[] = []): number {
  const seen = new Set<string>();
  let repeats = 0;
  for (const [index, actions] of turns.entries()) {
    const keys = new Set(inquiryKeys(actions));
    if (!reasked[index]) for (const key of keys) if (seen.has(key)) repeats += 1;
    for (const key of keys) seen.add(key);
  }
  return repeats;
}

function closingFit(patientCase: SelfPlayCase, named: string | null, closed: boolean): ClosingFit {
  if (!closed) return "no closing";
  if (named === null) return patientCase.diagnosis === null ? "honest none" : "missed diagnosis";
  if (named === patientCase.diagnosis) return "right diagnosis";
  return loadDiagnoses().supports(patientCase.profile, named) ? "wrong diagnosis" : "contradicted by the profile";
}

/** What a played history leaves: its transcript, the doctor's actions per turn, and how it closed. */
interface PlayedHistory {
  readonly conversation: Conversation;
  readonly transcript: TranscriptLine[];
  readonly turns: DoctorAction[][];
  /** Whether each doctor turn answers a patient's request to repeat or explain (the case simulator makes none today). */
  readonly reasked: boolean[];
  named: string | null;
  closed: boolean;
  error: string | null;
}

/** The disease a closing turn names, if the doctor's actions close the history. */
function closingOf(actions: readonly DoctorAction[]): { named: string | null } | undefined {
  const diagnosis = actions.find((action) => action.action === "diagnosis");
  if (!diagnosis) return undefined;
  const disease = Array.isArray(diagnosis.disease) ? diagnosis.disease[0]?.value : undefined;
  return { named: typeof disease === "string" ? disease : null };
}

/** Plays the doctor against the case's simulated patient until the history ends or the turns run out. */
async function playHistory(doctor: DialogueModules, patientCase: SelfPlayCase, maxDoctorTurns: number) {
  const simulator = new PatientSimulator(patientCase);
  const conversation = new Conversation(doctor, { maxDoctorTurns });
  const played: PlayedHistory = {
    conversation,
    transcript: [{ turn: 0, speaker: "doctor", text: conversation.opening }],
    turns: [],
    reasked: [],
    named: null,
    closed: false,
    error: null,
  };
  let said = simulator.openingStatement();
  for (let turn = 1; turn <= maxDoctorTurns; turn += 1) {
    const outcome = await conversation.say(said);
    played.transcript.push({ turn, speaker: "patient", text: said, frames: outcome.frames });
    if (outcome.error !== null) {
      played.error = outcome.error;
      break;
    }
    const actions = outcome.actions ?? [];
    played.turns.push(actions);
    played.reasked.push(asksToRepeat(said));
    const escalation = outcome.escalation.map((flag) => flag.id);
    played.transcript.push({
      turn,
      speaker: "doctor",
      text: outcome.doctor ?? "",
      actions,
      ...(escalation.length > 0 ? { escalation } : {}),
    });
    const closing = closingOf(actions);
    if (closing) Object.assign(played, { closed: true, named: closing.named });
    if (outcome.ended) break;
    said = simulator.answer(actions);
  }
  return played;
}

/** Takes one whole history from a case's simulated patient and scores it. */
export async function playCase(
  doctor: DialogueModules,
  patientCase: SelfPlayCase,
  maxDoctorTurns = 80,
): Promise<CaseResult> {
  const played = await playHistory(doctor, patientCase, maxDoctorTurns);
  const coverage = coverageOf(patientCase.profile, played.turns.flat());
  const values = { asked: coverage.facts.filter((fact) => fact.asked).length, total: coverage.facts.length };
  const attributes = { asked: coverage.asked - values.asked, total: coverage.total - values.total };
  const fired = played.conversation.snapshot().redFlags.map((flag) => flag.id);
  return {
    id: patientCase.id,
    title: patientCase.title,
    system: patientCase.system,
    source: patientCase.source,
    doctorTurns: played.turns.length,
    values,
    attributes,
    coverage: coverage.total === 0 ? 1 : coverage.asked / coverage.total,
    repeatedQuestions: countRepeats(played.turns, played.reasked),
    redFlags: {
      expected: patientCase.redFlags,
      caught: patientCase.redFlags.filter((id) => fired.includes(id)),
      missed: patientCase.redFlags.filter((id) => !fired.includes(id)),
      falseAlarms: fired.filter((id) => !patientCase.redFlags.includes(id)),
    },
    expectedDiagnosis: patientCase.diagnosis,
    namedDiagnosis: played.named,
    closing: closingFit(patientCase, played.named, played.closed),
    error: played.error,
    transcript: played.transcript,
  };
}

/** Self-play over many cases: means, totals and how the closings fit. */
export interface SelfPlaySummary {
  readonly cases: number;
  readonly meanCoverage: number;
  readonly meanValueCoverage: number;
  readonly meanAttributeCoverage: number;
  readonly meanDoctorTurns: number;
  readonly repeatedQuestions: number;
  readonly redFlags: {
    readonly expected: number;
    readonly caught: number;
    readonly missed: number;
    readonly falseAlarms: number;
  };
  /** Cases whose closing was the right diagnosis or an honest none, over all cases. */
  readonly closingFit: number;
  readonly closings: Readonly<Record<ClosingFit, number>>;
  readonly contradicted: readonly string[];
}

const mean = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
const ratio = (part: { asked: number; total: number }) => (part.total === 0 ? 1 : part.asked / part.total);

/** The overall figures of a self-play run. */
export function summarise(results: readonly CaseResult[]): SelfPlaySummary {
  const closings: Record<ClosingFit, number> = {
    "right diagnosis": 0,
    "honest none": 0,
    "missed diagnosis": 0,
    "wrong diagnosis": 0,
    "contradicted by the profile": 0,
    "no closing": 0,
  };
  for (const result of results) closings[result.closing] += 1;
  const count = (pick: (result: CaseResult) => readonly string[]) =>
    results.reduce((sum, result) => sum + pick(result).length, 0);
  return {
    cases: results.length,
    meanCoverage: mean(results.map((result) => result.coverage)),
    meanValueCoverage: mean(results.map((result) => ratio(result.values))),
    meanAttributeCoverage: mean(results.map((result) => ratio(result.attributes))),
    meanDoctorTurns: mean(results.map((result) => result.doctorTurns)),
    repeatedQuestions: results.reduce((sum, result) => sum + result.repeatedQuestions, 0),
    redFlags: {
      expected: count((result) => result.redFlags.expected),
      caught: count((result) => result.redFlags.caught),
      missed: count((result) => result.redFlags.missed),
      falseAlarms: count((result) => result.redFlags.falseAlarms),
    },
    closingFit: results.length === 0 ? 0 : (closings["right diagnosis"] + closings["honest none"]) / results.length,
    closings,
    contradicted: results
      .filter((result) => result.closing === "contradicted by the profile")
      .map((result) => result.id),
  };
}
