import type { ClinicalNote } from "./clinical-note.ts";
import { presentation, visitHistory, type VisitHistory } from "./visit-history.ts";

/**
 * The note of a whole visit, in the sections clinicians' visit notes use (ACI-Bench's): the history
 * from the tracked state (`visit-history.ts`), and the examination, results, assessment and plan from
 * what the doctor stated, in the doctor's words. Headings are written in capitals on a line of their
 * own, the way a section tagger reads them.
 */

/** What the doctor found on examination of one body system, in their words. */
export interface ExaminationFindings {
  readonly system: string;
  readonly findings: readonly string[];
}

/** One problem of the assessment and plan: its name when the doctor gave one, and what they said of it. */
export interface PlannedProblem {
  readonly problem: string | null;
  /** Why: the doctor's impression and reasoning. */
  readonly reasoning: readonly string[];
  /** Tests ordered. */
  readonly testing: readonly string[];
  /** Medicines, procedures and referrals. */
  readonly treatment: readonly string[];
  /** What the patient was advised to do. */
  readonly counseling: readonly string[];
}

/** What the doctor stated in the visit: examination, results, assessment and plan, and whether the patient agreed to it. */
export interface DoctorStatements {
  readonly examination: readonly ExaminationFindings[];
  readonly results: readonly string[];
  readonly assessmentAndPlan: readonly PlannedProblem[];
  /** The patient said yes to the plan (and did not refuse it). */
  readonly patientAgrees: boolean;
}

/** A visit note: its history sections and the doctor's, and the one-line summary the assessment opens with. */
export interface VisitNote extends VisitHistory, DoctorStatements {
  readonly summary: string;
}

/**
 * The visit note of a history (its clinical note) and what the doctor stated; `account`, the patient's
 * own account in the third person, follows the opening of the history of present illness.
 */
export function visitNote(history: ClinicalNote, doctor: DoctorStatements, account: readonly string[] = []): VisitNote {
  const written = visitHistory(history);
  const [opening, ...rest] = written.historyOfPresentIllness;
  const illness =
    account.length > 0 && opening ? [opening, account.join(" "), ...rest] : written.historyOfPresentIllness;
  return { ...written, historyOfPresentIllness: illness, ...doctor, summary: presentation(history) };
}

/** The four labelled parts of a planned problem, in the order notes write them. */
const PLAN_PARTS: ReadonlyArray<readonly [keyof Omit<PlannedProblem, "problem">, string]> = [
  ["reasoning", "Medical Reasoning"],
  ["testing", "Additional Testing"],
  ["treatment", "Medical Treatment"],
  ["counseling", "Patient Education and Counseling"],
];

function planLines(problems: readonly PlannedProblem[], agrees: boolean): string[] {
  const blocks = problems.map((problem, index) => {
    const heading = problem.problem ? [`${index + 1}. ${problem.problem}.`] : [];
    const parts = PLAN_PARTS.filter(([part]) => problem[part].length > 0).map(
      ([part, label]) => `• ${label}: ${problem[part].join(" ")}`,
    );
    return [...heading, ...parts].join("\n");
  });
  if (agrees)
    blocks.push("Patient Agreements: The patient understands and agrees with the recommended medical treatment plan.");
  return blocks.filter((block) => block.length > 0);
}

/** A section as text: its heading on a line, a blank line, its paragraphs a blank line apart; nothing when empty. */
function section(heading: string, paragraphs: readonly string[]): string[] {
  return paragraphs.length > 0 ? [`${heading}\n\n${paragraphs.join("\n\n")}`] : [];
}

/** The visit note as text, sections in a clinician's order; a section with nothing to say is left out. */
export function visitNoteText(note: VisitNote): string {
  const examination = note.examination.map((system) => `• ${system.system}: ${system.findings.join(" ")}`);
  return [
    ...section("CHIEF COMPLAINT", note.chiefComplaint),
    ...section("HISTORY OF PRESENT ILLNESS", note.historyOfPresentIllness),
    ...section("REVIEW OF SYSTEMS", note.reviewOfSystems.length > 0 ? [note.reviewOfSystems.join("\n")] : []),
    ...section("PAST MEDICAL HISTORY", note.pastMedicalHistory),
    ...section("MEDICATIONS", note.medications),
    ...section("ALLERGIES", note.allergies),
    ...section("FAMILY HISTORY", note.familyHistory),
    ...section("SOCIAL HISTORY", note.socialHistory),
    ...section("PHYSICAL EXAMINATION", examination.length > 0 ? [examination.join("\n")] : []),
    ...section("RESULTS", note.results),
    ...section("ASSESSMENT AND PLAN", [note.summary, ...planLines(note.assessmentAndPlan, note.patientAgrees)]),
  ].join("\n\n");
}
