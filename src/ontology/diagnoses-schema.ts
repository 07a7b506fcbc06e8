import { z } from "zod";
import { criterionSchema, exampleStateSchema } from "./criteria-schema.ts";

/** The zod schema of `ontology/diagnoses.json`: working diagnoses, each with explicit criteria. */

export const diagnosisSchema = z.strictObject({
  disease: z.string().min(1),
  /** Tests proposed to confirm it (offered only with the diagnosis). */
  tests: z.array(z.string().min(1)),
  criteria: criterionSchema,
  /** Values (any slot) whose presence ranks candidates that all meet their criteria. */
  evidence: z.array(z.string().min(1)).min(1),
  /** A state whose working impression this diagnosis must be. */
  example: exampleStateSchema,
});

export const diagnosesSchema = z.strictObject({
  name: z.literal("diagnoses"),
  version: z.string(),
  description: z.string(),
  diagnoses: z.array(diagnosisSchema).min(1),
});
