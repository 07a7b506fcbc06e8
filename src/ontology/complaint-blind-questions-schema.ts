import * as z from "zod";

/** The zod schema of `ontology/complaint-blind-questions.json`: the consultation suites' floor, a fixed list of generic questions. */
export const complaintBlindQuestionsSchema = z.strictObject({
  name: z.literal("complaint-blind-questions"),
  version: z.string(),
  description: z.string(),
  /** Asked one a turn, in this order, whatever the complaint. */
  questions: z.array(z.string().regex(/\?$/, "a question ends with a question mark")).min(1),
});
