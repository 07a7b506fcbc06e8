import { slotDefinition } from "../../../cmas/ontology.ts";
import type { PlanItem } from "../../../language/history-plan.ts";
import type { StateFacts } from "./state-facts.ts";

/**
 * What the state already says about a plan item. The planner never asks what the patient has told:
 * an item is known when its social slot is filled, when an alias of it is in the state (located items
 * too: swollen glands for swelling in the neck), when (for a location-checked item such as abdominal
 * pain) an entry with that location exists, or when all its
 * values are. Otherwise only the values the state lacks are asked ("fevers or chills?" becomes
 * "chills?" once the patient has denied fevers).
 */
export function unknownValues(item: PlanItem, facts: StateFacts): string[] {
  if (slotDefinition(item.slot)?.group !== "medical") return facts.hasAny(item.slot) ? [] : [...item.values];
  // "My glands are up" (swollen glands) already answers "any swollen glands in your neck?".
  if (item.aliases.some((alias) => facts.has(item.slot, alias))) return [];
  if (item.check?.type === "location" && item.check.values) {
    const locations = item.locations_known ?? item.check.values;
    return item.values.some((value) => facts.hasLocation(item.slot, value, locations)) ? [] : [...item.values];
  }
  if (item.aliases.some((alias) => facts.has(item.slot, alias))) return [];
  return item.values.filter((value) => !facts.has(item.slot, value));
}

/** Whether a state value belongs to the item (one of its values or aliases). */
export function itemCovers(item: PlanItem, slot: string, value: string): boolean {
  return item.slot === slot && (item.values.includes(value) || item.aliases.includes(value));
}
