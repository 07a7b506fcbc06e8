import * as z from "zod";
import { EMBEDDED_BACKEND_ID } from "../../../src/modules/builders/create-modules.ts";
import { DEFAULT_LIMITS } from "../../../src/simulator/consultation/consultation-loop.ts";

/**
 * The consultation suites' settings (`--patient`, `--max-questions`, `--max-turns`) and their
 * defaults, apart from the roles they build: the bench command reads the defaults for its help
 * without loading the dialogue manager and the simulator.
 */

/** The consultation suites' own settings, as run.json records them. */
export const consultSettingsSchema = z.strictObject({
  patient: z.string().min(1),
  patient_base_url: z.string().optional(),
  max_questions: z.number().int().positive(),
  max_turns: z.number().int().min(2),
});
export type ConsultSettings = z.infer<typeof consultSettingsSchema>;

/** The settings of a run that gave none: the embedded patient, MediQ's and AgentClinic's limits. */
export const DEFAULT_CONSULT_SETTINGS: ConsultSettings = {
  patient: EMBEDDED_BACKEND_ID,
  max_questions: DEFAULT_LIMITS.maxQuestions,
  max_turns: DEFAULT_LIMITS.maxTurns,
};
