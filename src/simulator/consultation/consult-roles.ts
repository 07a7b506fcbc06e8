import type { DialogueState } from "../../cmas/schemas.ts";
import type { CallOptions } from "../../language/module-interfaces.ts";
import type { ConsultCase } from "./consult-case.ts";

/**
 * The roles of a consultation and what they say to each other: a doctor (the system measured, or a
 * control), a patient, and for AgentClinic a measurement reader; each a small interface, so that the
 * embedded engine, any LLM backend and the controls play the same parts (`consultation-loop.ts` runs
 * them).
 */

/** One turn of a consultation, as the transcript records it. */
export interface ConsultTurn {
  readonly speaker: "doctor" | "patient" | "measurement";
  readonly text: string;
  /** A doctor turn: a question, a request for an examination or a test, or the answer that ends the consultation. */
  readonly move?: "question" | "request" | "answer";
  /** A patient turn: the ids of the case facts it revealed; a measurement turn: the findings it gave. */
  readonly revealed?: readonly string[];
  /** A patient turn: the CMAS state tracked after it (the dialogue manager's, or the embedded NLU's for other doctors). */
  readonly state?: DialogueState;
  /** Why a reply could not be read (a doctor's format error, a patient's reply without its FACTS line). */
  readonly format_error?: string;
}

/** What a call to a model cost, summed over a consultation. */
export interface RoleCallInfo {
  readonly latencyMs: number;
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
  readonly cached?: boolean;
}

/** What the doctor does on its turn. `answer` is an option letter, a diagnosis, or null for "no diagnosis". */
export type DoctorMove = (
  | { readonly kind: "question"; readonly text: string }
  | { readonly kind: "request"; readonly text: string; readonly request: string }
  | { readonly kind: "answer"; readonly text: string; readonly answer: string | null }
  | { readonly kind: "format_error"; readonly text: string; readonly reason: string }
) & { readonly info?: RoleCallInfo };

/** Where the consultation is when the doctor is asked for its move. */
export interface TurnContext {
  /** Questions (MediQ) or turns (AgentClinic, library) the doctor has left, this one included. */
  readonly remaining: number;
  /** The last turn: the doctor must answer now (AgentClinic tells its doctor so). */
  readonly final: boolean;
}

/** One consultation of a doctor. */
export interface DoctorSession {
  /** The doctor's move after the turns so far (empty when the doctor opens). */
  next(turns: readonly ConsultTurn[], context: TurnContext, options?: CallOptions): Promise<DoctorMove>;
  /** The doctor's answer now, from the turns so far: after the question budget ran out, and for the controls. */
  decide(turns: readonly ConsultTurn[], options?: CallOptions): Promise<DoctorMove>;
  /** The CMAS state the doctor itself tracked after the last patient turn (the embedded doctor's dialogue manager); null for others. */
  trackedState?(): DialogueState | null;
  /**
   * Whether the doctor reads the states tracked on the turns it is handed (the embedded doctor does,
   * when it answers for a control). Unless this is `false`, the consultation waits for every patient
   * turn's state before each of the doctor's moves; a doctor that sets `false` (an LLM doctor, which
   * reads only the words) is handed turns whose states may still be being tracked.
   */
  readonly readsTrackedStates?: boolean;
}

/** A doctor: starts one session per consultation. */
export interface DoctorRole {
  /** `embedded`, a backend id, or a control's name. */
  readonly id: string;
  start(patientCase: ConsultCase): DoctorSession;
}

/** What the patient answered: its words and the ids of the facts they reveal. */
export interface PatientReply {
  readonly text: string;
  readonly revealed: readonly string[];
  readonly info?: RoleCallInfo;
  readonly format_error?: string;
}

/** One consultation of a patient. */
export interface PatientSession {
  /** The patient's answer to the doctor's last turn (`question`), given the turns so far. */
  answer(question: string, turns: readonly ConsultTurn[], options?: CallOptions): Promise<PatientReply>;
}

/** A patient: `embedded`, or a backend playing the case. */
export interface PatientRole {
  readonly id: string;
  start(patientCase: ConsultCase): PatientSession;
}

/**
 * Tracks the CMAS state through one consultation from the patient's turns (for doctors that track
 * none). `track` may be called again before an earlier call has resolved: the turns are read in the
 * order of the calls, each with the history it was called with.
 */
export interface StateTracking {
  /** The state after the patient says `utterance`, the turns before it (this consultation's, so far) being the history. */
  track(turns: readonly ConsultTurn[], utterance: string, options?: CallOptions): Promise<DialogueState>;
  /** The consultation is over: no more turns will be tracked (a tracker on a worker thread forgets it there). */
  close?(): void;
}

/** Starts a state tracking per consultation: the embedded NLU and the dialogue-state tracker, given from above. */
export interface StateTracker {
  start(): StateTracking;
}
