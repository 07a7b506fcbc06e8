import type { Historian, NoteInput, PatientVoice } from "../clinical/clinical-note.ts";
import type { Informant } from "../language/informant.ts";
import type { RecordedPatientRequest } from "../language/patient-requests.ts";
import type { ConversationSnapshot } from "./conversation.ts";

/**
 * What the clinical note of a conversation is written from: the tracked state and presenting
 * complaint, who gave the history as the NLU heard it, the questions the patient asked and the red flags
 * the conversation raised. The chat's
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
function questionsOf(requests: readonly RecordedPatientRequest[]): PatientVoice[] {
  return requests.flatMap((request) =>
    VOICED.has(request.kind as PatientVoice["kind"])
      ? [{ kind: request.kind as PatientVoice["kind"], text: request.text }]
      : [],
  );
}

/** The note input of a conversation's snapshot, with the red flags the conversation raised. */
export function noteInputOf(
  snapshot: Pick<ConversationSnapshot, "state" | "presenting" | "informant" | "patientRequests" | "redFlags">,
): NoteInput {
  return {
    state: snapshot.state,
    presenting: snapshot.presenting,
    raisedRedFlags: snapshot.redFlags,
    historian: historianOf(snapshot.informant),
    questionsAndConcerns: questionsOf(snapshot.patientRequests),
  };
}
