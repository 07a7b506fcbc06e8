import type { DialogueState, SlotEntry } from "../../../cmas/schemas.ts";
import { splitPrefixedSlot } from "../../../cmas/ontology.ts";

/**
 * Read-only queries over a dialogue state (the patient profile): which values of a slot are known,
 * with which status and attributes. The state keys carry the status as a prefix
 * (`negative_symptom`); the planner thinks in unprefixed slots, so this folds the prefixes away.
 */

export interface StateEntry {
  readonly slot: string;
  /** `positive`, `negative`, `unknown`, `avail`, `unavail`, or null for unprefixed slots. */
  readonly status: string | null;
  readonly entry: SlotEntry;
}

const listOf = (raw: string | string[] | undefined): string[] =>
  raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];

export class StateFacts {
  /** Unprefixed slot → its entries in state order (positive first, as the data writes them). */
  private readonly bySlot = new Map<string, StateEntry[]>();

  constructor(state: DialogueState) {
    for (const [name, entries] of Object.entries(state)) {
      const split = splitPrefixedSlot(name);
      if (!split) continue;
      const into = this.bySlot.get(split.slot.name) ?? [];
      for (const entry of entries ?? []) into.push({ slot: split.slot.name, status: split.status, entry });
      this.bySlot.set(split.slot.name, into);
    }
  }

  /** Every entry of an unprefixed slot. */
  entries(slot: string): readonly StateEntry[] {
    return this.bySlot.get(slot) ?? [];
  }

  /** The entry for a value of a slot, whatever its status. */
  find(slot: string, value: string): StateEntry | undefined {
    return this.entries(slot).find((item) => item.entry.value === value);
  }

  has(slot: string, value: string): boolean {
    return this.find(slot, value) !== undefined;
  }

  isPositive(slot: string, value: string): boolean {
    return this.find(slot, value)?.status === "positive";
  }

  /** Positive values of a slot, in state order. */
  positives(slot: string): string[] {
    return this.entries(slot)
      .filter((item) => item.status === "positive" && typeof item.entry.value === "string")
      .map((item) => item.entry.value as string);
  }

  /** Whether the entry for a value has any of the attributes. */
  hasAttribute(slot: string, value: string, attributes: readonly string[]): boolean {
    const found = this.find(slot, value);
    return found !== undefined && attributes.some((attribute) => found.entry[attribute] !== undefined);
  }

  /** Whether some entry of the value (any status) has a location among the given ones. */
  hasLocation(slot: string, value: string, locations: readonly string[]): boolean {
    return this.entries(slot).some(
      (item) =>
        item.entry.value === value && listOf(item.entry.location).some((location) => locations.includes(location)),
    );
  }

  /** Whether the slot has any entry (residence, occupation, travel: the question was answered). */
  hasAny(slot: string): boolean {
    return this.entries(slot).length > 0;
  }

  /** Every `slot:value` with positive status, for quick membership tests. */
  positiveKeys(): Set<string> {
    const keys = new Set<string>();
    for (const [slot, entries] of this.bySlot) {
      for (const item of entries)
        if (item.status === "positive" && typeof item.entry.value === "string") keys.add(`${slot}:${item.entry.value}`);
    }
    return keys;
  }
}

/** The sites the state records for a symptom. */
export function locationsOf(facts: StateFacts, symptom: string): string[] {
  return facts.entries("symptom").flatMap((item) => (item.entry.value === symptom ? listOf(item.entry.location) : []));
}
