import { z } from "zod";

/** The zod schema of `ontology/lay-terms.json`: how a doctor says a canonical value to a patient. */
export const layTermsSchema = z.strictObject({
  description: z.string(),
  /** Canonical value (or `slot:value` for placeholders) → lay wording. */
  terms: z.record(z.string(), z.string().min(1)),
});
