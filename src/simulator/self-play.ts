import { clinicalNote, type PatientVoice } from "../clinical/clinical-note.ts";
import { scoreOsceChecklist } from "../clinical/osce-checklist.ts";
import { noteInputOf } from "../dialogue-manager/note-input.ts";
import { asksToRepeat } from "../language/repeat-requests.ts";
import type { DoctorAction, NluFrame } from "../cmas/schemas.ts";
import { Conversation } from "../dialogue-manager/conversation.ts";
import type { DialogueModules } from "../language/module-interfaces.ts";
import { actionSlots } from "../language/action-signature.ts";
import type { SelfPlayCase } from "./case-library.ts";
import { checklistCaseOf } from "./checklist-case.ts";
import { CLOSING_FITS, closingFit, type ClosingFit } from "./closing-fit.ts";
import { coverageOf } from "./coverage.ts";
import { PatientSimulator } from "./patient-simulator.ts";
import { ScriptedPatient, type PatientAnswer } from "./scripted-patient.ts";

/**
 * Self-play: a doctor (any backend) takes a whole history from the simulated patient of a case — the
 * scripted patient of a library case, speaking its lay script; the profile patient of a MediTOD case —
 * and the history is scored from outside the doctor, never by its own rules: the OSCE history-taking
 * checklist over the doctor's questions (`src/clinical/osce-checklist.ts`), and against what the case
 * itself says: which of the case's facts the patient revealed, in how many turns, how many questions were repeats,
 * which of the red flags the case carries the dialogue manager caught (and which it raised that the case
 * does not carry), and whether the closing fits the case's expected answer (`closing-fit.ts`). The share
 * of profile items the doctor's actions named is kept as a secondary, labelled measure. What the note of
 * the history (the chat's note writer over the conversation) lists in the patient's own voice — their
 * questions, ideas, concerns and expectations — is kept with each case.
 */

export interface TranscriptLine {
  readonly turn: number;
  readonly speaker: "doctor" | "patient";
  readonly text: string;
  readonly actions?: DoctorAction[] | null;
  readonly frames?: NluFrame[] | null;
  readonly escalation?: readonly string[];
  /** A scripted patient's line: the facts of the case it revealed. */
  readonly revealed?: readonly string[];
}

/** Which simulated patient answers: the case's lay script (MediTOD cases have none and fall back to their profile), or the profile. */
export type PatientChoice = "script" | "profile";

/** A share: how many of how many. */
export interface Share {
  readonly asked: number;
  readonly total: number;
}

/** The OSCE history-taking checklist over the doctor's words (`src/clinical/osce-checklist.ts`). */
export interface ChecklistScore {
  /** Covered applicable items / applicable items. */
  readonly coverage: number;
  readonly covered: number;
  readonly applicable: number;
  /** The applicable items no question covered, by label. */
  readonly missed: readonly string[];
  /** Questions that asked again what an earlier one asked, read from the words. */
  readonly repeatedQuestions: number;
  /** Questions about unrelated systems asked before the complaint's own history was done. */
  readonly offTopicBeforeComplaintDone: number;
}

/** One case's self-play: the scores and the whole transcript. */
export interface CaseResult {
  readonly id: string;
  readonly title: string;
  readonly system: string;
  readonly source: string;
  /** The patient that answered: the case's script, or its profile. */
  readonly patient: PatientChoice;
  readonly doctorTurns: number;
  /** Coverage: the OSCE checklist over the doctor's questions. */
  readonly checklist: ChecklistScore;
  /** Facts of the case the scripted patient revealed / all its facts (null for a profile patient, which does not say). */
  readonly factRecall: Share | null;
  /**
   * Profile items the doctor's actions named (a secondary measure, credited by the doctor's own CMAS):
   * entries asked / in the profile, attributes of present entries asked / present, and both together.
   */
  readonly profileItems: { readonly values: Share; readonly attributes: Share; readonly share: number };
  /** Inquiries (slot, value, check) the doctor's actions asked again in a later turn. */
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
  /** What the note of this history lists as the patient's questions, ideas, concerns and expectations, in their words. */
  readonly questionsAndConcerns: readonly PatientVoice[];
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

/** A simulated patient as self-play uses it: an opening, answers to the doctor's actions, and the facts it revealed. */
interface SelfPlayPatient {
  readonly kind: PatientChoice;
  opening(): PatientAnswer;
  /** The answer to the doctor's actions (and their words, when said). */
  answer(actions: readonly DoctorAction[], text?: string): PatientAnswer;
  /** Facts revealed so far / all facts; null when the patient does not say. */
  recall(): Share | null;
}

/** The patient of a case: its scripted patient when asked for and the case has a script, else its profile simulator. */
function patientFor(patientCase: SelfPlayCase, choice: PatientChoice): SelfPlayPatient {
  const { script } = patientCase;
  if (choice === "script" && script) {
    const patient = new ScriptedPatient({ ...patientCase, script });
    return {
      kind: "script",
      opening: () => patient.opening(),
      answer: (actions, text) => patient.answer({ actions, ...(text === undefined ? {} : { text }) }),
      recall: () => ({ asked: patient.revealed.size, total: patient.facts.length }),
    };
  }
  const simulator = new PatientSimulator(patientCase);
  return {
    kind: "profile",
    opening: () => ({ text: simulator.openingStatement(), revealed: [] }),
    answer: (actions) => ({ text: simulator.answer(actions), revealed: [] }),
    recall: () => null,
  };
}

/** What a played history leaves: its transcript, the doctor's actions per turn, and how it closed. */
interface PlayedHistory {
  readonly conversation: Conversation;
  readonly patient: SelfPlayPatient;
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

/** How a patient line goes into the transcript: with the facts it revealed when the patient says. */
function patientLine(turn: number, said: PatientAnswer, patient: SelfPlayPatient, frames: NluFrame[] | null) {
  const line: TranscriptLine = { turn, speaker: "patient", text: said.text, frames };
  return patient.kind === "script" ? { ...line, revealed: said.revealed } : line;
}

/** Plays the doctor against the case's simulated patient until the history ends or the turns run out. */
async function playHistory(doctor: DialogueModules, patientCase: SelfPlayCase, options: Required<PlayOptions>) {
  const patient = patientFor(patientCase, options.patient);
  const conversation = new Conversation(doctor, { maxDoctorTurns: options.maxDoctorTurns });
  const played: PlayedHistory = {
    conversation,
    patient,
    transcript: [{ turn: 0, speaker: "doctor", text: conversation.opening }],
    turns: [],
    reasked: [],
    named: null,
    closed: false,
    error: null,
  };
  let said = patient.opening();
  for (let turn = 1; turn <= options.maxDoctorTurns; turn += 1) {
    const outcome = await conversation.say(said.text);
    played.transcript.push(patientLine(turn, said, patient, outcome.frames));
    if (outcome.error !== null) {
      played.error = outcome.error;
      break;
    }
    const actions = outcome.actions ?? [];
    played.turns.push(actions);
    played.reasked.push(asksToRepeat(said.text));
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
    said = patient.answer(actions, outcome.doctor ?? undefined);
  }
  return played;
}

/** How a case is played. */
export interface PlayOptions {
  /** Doctor turns before the history is cut off (default 80). */
  readonly maxDoctorTurns?: number;
  /** Which patient answers (default: the case's script, or its profile when it has none). */
  readonly patient?: PatientChoice;
}

const share = (part: Share) => (part.total === 0 ? 1 : part.asked / part.total);

/** The profile items the doctor's actions named (the secondary measure). */
function profileItemsOf(patientCase: SelfPlayCase, turns: readonly DoctorAction[][]): CaseResult["profileItems"] {
  const coverage = coverageOf(patientCase.profile, turns.flat());
  const values = { asked: coverage.facts.filter((fact) => fact.asked).length, total: coverage.facts.length };
  const attributes = { asked: coverage.asked - values.asked, total: coverage.total - values.total };
  return { values, attributes, share: share({ asked: coverage.asked, total: coverage.total }) };
}

/** The checklist's reading of a played history: every doctor and patient line, in order. */
function checklistOf(patientCase: SelfPlayCase, transcript: readonly TranscriptLine[]): ChecklistScore {
  const scored = scoreOsceChecklist(
    transcript.map((line) => ({ speaker: line.speaker, text: line.text })),
    checklistCaseOf(patientCase),
  );
  const applicable = scored.items.filter((item) => item.applicable);
  return {
    coverage: scored.coverage,
    covered: applicable.filter((item) => item.covered).length,
    applicable: applicable.length,
    missed: applicable.filter((item) => !item.covered).map((item) => item.label),
    repeatedQuestions: scored.repeatedQuestions,
    offTopicBeforeComplaintDone: scored.offTopicBeforeComplaintDone,
  };
}

/** Takes one whole history from a case's simulated patient and scores it. */
export async function playCase(
  doctor: DialogueModules,
  patientCase: SelfPlayCase,
  options: PlayOptions = {},
): Promise<CaseResult> {
  const played = await playHistory(doctor, patientCase, { maxDoctorTurns: 80, patient: "script", ...options });
  const snapshot = played.conversation.snapshot();
  const fired = snapshot.redFlags.map((flag) => flag.id);
  return {
    id: patientCase.id,
    title: patientCase.title,
    system: patientCase.system,
    source: patientCase.source,
    patient: played.patient.kind,
    doctorTurns: played.turns.length,
    checklist: checklistOf(patientCase, played.transcript),
    factRecall: played.patient.recall(),
    profileItems: profileItemsOf(patientCase, played.turns),
    repeatedQuestions: countRepeats(played.turns, played.reasked),
    redFlags: {
      expected: patientCase.redFlags,
      caught: patientCase.redFlags.filter((id) => fired.includes(id)),
      missed: patientCase.redFlags.filter((id) => !fired.includes(id)),
      falseAlarms: fired.filter((id) => !patientCase.redFlags.includes(id)),
    },
    expectedDiagnosis: patientCase.expected.diagnosis,
    namedDiagnosis: played.named,
    closing: closingFit(patientCase.expected, played.named, played.closed),
    questionsAndConcerns: clinicalNote(noteInputOf(snapshot)).questionsAndConcerns,
    error: played.error,
    transcript: played.transcript,
  };
}

/** A closing that named the wrong diagnosis, or one where the case supports none. */
export interface Misnamed {
  readonly id: string;
  readonly named: string;
  readonly expected: string | null;
}

/** Self-play over many cases: means, totals and how the closings fit. */
export interface SelfPlaySummary {
  readonly cases: number;
  /** Cases each patient answered. */
  readonly patients: Readonly<Record<PatientChoice, number>>;
  /** Mean OSCE checklist coverage of the doctor's questions: the primary coverage. */
  readonly meanChecklistCoverage: number;
  /** Questions the checklist reads as asked again, and questions off the complaint's systems before its own history was done (all cases). */
  readonly checklistRepeats: number;
  readonly offTopicQuestions: number;
  /** Mean share of the case's facts the scripted patient revealed, over the cases it answered (null: none). */
  readonly meanFactRecall: number | null;
  /** Mean share of profile items the doctor's actions named (secondary), and of its values and attributes. */
  readonly meanProfileItems: number;
  readonly meanProfileValues: number;
  readonly meanProfileAttributes: number;
  readonly meanDoctorTurns: number;
  /** Inquiries the doctor's actions asked again (all cases). */
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
  /** The wrong and unsupported diagnoses named. */
  readonly misnamed: readonly Misnamed[];
}

const mean = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

/** The overall figures of a self-play run. */
export function summarise(results: readonly CaseResult[]): SelfPlaySummary {
  const closings = Object.fromEntries(CLOSING_FITS.map((fit) => [fit, 0])) as Record<ClosingFit, number>;
  for (const result of results) closings[result.closing] += 1;
  const count = (pick: (result: CaseResult) => readonly string[]) =>
    results.reduce((sum, result) => sum + pick(result).length, 0);
  const recalls = results.flatMap((result) => (result.factRecall ? [share(result.factRecall)] : []));
  return {
    cases: results.length,
    patients: {
      script: results.filter((result) => result.patient === "script").length,
      profile: results.filter((result) => result.patient === "profile").length,
    },
    meanChecklistCoverage: mean(results.map((result) => result.checklist.coverage)),
    checklistRepeats: results.reduce((sum, result) => sum + result.checklist.repeatedQuestions, 0),
    offTopicQuestions: results.reduce((sum, result) => sum + result.checklist.offTopicBeforeComplaintDone, 0),
    meanFactRecall: recalls.length === 0 ? null : mean(recalls),
    meanProfileItems: mean(results.map((result) => result.profileItems.share)),
    meanProfileValues: mean(results.map((result) => share(result.profileItems.values))),
    meanProfileAttributes: mean(results.map((result) => share(result.profileItems.attributes))),
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
    misnamed: results.flatMap((result) =>
      result.closing === "wrong diagnosis" || result.closing === "unsupported diagnosis"
        ? [{ id: result.id, named: result.namedDiagnosis ?? "", expected: result.expectedDiagnosis }]
        : [],
    ),
  };
}
