import type { NluSlotName } from "../../../cmas/cmas-names.ts";
import { attributeDefinition, slotDefinition, writtenStatus } from "../../../cmas/ontology.ts";
import type { NluFrame, SlotEntry } from "../../../cmas/schemas.ts";
import { OPEN_VALUES } from "./lexicon.ts";
import type { Status } from "./negation.ts";
import type { TokenSpan } from "./text.ts";

/**
 * Collects slot entries for one patient turn and writes them as MediTOD NLU frames: medical slots
 * status-prefixed (`negative_symptom`, `unavail_medical_test`), one entry per (slot, value) with its
 * attributes merged, list-valued attributes as arrays (per the ontology), social slots unprefixed.
 */

/** An unprefixed slot of NLU frames (from `ontology/cmas.json`). */
export type BaseSlot = NluSlotName;

/** A slot entry being assembled: its slot, status and attributes in the data format. */
export interface CollectedEntry {
  readonly base: BaseSlot;
  status: Status;
  readonly attributes: SlotEntry;
  /** Whether the entry came from the doctor's question rather than a phrase of the utterance. */
  readonly fromQuestion: boolean;
}

/** An entry with the token span of the phrase it came from. */
export interface Found {
  readonly mention: TokenSpan;
  readonly entry: CollectedEntry;
}

/**
 * The data's slot name for a base slot and the status read: unprefixed for slots without statuses,
 * else the status as the ontology writes it for the slot (`reading_statuses`: a positive test is
 * `avail_medical_test`). Undefined when the slot cannot express the reading (an "unknown" test).
 */
export function prefixedSlot(base: BaseSlot, status: Status): string | undefined {
  const slot = slotDefinition(base)!;
  if (!slot.statuses || slot.statuses.length === 0) return base;
  const written = writtenStatus(slot, status);
  return written === undefined ? undefined : `${written}_${base}`;
}

/** The entries of one patient turn, keyed by (slot, value), written out as frames at the end. */
export class EntryCollector {
  private readonly entries: CollectedEntry[] = [];

  all(): readonly CollectedEntry[] {
    return this.entries;
  }

  /** The entry of a value (any status), or of a social slot. */
  find(base: BaseSlot, value?: string): CollectedEntry | undefined {
    return this.entries.find(
      (entry) => entry.base === base && (value === undefined || entry.attributes.value === value),
    );
  }

  /**
   * Adds (or returns the existing) entry. An existing entry keeps its status: the first reading (an
   * explicit phrase) is more specific than later ones (the answer polarity). Placeholder values
   * ("other") are never emitted.
   */
  add(base: BaseSlot, status: Status, value: string | undefined, fromQuestion = false): CollectedEntry | undefined {
    if (value !== undefined && OPEN_VALUES.has(value)) return undefined;
    const existing = this.find(base, value);
    if (existing) return existing;
    const entry: CollectedEntry = { base, status, attributes: value === undefined ? {} : { value }, fromQuestion };
    this.entries.push(entry);
    return entry;
  }

  /** Renames an entry's value, merging it into an existing entry of the new value. */
  rename(entry: CollectedEntry, value: string): void {
    const existing = this.entries.find(
      (other) => other !== entry && other.base === entry.base && other.attributes.value === value,
    );
    if (!existing) {
      entry.attributes.value = value;
      return;
    }
    for (const [attribute, content] of Object.entries(entry.attributes))
      if (attribute !== "value") this.set(existing, attribute, content);
    this.remove(entry);
  }

  remove(entry: CollectedEntry): void {
    const index = this.entries.indexOf(entry);
    if (index >= 0) this.entries.splice(index, 1);
  }

  /**
   * Sets an attribute if the slot has it: list attributes gather values (no duplicates), scalar
   * ones keep the first value given.
   */
  set(entry: CollectedEntry, attribute: string, value: string | readonly string[] | undefined): void {
    if (value === undefined || (typeof value !== "string" && value.length === 0) || value === "") return;
    const definition = attributeDefinition(slotDefinition(entry.base)!, attribute);
    if (!definition) return;
    if (definition.list) {
      const current = (entry.attributes[attribute] as string[] | undefined) ?? [];
      for (const item of typeof value === "string" ? [value] : value) if (!current.includes(item)) current.push(item);
      entry.attributes[attribute] = current;
    } else if (entry.attributes[attribute] === undefined) {
      entry.attributes[attribute] = typeof value === "string" ? value : value[0]!;
    }
  }

  /** The `inform` frame of the collected entries, or none when empty. */
  toFrames(): NluFrame[] {
    if (this.entries.length === 0) return [];
    const slots: Record<string, SlotEntry[]> = {};
    for (const entry of this.entries) {
      if (Object.keys(entry.attributes).length === 0) continue;
      const name = prefixedSlot(entry.base, entry.status);
      if (name === undefined) continue;
      (slots[name] ??= []).push({ ...entry.attributes });
    }
    return Object.keys(slots).length === 0 ? [] : [{ intent: "inform", slots }];
  }
}
