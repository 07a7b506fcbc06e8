import { AnamnesisError } from "../../foundation/errors.ts";
import type { QuestionReader } from "../../language/question-reader.ts";
import { ScriptedPatient, type ScriptedCase } from "../scripted-patient.ts";
import type { ConsultCase } from "./consult-case.ts";
import type { PatientReply, PatientRole, PatientSession } from "./consult-roles.ts";
import { factMatcher, type FactMatcher } from "./fact-matcher.ts";

/**
 * The embedded patient: deterministic, offline, answering only from its case. It hears the questions
 * in what the doctor says, finds the facts that answer them (`fact-matcher.ts`) and says those facts,
 * in the case's own words in the first person, in the case's order; "I'm not sure." when no fact
 * answers. It never says a fact the doctor did not ask about, and a doctor turn that asks nothing (a
 * piece of advice) gets "Okay." A library case's patient speaks from its lay script instead.
 */

/** What the patient says when no fact answers the question. */
export const NOT_SURE = "I'm not sure.";
/** What the patient says to a turn that asks nothing. */
export const NOTHING_ASKED = "Okay.";

/** The sentences of a doctor's turn. */
const SENTENCE = /[^.?!]+(?:[.?!]+|$)/g;

/** A request made without a question mark, e.g. "Tell me about your sleep.", "Please describe the rash." */
const REQUEST =
  /^\s*(?:(?:please|now|ok(?:ay)?|and|so)[ ,]+)*(?:tell me|describe|explain|walk me through|let me know|talk me through|list)\b/i;

/** The questions in what a doctor says: sentences ending with a question mark, or asking to be told something. */
export function questionsIn(utterance: string): string[] {
  return (utterance.match(SENTENCE) ?? [])
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.endsWith("?") || REQUEST.test(sentence));
}

/** The embedded patient's answer to a doctor's turn, for a case. */
export function embeddedAnswer(
  patientCase: ConsultCase,
  utterance: string,
  matcher: FactMatcher = factMatcher(),
): PatientReply {
  const questions = questionsIn(utterance);
  if (questions.length === 0) return { text: NOTHING_ASKED, revealed: [] };
  const revealed = matcher.answering(questions.join(" "), patientCase.facts);
  if (revealed.length === 0) return { text: NOT_SURE, revealed: [] };
  const said = new Set(revealed);
  const text = patientCase.facts
    .filter((fact) => said.has(fact.id))
    .map((fact) => fact.spoken)
    .join(" ");
  return { text, revealed };
}

/** A library case's patient: its scripted patient, reading the doctor's words with the question reader. */
function scriptedSession(scripted: ScriptedCase, reader: QuestionReader | undefined): PatientSession {
  if (!reader)
    throw new AnamnesisError("INVALID_ARGUMENT", "a library case's patient needs the embedded question reader");
  const patient = new ScriptedPatient(scripted, { reader });
  return {
    answer: async (question) => {
      const reply = patient.answer({ text: question });
      return { text: reply.text, revealed: reply.revealed };
    },
  };
}

/**
 * The embedded patient role: MediQ's and AgentClinic's cases answered from their facts (above), our
 * library's by their scripted patient, which reads a question with the `reader` given from above (the
 * embedded engine's; the simulator layer does not build it).
 */
export function embeddedPatient(reader?: QuestionReader): PatientRole {
  return {
    id: "embedded",
    start: (patientCase) =>
      patientCase.scripted
        ? scriptedSession(patientCase.scripted, reader)
        : { answer: async (question) => embeddedAnswer(patientCase, question) },
  };
}

/** The embedded patient for MediQ's and AgentClinic's cases (a library case needs {@link embeddedPatient} with a reader). */
export const EMBEDDED_PATIENT: PatientRole = embeddedPatient();
