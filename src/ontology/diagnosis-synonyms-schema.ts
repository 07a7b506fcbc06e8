import * as z from "zod";

/**
 * The zod schema of `ontology/diagnosis-synonyms.json`: how the offline judge of the consultation
 * suites reads a free-text diagnosis (hedges, qualifiers, separators of several diagnoses, synonym
 * groups) and the pairs that must and must not match.
 */

const phrases = z.array(z.string().min(1)).min(1);

export const diagnosisSynonymsSchema = z.strictObject({
  name: z.literal("diagnosis-synonyms"),
  version: z.string(),
  description: z.string(),
  /** Words a doctor puts before a diagnosis ("most likely"), dropped from its start. */
  hedges: phrases,
  /** Course and severity words ignored when only one side has them ("acute appendicitis" is "appendicitis"). */
  qualifiers: phrases,
  /** What separates several diagnoses; only the first one named is judged. */
  separators: phrases,
  /** A concept's name and its other names (abbreviations included). */
  synonyms: z.array(z.strictObject({ name: z.string().min(1), also: phrases })).min(1),
  examples: z.array(z.strictObject({ gold: z.string().min(1), predicted: z.string().min(1), match: z.boolean() })).min(1),
});
