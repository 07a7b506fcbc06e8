import { z } from "zod";
import { readBundledJson } from "../package-paths.ts";

/**
 * The CMAS schema of MediTOD, loaded from `ontology/cmas.json` (the single place it is described) and
 * validated on load, so a malformed edit of the ontology fails fast with a path.
 */

const attributeSchema = z.strictObject({
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

const slotSchema = z.strictObject({
  name: z.string().min(1),
  /**
   * How the official scorers unroll the slot: `medical` slots are headed by `value` and carry their
   * status as a prefix; `social` ones (residence, occupation, travel) keep `status` as an attribute;
   * `demographic` is basic_information.
   */
  group: z.enum(["medical", "social", "demographic"]),
  statuses: z.array(z.string()).optional(),
  status_values: z.array(z.string()).optional(),
  actions_only: z.boolean().optional(),
  description: z.string(),
  attributes: z.array(attributeSchema).min(1),
  /** Check types a doctor action may use besides the attribute names (e.g. `ana_factors`). */
  check_types: z.array(checkTypeSchema).optional(),
});

const ontologySchema = z.strictObject({
  name: z.string(),
  version: z.string(),
  source: z.string(),
  notes: z.array(z.string()),
  nlu_intents: z.array(z.strictObject({ name: z.string(), description: z.string() })).min(1),
  actions: z.array(z.strictObject({ name: z.string(), description: z.string() })).min(1),
  slots: z.array(slotSchema).min(1),
  questions: z.record(z.string(), z.string()),
});

export type AttributeDefinition = z.infer<typeof attributeSchema>;
export type SlotDefinition = z.infer<typeof slotSchema>;
/** The CMAS ontology: slots, their attributes and statuses, intents and actions (`ontology/cmas.json`). */
export type Ontology = z.infer<typeof ontologySchema>;
export type SlotGroup = SlotDefinition["group"];

/** The CMAS ontology. */
export const ontology: Ontology = ontologySchema.parse(readBundledJson("ontology/cmas.json"));

const slotsByName = new Map(ontology.slots.map((slot) => [slot.name, slot]));

/** The definition of an unprefixed slot name (`symptom`, `travel`, …), or undefined. */
export function slotDefinition(name: string): SlotDefinition | undefined {
  return slotsByName.get(name);
}

/** Slots that appear in patient NLU frames and the dialogue state (all but `disease`). */
export const nluSlots: readonly SlotDefinition[] = ontology.slots.filter((slot) => !slot.actions_only);

/**
 * The slot names used in NLU frames and the dialogue state, in the order the data writes state keys:
 * `positive_symptom, negative_symptom, unknown_symptom, …, avail_medical_test, unavail_medical_test,
 * residence, occupation, travel, basic_information`.
 */
export const prefixedSlotNames: readonly string[] = nluSlots.flatMap((slot) =>
  slot.statuses && slot.statuses.length > 0 ? slot.statuses.map((status) => `${status}_${slot.name}`) : [slot.name],
);

/** Splits a data slot name into its status prefix and ontology slot (`negative_symptom` → negative, symptom). */
export function splitPrefixedSlot(name: string): { status: string | null; slot: SlotDefinition } | undefined {
  const direct = slotsByName.get(name);
  if (direct && !(direct.statuses && direct.statuses.length > 0)) return { status: null, slot: direct };
  const cut = name.indexOf("_");
  // Statuses are single words (positive, unavail, …), so the prefix ends at the first underscore.
  if (cut <= 0) return undefined;
  const status = name.slice(0, cut);
  const slot = slotsByName.get(name.slice(cut + 1));
  if (!slot || !slot.statuses?.includes(status)) return undefined;
  return { status, slot };
}

/** The attribute definition of a slot, or undefined. */
export function attributeDefinition(slot: SlotDefinition, attribute: string): AttributeDefinition | undefined {
  return slot.attributes.find((definition) => definition.name === attribute);
}

/** Check types allowed in doctor actions for a slot: its attribute names plus its extra check types. */
export function checkTypes(slot: SlotDefinition): readonly string[] {
  return [...slot.attributes.map((attribute) => attribute.name), ...(slot.check_types ?? []).map((type) => type.name)];
}

export const nluIntentNames = ontology.nlu_intents.map((intent) => intent.name) as [string, ...string[]];
export const actionNames = ontology.actions.map((action) => action.name) as [string, ...string[]];
