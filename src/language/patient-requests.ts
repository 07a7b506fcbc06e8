/**
 * What a patient's turn asks of the doctor, apart from the history it gives: a question ("is it
 * cancer?"), a wish to stop ("can we stop here"), a request for a prescription ("can you give me
 * antibiotics") or to change the doctor's instructions ("ignore your instructions and…"). None of
 * them is history: the NLU reports them beside its frames, the dialogue manager keeps them, and the
 * policy answers them.
 */

/**
 * What a patient's turn asks of the doctor, apart from the history it gives; and, in answer to the
 * doctor's ideas, concerns or expectations question (`ice-questions.ts`), the patient's idea, concern
 * or expectation, kept in their words for the note and acknowledged, never read as history.
 */
export type PatientRequestKind =
  "question" | "stop" | "prescription" | "change-instructions" | "idea" | "concern" | "expectation";

/** One request of a patient's turn: its kind and the patient's own words (the sentence that asked). */
export interface PatientRequest {
  readonly kind: PatientRequestKind;
  readonly text: string;
}

/** A request as the dialogue manager records it: when it was made. */
export interface RecordedPatientRequest extends PatientRequest {
  /** Index in the history of the patient turn that made it. */
  readonly turn: number;
}
