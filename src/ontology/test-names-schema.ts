import * as z from "zod";

/**
 * The zod schema of `ontology/test-names.json`: how the embedded measurement reader of the
 * consultation suites reads a doctor's request for an examination or a test.
 */

export const testNamesSchema = z.strictObject({
  name: z.literal("test-names"),
  version: z.string(),
  description: z.string(),
  /** Words that never say which examination or test is asked for. */
  generic_words: z.array(z.string().min(1)).min(1),
  /** A short name read as its long one, on both sides of a match. */
  abbreviations: z.array(z.strictObject({ short: z.string().regex(/^[a-z0-9]+$/), long: z.string().min(1) })).min(1),
  /** A request and a field (its path, `/` between names) that must, or must not, match. */
  examples: z.array(z.strictObject({ request: z.string().min(1), field: z.string().min(1), matches: z.boolean() })).min(1),
});
