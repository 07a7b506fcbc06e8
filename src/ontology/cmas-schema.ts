import * as z from "zod";

/** The zod schema of `ontology/cmas.json`: MediTOD's CMAS schema (intents, actions, slots and their attributes). */

export const attributeSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string(),
  examples: z.array(z.string()).optional(),
  /** List-valued in the data (`location`, characteristics, factors). */
  list: z.boolean(),
  /** Counted as canonical ("medical") by the official scorers. */
  medical: z.boolean(),
  /** How a doctor asks about this attribute; `{value}` is the slot value. */
  question: z.string().optional(),
});

const checkTypeSchema = z.strictObject({ name: z.string().min(1), question: z.string().optional() });

export const slotSchema = z.strictObject({
  name: z.string().min(1),
  /**
   * How the official scorers unroll the slot: `medical` slots are headed by `value` and carry their
   * status as a prefix; `social` ones (residence, occupation, travel) keep `status` as an attribute;
   * `demographic` is basic_information.
   */
  group: z.enum(["medical", "social", "demographic"]),
  statuses: z.array(z.string()).optional(),
  status_values: z.array(z.string()).optional(),
  /**
   * How a reading of presence (positive, negative, unknown) is written for a slot whose statuses say
   * it otherwise (`medical_test`: positive → avail). A reading with no entry cannot be written for the
   * slot (there is no "unknown" test), and the NLU drops it.
   */
  reading_statuses: z.record(z.string(), z.string()).optional(),
  actions_only: z.boolean().optional(),
  description: z.string(),
  attributes: z.array(attributeSchema).min(1),
  /** Check types a doctor action may use besides the attribute names (e.g. `ana_factors`). */
  check_types: z.array(checkTypeSchema).optional(),
});

export const cmasSchema = z.strictObject({
  name: z.string(),
  version: z.string(),
  source: z.string(),
  notes: z.array(z.string()),
  nlu_intents: z.array(z.strictObject({ name: z.string(), description: z.string() })).min(1),
  actions: z.array(z.strictObject({ name: z.string(), description: z.string() })).min(1),
  slots: z.array(slotSchema).min(1),
  questions: z.record(z.string(), z.string()),
});
