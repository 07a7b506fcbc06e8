import { ageInYears } from "../policy/complaint-questions.ts";
import type { DialogueTurn } from "../../../language/module-interfaces.ts";
import type { Informant } from "../../../language/informant.ts";

/**
 * A question to a relative speaking for the patient is about the patient: "have you had any fevers?"
 * becomes "has she had any fevers?" (he, or they when the sex is not known). Only the doctor's
 * questions about the history are turned; what is said to the speaker ("do you have any questions for
 * me?") is not.
 */

interface Pronouns {
  readonly subject: string;
  readonly object: string;
  readonly possessive: string;
  readonly reflexive: string;
  /** Whether the verb agrees as with "they" (have, do, are) rather than "she" (has, does, is). */
  readonly plural: boolean;
}

const PRONOUNS: Readonly<Record<"female" | "male" | "unknown", Pronouns>> = {
  female: { subject: "she", object: "her", possessive: "her", reflexive: "herself", plural: false },
  male: { subject: "he", object: "him", possessive: "his", reflexive: "himself", plural: false },
  unknown: { subject: "they", object: "them", possessive: "their", reflexive: "themselves", plural: true },
};

/** Auxiliary + "you" at the head of a question: "have you", "do you", "are you"… Group 1: the auxiliary. */
const AUXILIARY_YOU = /\b(have|do|are|were|did|can|could|would|will|has)\s+you\b/gi;

/** "you" as a subject after a conjunction: "when you get", "before you walk". Group 1: conjunction; group 2: verb. */
const SUBJECT_YOU = /\b(when|before|after|if|since|while|that|where)\s+you\s+([a-z]+)/gi;

/** Verbs whose third-person form is not just "+s". */
const IRREGULAR: Readonly<Record<string, string>> = { have: "has", do: "does", go: "goes", are: "is", were: "was" };

function agree(auxiliary: string, pronouns: Pronouns): string {
  const lower = auxiliary.toLowerCase();
  if (pronouns.plural) return lower;
  return IRREGULAR[lower] ?? lower;
}

function thirdPerson(verb: string, pronouns: Pronouns): string {
  if (pronouns.plural) return verb;
  if (IRREGULAR[verb]) return IRREGULAR[verb];
  if (/(?:s|sh|ch|x|z)$/.test(verb)) return `${verb}es`;
  return /[^aeiou]y$/.test(verb) ? `${verb.slice(0, -1)}ies` : `${verb}s`;
}

/** A question to the patient, turned into a question about the patient for a relative speaking. */
export function aboutThePatient(question: string, sex: Informant["patientSex"]): string {
  const pronouns = PRONOUNS[sex ?? "unknown"];
  return question
    .replace(AUXILIARY_YOU, (_, auxiliary: string) => `${agree(auxiliary, pronouns)} ${pronouns.subject}`)
    .replace(
      SUBJECT_YOU,
      (_, conjunction: string, verb: string) =>
        `${conjunction} ${pronouns.subject} ${thirdPerson(verb.toLowerCase(), pronouns)}`,
    )
    .replace(/\byou're\b/gi, pronouns.plural ? "they're" : `${pronouns.subject}'s`)
    .replace(/\byou've\b/gi, pronouns.plural ? "they've" : `${pronouns.subject}'s`)
    .replace(/\byourself\b/gi, pronouns.reflexive)
    .replace(/\byour\b/gi, pronouns.possessive)
    .replace(/\byou\b/gi, pronouns.object);
}

/** The nappy question's words. Example: "had fewer wet nappies than usual" of "has he had fewer wet nappies than usual in the last day?". */
const FEWER_NAPPIES = /\bhad fewer wet nappies than usual\b/;

/** The age from which a child is asked about weeing rather than nappies (most are out of nappies by three). */
const OUT_OF_NAPPIES_YEARS = 3;

/**
 * A question to the patient, turned into a question about the patient for a relative speaking, and
 * worded for the patient's age: a child of three or more is asked about weeing, not wet nappies.
 */
export function aboutThePatientOf(question: string, informant: Informant): string {
  const about = aboutThePatient(question, informant.patientSex);
  const years = informant.patientAge === null ? null : ageInYears(informant.patientAge);
  return years !== null && years >= OUT_OF_NAPPIES_YEARS
    ? about.replace(FEWER_NAPPIES, "been weeing less than usual")
    : about;
}

/** Whether someone other than the patient is giving the history. */
export function speaksForPatient(informant: Informant | undefined): informant is Informant {
  return informant !== undefined && informant.relation !== null;
}

/** Third-person auxiliaries of a question about the patient, back to the second person ("has she" → "have you"). */
const AUXILIARY_THIRD = /\b(has|does|is|was|have|do|are|were|did|can|could|would|will) (she|he|they)\b/gi;

const SECOND_PERSON: Readonly<Record<string, string>> = { has: "have", does: "do", is: "are", was: "were" };

/**
 * A question about the patient read back as a question to the patient ("has she had any fevers?" →
 * "have you had any fevers?"), so that the planner recognises what it asked a relative by the same
 * cues as what it asks a patient.
 */
function asAskedOfPatient(question: string): string {
  return question
    .replace(AUXILIARY_THIRD, (_, auxiliary: string) => `${SECOND_PERSON[auxiliary.toLowerCase()] ?? auxiliary} you`)
    .replace(/\b(?:herself|himself|themselves)\b/gi, "yourself")
    .replace(/\b(?:her|his|their)\b/gi, "your")
    .replace(/\b(?:she|he|they)\b/gi, "you");
}

/**
 * A history taken from a relative, with the doctor's questions as if asked of the patient: the
 * planner's cues and the NLU's question reader are worded so ("blood in your stool", not "in his").
 */
export function historyAskedOfPatient(history: readonly DialogueTurn[]): DialogueTurn[] {
  return history.map((turn) => (turn.speaker === "doctor" ? { ...turn, text: asAskedOfPatient(turn.text) } : turn));
}
