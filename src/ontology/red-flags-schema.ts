import { z } from "zod";
import { criterionSchema, exampleStateSchema } from "./criteria-schema.ts";

/** The zod schema of `ontology/red-flags.json`: findings that need urgent care, with plain-words advice. */

export const urgencySchema = z.enum(["emergency", "same_day", "soon"]);

export const redFlagSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9_]+$/),
  label: z.string().min(1),
  urgency: urgencySchema,
  criteria: criterionSchema,
  /** What the doctor says, in plain words. */
  advice: z.string().min(1),
  example: z.strictObject({ said: z.string().min(1), state: exampleStateSchema }),
});

export const redFlagsSchema = z.strictObject({
  name: z.literal("red-flags"),
  version: z.string(),
  description: z.string(),
  urgency: z.record(urgencySchema, z.string()),
  escalation: z.strictObject({ opening: z.string(), closing: z.string() }),
  flags: z.array(redFlagSchema).min(1),
});
