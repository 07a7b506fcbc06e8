import type * as z from "zod";
import type { attributeSchema, cmasSchema, slotSchema } from "../ontology/cmas-schema.ts";
import { loadOntologyFile } from "../ontology/ontology-files.ts";
import type { ReadingStatusName } from "./cmas-names.ts";

/**
 * The CMAS schema of MediTOD, loaded from `ontology/cmas.json` (the single place it is described) and
 * validated on load (`src/ontology/ontology-files.ts`), so a malformed edit fails fast with a path.
 * Its names are also generated as TypeScript types in `cmas-names.ts`.
 */

export type AttributeDefinition = z.infer<typeof attributeSchema>;
export type SlotDefinition = z.infer<typeof slotSchema>;
/** The CMAS ontology: slots, their attributes and statuses, intents and actions (`ontology/cmas.json`). */
export type Ontology = z.infer<typeof cmasSchema>;

/** Checks what the schema cannot: a slot's reading statuses are written as statuses it has. */
function checkReadingStatuses(loaded: Ontology): Ontology {
  for (const slot of loaded.slots) {
    for (const [reading, written] of Object.entries(slot.reading_statuses ?? {})) {
      if (!slot.statuses?.includes(written))
        throw new Error(
          `ontology/cmas.json: ${slot.name}: reading '${reading}' is written '${written}', which is not one of its statuses`,
        );
    }
  }
  return loaded;
}

/** The CMAS ontology. */
export const ontology: Ontology = checkReadingStatuses(loadOntologyFile("cmas.json"));

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

/**
 * How a slot writes a reading of presence: the reading itself, or what the slot's
 * `reading_statuses` make of it (`medical_test`: positive → avail); undefined when it cannot be
 * written (an uncertain test), and for slots without statuses.
 */
export function writtenStatus(slot: SlotDefinition, reading: ReadingStatusName): string | undefined {
  if (!slot.statuses || slot.statuses.length === 0) return undefined;
  const written = slot.reading_statuses ? slot.reading_statuses[reading] : reading;
  return written !== undefined && slot.statuses.includes(written) ? written : undefined;
}

/** Statuses that say an entry is present (`positive`, `avail`): how each medical slot writes "positive". */
export const PRESENT_STATUSES: readonly string[] = [
  ...new Set(nluSlots.flatMap((slot) => writtenStatus(slot, "positive") ?? [])),
];

/** The attribute definition of a slot, or undefined. */
export function attributeDefinition(slot: SlotDefinition, attribute: string): AttributeDefinition | undefined {
  return slot.attributes.find((definition) => definition.name === attribute);
}

/** Check types allowed in doctor actions for a slot: its attribute names plus its extra check types. */
export function checkTypes(slot: SlotDefinition): readonly string[] {
  return [...slot.attributes.map((attribute) => attribute.name), ...(slot.check_types ?? []).map((type) => type.name)];
}

/** NLU intent names (generated from the ontology: `cmas-names.ts`). */
export { NLU_INTENT_NAMES as nluIntentNames } from "./cmas-names.ts";
