import type { PatientRequest } from "../../../language/patient-requests.ts";
import { asksToRepeat } from "../../../language/repeat-requests.ts";
import { PATIENT_REQUEST_RULES } from "./rules/patient-requests.ts";

/**
 * The patient's questions and wishes, read before the history: each sentence a rule of
 * `rules/patient-requests.ts` matches is a request (a question, a wish to stop, a prescription asked
 * for, the doctor's instructions to be changed) and is taken out of the text the passes read, so
 * that "is it cancer?" is never a past history of malignancy nor "prescribe opioids" a habit.
 */

/** A patient turn split into what it asks of the doctor and the history it gives. */
export interface PatientRequestReading {
  readonly requests: PatientRequest[];
  /** The sentences that are no request, as said (empty when the turn only asks). */
  readonly history: string;
}

/** Where a sentence ends: after ".", "?" or "!" and a space. Example: "A cough. Is it cancer?" → two. */
const SENTENCE_BREAK = /(?<=[.?!])\s+/;

/** Words before a request that are no part of it. Example: "Yes, doctor, is it serious?" → "is it serious?". */
const LEAD_IN =
  /^(?:(?:yes|yeah|yep|ok(?:ay)?|so|and|but|well|um+|uh+|hmm+|oh|doctor|doc|sorry|also|actually|right|please|one (?:more )?question|i have a question|quick question)\b[,:]?\s*)+/;

/** A question about the doctor's last words, not the patient's care. Example: "What's that?", "Pardon?". */
const ABOUT_DOCTORS_WORDS =
  /^(?:what(?:'s| is| was| does that mean)? (?:that|this)|what|huh|pardon|sorry|come again|say again)\W*$/;

/** Question words that only tie the doctor's question to its answer ("do I smoke? no."), kept out of the echo test. */
const FUNCTION_WORDS = new Set(
  "is are was were do does did have has had am i you your my me it this that any a an the to of in on for or and with there".split(
    " ",
  ),
);

/** A sentence lower-cased, its lead-in and curly apostrophes taken off. */
function normalise(sentence: string): string {
  return sentence.toLowerCase().replace(/[’‘]/g, "'").trim().replace(LEAD_IN, "");
}

/** The content words of a text. */
function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z]+/g) ?? []).filter((word) => !FUNCTION_WORDS.has(word));
}

/**
 * Whether a question repeats the doctor's own ("do I smoke? no, never" to "do you smoke?"): every
 * content word of it is in the doctor's question. Such a sentence is the start of an answer.
 */
function echoesDoctor(sentence: string, doctorQuestion: string): boolean {
  const words = contentWords(sentence);
  if (words.length === 0) return doctorQuestion.trim().length > 0;
  const asked = new Set(contentWords(doctorQuestion));
  return words.every((word) => asked.has(word) || asked.has(`${word}s`) || asked.has(word.replace(/s$/, "")));
}

/** The requests one sentence makes: every kind a rule finds, a question only when it is nothing else. */
function sentenceRequests(said: string, doctorQuestion: string): PatientRequest[] {
  const sentence = normalise(said);
  const kinds = new Set(PATIENT_REQUEST_RULES.filter((rule) => rule.pattern.test(sentence)).map((rule) => rule.kind));
  if (kinds.size > 1) kinds.delete("question");
  if (
    kinds.has("question") &&
    (asksToRepeat(said) || ABOUT_DOCTORS_WORDS.test(sentence) || echoesDoctor(sentence, doctorQuestion))
  )
    kinds.delete("question");
  return [...kinds].map((kind) => ({ kind, text: said.trim() }));
}

/** Splits a patient turn into its requests and the history it gives; `doctorQuestion` is the doctor's last turn. */
export function readPatientRequests(utterance: string, doctorQuestion = ""): PatientRequestReading {
  const requests: PatientRequest[] = [];
  const history: string[] = [];
  for (const sentence of utterance.split(SENTENCE_BREAK)) {
    const found = sentenceRequests(sentence, doctorQuestion);
    if (found.length > 0) requests.push(...found);
    else history.push(sentence);
  }
  return { requests, history: history.join(" ").trim() };
}
