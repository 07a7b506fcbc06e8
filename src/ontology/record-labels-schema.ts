import * as z from "zod";
import { regexSourceSchema } from "./regex-source-schema.ts";

/**
 * The zod schema of `ontology/record-labels.json`: the words the clinical note and the chat page's
 * profile use for CMAS values that are the data's labels for everyday words ("alcohol abuse" for any
 * drinking), unless the patient said the label themself.
 */
export const recordLabelsSchema = z.strictObject({
  name: z.literal("record-labels"),
  version: z.string(),
  description: z.string(),
  /**
   * CMAS value → the record's words for it, and the patient's words that make the value itself stand
   * (none: a value that is only the data's form of a word, "coughing" for a cough, is never shown).
   */
  labels: z.record(z.string(), z.strictObject({ label: z.string().min(1), said: regexSourceSchema.optional() })),
  /** A value, what the patient said, and what the record shows. */
  examples: z.array(z.strictObject({ value: z.string(), patient: z.string(), shown: z.string() })).min(1),
});
