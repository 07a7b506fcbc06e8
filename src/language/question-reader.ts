import type { DoctorAction } from "../cmas/schemas.ts";
import type { DialogueTurn } from "./module-interfaces.ts";

/**
 * Reads a doctor's free-text question into CMAS doctor actions: the reverse direction of the chat, for
 * practice mode, where a person plays the doctor and the simulated patient answers. The embedded
 * engine provides one (`buildQuestionReader`); the server and the simulator take it as given.
 */
export interface QuestionReader {
  /** The doctor actions a doctor utterance performs, given the conversation before it. */
  read(utterance: string, history?: readonly DialogueTurn[]): DoctorAction[];
}
