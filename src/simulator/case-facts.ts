import { PRESENT_STATUSES, splitPrefixedSlot } from "../cmas/ontology.ts";
import type { DialogueState, SlotEntry } from "../cmas/schemas.ts";
import { isRadiation, RADIATION_FACT } from "../language/pain-radiation.ts";

/**
 * The facts of a case profile, each under an id a lay script keys its lines by: a medical entry is
 * `slot:value` whatever its status (`symptom:chest pain`, `medical_history:drug allergy`), an attribute of
 * a present entry is `slot:value#attribute` (`symptom:chest pain#onset`), and a social or demographic
 * entry is its slot's name (`occupation`, `basic_information`). These are the facts coverage counts
 * (`coverage.ts`): the attributes of a negative entry ("no leg swelling") are part of its denial, not
 * facts of their own.
 */

export interface CaseFact {
  readonly id: string;
  /** Unprefixed slot (`symptom`, `medication`, `occupation`…). */
  readonly slot: string;
  /** positive, negative, unknown, avail, unavail; null for social and demographic slots. */
  readonly status: string | null;
  /** The entry's value (medical slots only). */
  readonly value?: string;
  /** For an attribute fact: the attribute's name. */
  readonly attribute?: string;
  /** For an attribute fact: the id of the entry it belongs to. */
  readonly entry?: string;
}

const PRESENT: ReadonlySet<string> = new Set(PRESENT_STATUSES);

/** The id of a medical entry (`symptom:chest pain`) or of one of its attributes (`symptom:chest pain#onset`). */
export function factId(slot: string, value: string, attribute?: string): string {
  return attribute === undefined ? `${slot}:${value}` : `${slot}:${value}#${attribute}`;
}

/** The check types of a doctor's question that ask for an attribute ("how long…?" is an onset check: it asks `onset`, `initiation`, `start`). */
export function askingChecks(attribute: string): readonly string[] {
  if (attribute.endsWith("characteristics")) return ["characteristics", attribute];
  if (attribute.endsWith("_factor") || attribute === "unknown_ana_factor") return ["ana_factors", attribute];
  if (attribute === "initiation") return ["onset", "initiation"];
  if (attribute === "start" || attribute === "starting") return ["start", "starting", "onset"];
  return [attribute];
}

/**
 * The attribute facts of an entry, by name: where a pain spreads (the `location` values qualified
 * "radiating to …" or "not radiating", `language/pain-radiation.ts`) is a fact of its own, `radiation`,
 * beside the `location` of where it is.
 */
function entryAttributes(entry: SlotEntry): string[] {
  const names = Object.keys(entry).filter((name) => name !== "value");
  const locations = [entry.location ?? []].flat();
  if (!locations.some(isRadiation)) return names;
  const sited = locations.some((location) => !isRadiation(location));
  return names.flatMap((name) => (name !== "location" ? [name] : sited ? [name, RADIATION_FACT] : [RADIATION_FACT]));
}

/** Every fact of a profile, in the profile's order (an entry before its attributes). */
export function caseFacts(profile: DialogueState): CaseFact[] {
  const facts: CaseFact[] = [];
  for (const [prefixed, entries] of Object.entries(profile)) {
    const split = splitPrefixedSlot(prefixed);
    if (!split) continue;
    const slot = split.slot.name;
    if (split.slot.group !== "medical") {
      if (entries.length > 0) facts.push({ id: slot, slot, status: null });
      continue;
    }
    const status = split.status;
    for (const entry of entries) {
      const value = typeof entry.value === "string" ? entry.value : "";
      const id = factId(slot, value);
      facts.push({ id, slot, status, value });
      if (status === null || !PRESENT.has(status)) continue;
      for (const attribute of entryAttributes(entry))
        facts.push({ id: factId(slot, value, attribute), slot, status, value, attribute, entry: id });
    }
  }
  return facts;
}

/** Whether a fact says something is present (a positive or available entry, or an attribute of one). */
export function isPresent(fact: CaseFact): boolean {
  return fact.status !== null && PRESENT.has(fact.status);
}
