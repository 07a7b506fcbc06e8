import * as z from "zod";

/** The zod schema of `ontology/nlg-templates.json`: our wording of each kind of doctor action. */
export const nlgTemplatesSchema = z.strictObject({
  description: z.string(),
  opener: z.string().min(1),
  /** Transcript wording: say a short answer back before the next question (tuned on valid and the development dialogue). */
  echoShortAnswers: z.boolean(),
  templates: z.record(z.string(), z.string()),
  /** Words of questions only a live history asks (the complaint's own questions), used in clean wording before `templates`. */
  live_templates: z.record(z.string(), z.string()),
  /** What the doctor says to each kind of patient request (a question, a wish to stop, a prescription…), in clean wording. */
  request_replies: z.strictObject({
    question: z.string(),
    stop: z.string(),
    prescription: z.string(),
    "change-instructions": z.string(),
    /** Said after the patient's answer to an ideas, concerns or expectations question. */
    idea: z.string(),
    concern: z.string(),
    expectation: z.string(),
  }),
});
