import * as z from "zod";
import { regexSourceSchema } from "./regex-source-schema.ts";

/**
 * The zod schema of `ontology/patient-answer-rules.json`: how the embedded consultation patient tells
 * which of its case's facts answer a question (words that never tie a question to a fact, synonym
 * groups, and topics a question can ask about as a whole).
 */

const words = z.array(z.string().min(1)).min(1);

export const answerTopicSchema = z.strictObject({
  id: z.string().min(1),
  description: z.string().min(1),
  /** Patterns (case-insensitive) of a question that asks about the topic. */
  question_cues: z.array(regexSourceSchema).min(1),
  /** The topic's own words: a question or a fact naming nothing else is purely about the topic. */
  words,
  /** Sections of a case's sheet that belong to the topic (AgentClinic's fields, the opening statement). */
  fact_sections: z.array(z.string().min(1)),
  /** Patterns (case-insensitive) of a fact about the topic. */
  fact_cues: z.array(regexSourceSchema),
  /**
   * `complaint`: asked on its own ("When did it start?") the topic is about the presenting complaint, and
   * reveals only the facts purely about the topic or filed as the complaint; `all`: every fact of the topic.
   */
  scope: z.enum(["complaint", "all"]),
  /** Whether a question of the topic that names something else asks only about the topic's facts ("family … heart problems"). */
  narrows: z.boolean(),
  /** A question that must select the fact, and one that must not. */
  examples: z.strictObject({ question: z.string().min(1), fact: z.string().min(1), not_question: z.string().min(1) }),
});

export const patientAnswerRulesSchema = z.strictObject({
  name: z.literal("patient-answer-rules"),
  version: z.string(),
  description: z.string(),
  /** Words that never say what a question is about. */
  stop_words: words,
  /** Words too common in case sheets to tie a question to a fact on their own. */
  generic_words: words,
  /** Phrases that name one concept (lay and clinical words alike). */
  synonyms: z.array(z.strictObject({ concept: z.string().min(1), phrases: words })).min(1),
  topics: z.array(answerTopicSchema).min(1),
});
