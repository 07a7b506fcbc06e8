import * as z from "zod";

/**
 * The zod schema of `ontology/osce-checklist.json`: the items of an OSCE history-taking checklist,
 * each with when it applies and the rules, kept as data, that recognise a doctor's question covering
 * it. A rule is a list of regular expressions, in lower case, that must all match one question and a
 * list of which none may; `{name}` in a pattern stands for the file's named pattern `name`. Patterns
 * are read against the normalised question (lower case, contractions spelled out: "what's" → "what
 * is", "don't" → "do not"). Whether the patterns compile, the names resolve and the systems exist is
 * checked by `src/clinical/osce-checklist-rules.ts`.
 */

const id = z.string().regex(/^[a-z0-9_]+$/);
const pattern = z.string().min(1);
const patterns = z.array(pattern);

/** The parts of a history an item belongs to, in the order a history is taken (the docs' table groups by them). */
const checklistSectionSchema = z.enum([
  "presenting complaint",
  "history of the presenting complaint",
  "pain (SOCRATES)",
  "ideas, concerns and expectations",
  "past medical history",
  "medications and allergies",
  "family history",
  "social history",
  "age and sex",
  "systems review",
]);

/** Patterns that must all match one question, and patterns none of which may. */
const ruleSchema = z.strictObject({ all: patterns.min(1), none: patterns.default([]) });

/**
 * When an item applies; every condition given must hold, and no condition means always. `sex`,
 * `min_age` and `max_age` (in years, inclusive) need the case's age or sex: `when_unknown` says
 * whether the item applies when one of them is not given.
 */
const appliesSchema = z.strictObject({
  pain: z.literal(true).optional(),
  sex: z.enum(["female", "male"]).optional(),
  min_age: z.number().nonnegative().optional(),
  max_age: z.number().nonnegative().optional(),
  when_unknown: z.enum(["applies", "not_applicable"]).optional(),
});

const itemSchema = z.strictObject({
  id,
  label: z.string().min(1),
  section: checklistSectionSchema,
  /** What a doctor must ask for the item to be covered, in words (the docs' table shows it). */
  meaning: z.string().min(1),
  /** Absent: always (a systems-review item applies when the complaint's system is `review_of`). */
  applies: appliesSchema.optional(),
  /** Part of the complaint's own history: questions on unrelated systems before these are done are off topic. */
  complaint_core: z.boolean().default(false),
  /**
   * For a systems-review item: the body system it reviews. It applies when the complaint is of that
   * system, unless its rules match the complaint's own words (then it is the complaint itself).
   */
  review_of: id.optional(),
  /**
   * For a systems-review item: whether it asks about symptoms (the default; such an item, covered, also
   * covers associated symptoms) or about background such as exposures, injuries or earlier skin disease.
   */
  review_kind: z.enum(["symptoms", "background"]).optional(),
  /** Also covered by a question covering an applicable symptoms-review item of the complaint's system. */
  covered_by_complaint_review: z.boolean().default(false),
  rules: z.array(ruleSchema).min(1),
  /** Questions that must cover the item, and near misses that must not (a test is generated from each). */
  examples: z.strictObject({ covers: z.array(z.string().min(1)).min(1), misses: z.array(z.string().min(1)).min(1) }),
});

const systemSchema = z.strictObject({
  id,
  label: z.string().min(1),
  /** Systems whose questions are on topic for a complaint of this one (besides itself and `general`). */
  related: z.array(id),
  /** Patterns that name a complaint of this system ("cough" → respiratory). */
  complaint: patterns.min(1),
});

export const osceChecklistSchema = z.strictObject({
  name: z.literal("osce-checklist"),
  version: z.string(),
  description: z.string(),
  /** Named patterns, each with an example it must match; used in rules as `{name}`. */
  patterns: z.record(id, z.strictObject({ pattern, example: z.string().min(1) })),
  /** How a sentence that does not end in "?" still asks: "tell me about…", "do you…". */
  question_openers: patterns.min(1),
  /** A patient turn asking the doctor to repeat or explain: the next question is not a repeat. */
  clarification_requests: patterns.min(1),
  /** A doctor checking back what was said ("just to confirm…"): not counted as a repeat. */
  check_backs: patterns.min(1),
  /**
   * A question that points back to what the doctor just said ("have you had any thoughts like that?"):
   * it is read together with the statements before it in the same turn.
   */
  context_references: patterns.min(1),
  /** Words after which a case's description names the complaint ("presents with", "complaining of"). */
  complaint_cues: patterns.min(1),
  /** Words that say nothing about what a question is specifically about (for repeats). */
  function_words: z.array(z.string().min(1)).min(1),
  systems: z.array(systemSchema).min(1),
  items: z.array(itemSchema).min(1),
});
