import { loadOntologyFile } from "../../ontology/ontology-files.ts";
import type { DoctorMove, DoctorRole } from "./consult-roles.ts";

/**
 * The floor every doctor is read against: the complaint-blind doctor asks the fixed list of generic
 * questions of `ontology/complaint-blind-questions.json`, one a turn, whatever the complaint, and then
 * the doctor being measured answers from what that drew out (its `decide`). The ceiling — the same
 * doctor answering with every fact of the case given up front — is a mode of the loop
 * (`runFullInformation` in `consultation-loop.ts`).
 */

/** The names the controls go by in transcripts, tables and reports. */
export const ARMS = ["floor", "doctor", "ceiling"] as const;
/** A consultation arm: the complaint-blind floor, the doctor itself, or its full-information ceiling. */
export type Arm = (typeof ARMS)[number];

/** The fixed questions of the floor. */
export function complaintBlindQuestions(): readonly string[] {
  return loadOntologyFile("complaint-blind-questions.json").questions;
}

/** The complaint-blind floor for a doctor: the fixed questions, then the doctor's answer. */
export function complaintBlindDoctor(
  answerer: DoctorRole,
  questions: readonly string[] = complaintBlindQuestions(),
): DoctorRole {
  return {
    id: `complaint-blind list, answered by ${answerer.id}`,
    start: (patientCase) => {
      const decider = answerer.start(patientCase);
      return {
        // Its questions read nothing; its answer is the answerer's.
        ...(decider.readsTrackedStates === undefined ? {} : { readsTrackedStates: decider.readsTrackedStates }),
        next: async (turns, context, options): Promise<DoctorMove> => {
          const asked = turns.filter((turn) => turn.speaker === "doctor").length;
          const question = questions[asked];
          if (context.final || question === undefined) return decider.decide(turns, options);
          return { kind: "question", text: question };
        },
        decide: (turns, options) => decider.decide(turns, options),
      };
    },
  };
}
