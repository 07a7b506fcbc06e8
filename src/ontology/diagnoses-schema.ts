import * as z from "zod";
import { criterionSchema, exampleStateSchema } from "./criteria-schema.ts";

/** The zod schema of `ontology/diagnoses.json`: working diagnoses, each with required and excluding features. */

/** A history that must not name the diagnosis, and why (a clinician's reason, shown when it fails). */
export const negativeExampleSchema = z.strictObject({
  why: z.string().min(1),
  history: exampleStateSchema,
});

export const diagnosisSchema = z.strictObject({
  disease: z.string().min(1),
  /** Tests proposed to confirm it (offered only with the diagnosis). */
  tests: z.array(z.string().min(1)),
  /** The features the history must have. */
  required: criterionSchema,
  /** Features that point elsewhere or to something more serious: when they hold, the diagnosis is not named. */
  excluding: criterionSchema,
  /** Values (any slot) whose presence ranks candidates that all meet their criteria. */
  evidence: z.array(z.string().min(1)).min(1),
  /** A state whose working impression this diagnosis must be. */
  example: exampleStateSchema,
  /** At least three histories that must not name it. */
  negative_examples: z.array(negativeExampleSchema).min(3),
});

export const diagnosesSchema = z.strictObject({
  name: z.literal("diagnoses"),
  version: z.string(),
  description: z.string(),
  diagnoses: z.array(diagnosisSchema).min(1),
});
