import * as z from "zod";

/**
 * The zod schema of `ontology/medicines.json`: common medicines as patients name them (generic,
 * brand and lay names), for the record of each medicine a patient takes with its dose and frequency.
 */

const medicineReadingSchema = z.strictObject({
  name: z.string().min(1),
  dose: z.string().min(1).nullable(),
  frequency: z.string().min(1).nullable(),
});

export const medicinesSchema = z.strictObject({
  name: z.literal("medicines"),
  version: z.string(),
  description: z.string(),
  /** Each medicine: the name the note writes, and the lower-case words a patient may say for it. */
  medicines: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        said: z.array(z.string().regex(/^[a-z0-9][a-z0-9 '-]*$/, "lower-case words")).min(1),
      }),
    )
    .min(1),
  /** A question, an answer to it and the medicines it names, in order (empty: it names none). */
  examples: z
    .array(
      z.strictObject({ question: z.string().min(1), answer: z.string().min(1), medicines: z.array(medicineReadingSchema) }),
    )
    .min(1),
});
