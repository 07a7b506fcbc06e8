import * as z from "zod";

/** The zod schema of `ontology/lay-terms.json`: how a doctor says a canonical value to a patient. */
export const layTermsSchema = z.strictObject({
  description: z.string(),
  /** Canonical value (or `slot:value` for placeholders) → lay wording. */
  terms: z.record(z.string(), z.string().min(1)),
  /**
   * Canonical value → its lay term explained in everyday words, for a live patient who asks what it
   * means or to hear the question again: the `words` a patient may ask about, and what they `means`.
   */
  plain: z.record(z.string(), z.strictObject({ words: z.array(z.string().min(1)).min(1), means: z.string().min(1) })),
});
