import type { Historian, NoteInput, PatientVoice } from "../clinical/clinical-note.ts";
import type { Informant } from "../language/informant.ts";
import type { NamedMedicine } from "../language/medicines.ts";
import type { DialogueState } from "../cmas/schemas.ts";

/**
 * What the clinical note of a conversation is written from: the tracked state and presenting
 * complaint, who gave the history as the NLU heard it, the questions the patient asked and the red flags
 * the conversation raised, the medicines the patient named and what the patient said. The chat's
 * note (`GET /api/sessions/:id/note`) is this input through the one note writer (`clinicalNote`).
 */

/**
 * Who gave the history: a relative or carer when the NLU heard one speak for the patient, the patient
 * when it heard the patient speak for themself, and null (not recorded) when it heard neither.
 */
function historianOf(informant: Informant | null): Historian | null {
  if (!informant) return null;
  return informant.relation === null
    ? { informant: "patient", relation: null }
    : { informant: "proxy", relation: informant.relation };
}

/** What the note lists of the patient's voice: questions, and the answers to the ideas, concerns and expectations questions. */
const VOICED = new Set(["question", "idea", "concern", "expectation"] as const);

/** The patient's questions, ideas, concerns and expectations, in their words and in order; their other requests (to stop, for a prescription) are none of these. */
function questionsOf(requests: NoteSource["patientRequests"]): PatientVoice[] {
  return requests.flatMap((request) =>
    VOICED.has(request.kind as PatientVoice["kind"])
      ? [{ kind: request.kind as PatientVoice["kind"], text: request.text }]
      : [],
  );
}

/**
 * What a note is written from, of a conversation: its snapshot, or a saved session's view of it (a
 * transcript of `anamnesis chat --transcripts`), whose fields are read back from JSON.
 */
export interface NoteSource {
  readonly history: readonly { readonly speaker: string; readonly text: string }[];
  readonly state: DialogueState;
  readonly presenting: readonly string[];
  readonly informant: Informant | null;
  readonly medicines: readonly NamedMedicine[];
  readonly patientRequests: readonly { readonly kind: string; readonly text: string }[];
  readonly redFlags: NonNullable<NoteInput["raisedRedFlags"]>;
}

/** The note input of a conversation's snapshot (or a saved session's view), with the red flags the conversation raised. */
export function noteInputOf(snapshot: NoteSource): NoteInput {
  return {
    state: snapshot.state,
    presenting: snapshot.presenting,
    raisedRedFlags: snapshot.redFlags,
    historian: historianOf(snapshot.informant),
    questionsAndConcerns: questionsOf(snapshot.patientRequests),
    medicines: snapshot.medicines,
    patientWords: snapshot.history.filter((turn) => turn.speaker === "patient").map((turn) => turn.text),
  };
}
