import * as z from "zod";
import { criterionSchema, exampleStateSchema } from "./criteria-schema.ts";

/** The zod schema of `ontology/red-flags.json`: findings that need urgent care, with plain-words advice. */

export const urgencySchema = z.enum(["emergency", "same_day", "soon"]);

/** A name of a sign or flag: lower case, digits and underscores. */
const identifier = z.string().regex(/^[a-z0-9_]+$/);

/**
 * A sign: a finding as patients say it, read from their own words by named regular expressions
 * (case-insensitive, over lower-cased text with straight apostrophes), each sign with examples that
 * must match it.
 */
export const signSchema = z.strictObject({
  /** What the sign means, in plain words. */
  means: z.string().min(1),
  patterns: z.array(z.string().min(1)).min(1),
  examples: z.array(z.string().min(1)).min(1),
});

/**
 * A term: a named list of the words people use for one thing ("blood", "claret", "red stuff"), as
 * sources of regular expressions. A sign's pattern names it as `{{term}}` and reads any of its forms,
 * so a word added to a term reaches every pattern that names it; a term may name other terms.
 */
export const termSchema = z.strictObject({
  /** What the words mean, in plain words. */
  means: z.string().min(1),
  forms: z.array(z.string().min(1)).min(1),
});

/** A criterion over the signs found in what the patient said: a sign, or all / any / not of criteria. */
export type StatedCriterion =
  { sign: string } | { all: StatedCriterion[] } | { any: StatedCriterion[] } | { not: StatedCriterion };

export const statedCriterionSchema: z.ZodType<StatedCriterion, object> = z.lazy(() =>
  z.union([
    z.strictObject({ sign: identifier }),
    z.strictObject({ all: z.array(statedCriterionSchema).min(1) }),
    z.strictObject({ any: z.array(statedCriterionSchema).min(1) }),
    z.strictObject({ not: statedCriterionSchema }),
  ]),
);

export const redFlagSchema = z.strictObject({
  id: identifier,
  label: z.string().min(1),
  urgency: urgencySchema,
  /** Over the tracked CMAS state, whatever NLU filled it. */
  criteria: criterionSchema,
  /** Over the signs in the patient's own words, across the conversation's patient turns. */
  stated: statedCriterionSchema.optional(),
  /**
   * When the tracked state's reading of this flag is set aside in a conversation: signs, in any
   * patient turn, that explain what the state holds (a numb face after a dental injection is no
   * stroke). The stated criteria still fire on their own.
   */
  trackedUnless: statedCriterionSchema.optional(),
  /**
   * When the learned model's reading of this flag is set aside: signs, in the text the model read,
   * of another emergency the model has no class for (blood coughed up is not blood from the gut).
   */
  learnedUnless: statedCriterionSchema.optional(),
  /**
   * What the patient must have said, in any turn, for the learned model's reading of this flag to
   * stand: signs without which the emergency cannot be (no ectopic pregnancy where no pregnancy is
   * in question: "a sharp pain low on my right side" alone is as much an appendix).
   */
  learnedNeeds: statedCriterionSchema.optional(),
  /**
   * What the words the learned model read (the turn, or the run of turns ending with it) must show for
   * its reading of this flag to stand: a broad sign of the flag's features, said or denied ("my little
   * girl is 2 and has a temperature" alone is no sepsis, whatever a later turn says of her nappies).
   */
  learnedNeedsRead: statedCriterionSchema.optional(),
  /**
   * The advice is the history's last turn: the patient cannot go on answering (someone collapsed and
   * cannot be woken), so the doctor asks nothing more after it, whatever the conversation's setting.
   */
  endsHistory: z.literal(true).optional(),
  /** What the doctor says, in plain words. */
  advice: z.string().min(1),
  /** The clinical source the criteria follow (guideline, knowledge summary, triage advice). */
  source: z.string().min(1),
  example: z.strictObject({ said: z.string().min(1), state: exampleStateSchema }),
});

export const redFlagsSchema = z.strictObject({
  name: z.literal("red-flags"),
  version: z.string(),
  description: z.string(),
  urgency: z.record(urgencySchema, z.string()),
  /** The words around the advice: `closing` when the history goes on, `closingWhenEnding` when the advice ends it. */
  escalation: z.strictObject({ opening: z.string(), closing: z.string(), closingWhenEnding: z.string() }),
  /**
   * Words respelled before the signs are read, each whole word to its standard spelling: apostrophes
   * people leave out ("cant" → "can't") and dialect forms ("cannae" → "can't", "heid" → "head"), so
   * that every pattern reads them without spelling each one out.
   */
  respellings: z.record(z.string().regex(/^[a-z']+$/), z.string().min(1)).default({}),
  /**
   * Sentences that say nothing of the patient's own illness (about a pet; about something seen, heard
   * or read): the signs are not read in them. Each example must match.
   */
  otherSubjects: z
    .strictObject({
      means: z.string().min(1),
      patterns: z.array(z.string().min(1)),
      examples: z.array(z.string().min(1)),
    })
    .default({ means: "none", patterns: [], examples: [] }),
  /** Named word lists the signs' patterns share (`{{term}}`). */
  terms: z.record(identifier, termSchema).default({}),
  signs: z.record(identifier, signSchema),
  /**
   * The semantic signal's thresholds (cosine to a flag's nearest statement; its lead over the nearest
   * near-miss) for the bundled sentence encoder, chosen on the corpus's development part; the same for
   * USE-lite, the encoder one may choose instead (`useLite`); and the signs that say how or when rather
   * than what (`sudden`, `severe`), which alone do not let it fire a flag (see `RedFlagRules.subjectHeard`).
   * `learnedVeto`: the learned model's second opinion on the rules' reading of the words — below this
   * probability of a flag it knows, over every run of turns it read, the words' reading of that flag is
   * set aside (see `./clinical/learned-second-opinion.ts`).
   */
  semantic: z.strictObject({
    similarity: z.number().min(-1).max(1),
    margin: z.number().min(-2).max(2),
    chosenBy: z.string().min(1),
    useLite: z
      .strictObject({
        similarity: z.number().min(-1).max(1),
        margin: z.number().min(-2).max(2),
        chosenBy: z.string().min(1),
      })
      .optional(),
    modifierSigns: z.array(identifier),
    learnedVeto: z
      .strictObject({
        below: z.number().min(0).max(1),
        chosenBy: z.string().min(1),
      })
      .optional(),
  }),
  flags: z.array(redFlagSchema).min(1),
});
