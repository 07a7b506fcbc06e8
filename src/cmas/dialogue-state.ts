import { prefixedSlotNames, splitPrefixedSlot } from "./ontology.ts";
import type { DialogueState, NluFrame, SlotEntry } from "./schemas.ts";

/**
 * The dialogue state tracker: the cumulative CMAS patient profile after each patient turn.
 *
 * MediTOD stores the state but not the rule that produced it. This rule reproduces all 178 states of
 * the public sample exactly, down to list and key order:
 * - entries are identified by (slot without status prefix, `value`); an entry without `value`
 *   (travel, residence or basic_information given only a status or an age) is the single entry of
 *   its prefixed slot;
 * - attributes of a known entry are overwritten (lists replaced, not merged), new ones are appended;
 * - when a value comes back under another status (negative → positive), the entry moves to the new
 *   prefixed slot, keeping its attributes — and its place: within a slot, entries are listed in the
 *   order their value was first mentioned, whatever status it had then;
 * - state keys follow a fixed order: the ontology's slot order, statuses positive/negative/unknown
 *   (avail/unavail for medical tests).
 */
/** A tracker's entries: per unprefixed slot, each entry's current prefixed slot and attributes. */
export type TrackerEntries = Array<[string, Array<{ prefixedSlot: string; attributes: SlotEntry }>]>;

export class DialogueStateTracker {
  /** Per unprefixed slot, its entries in first-mention order, each with its current prefixed slot. */
  private readonly entries = new Map<string, Array<{ prefixedSlot: string; attributes: SlotEntry }>>();

  /** Starts from an empty state, or from a state in the data's format. */
  constructor(initial?: DialogueState) {
    if (initial) this.update([{ slots: initial }]);
  }

  /** Applies a patient turn's NLU frames and returns the new state. Unknown slot names are ignored. */
  update(frames: ReadonlyArray<Pick<NluFrame, "slots">>): DialogueState {
    for (const frame of frames) {
      for (const [prefixedSlot, newEntries] of Object.entries(frame.slots ?? {})) {
        const split = splitPrefixedSlot(prefixedSlot);
        if (!split) continue;
        let known = this.entries.get(split.slot.name);
        if (!known) {
          known = [];
          this.entries.set(split.slot.name, known);
        }
        for (const entry of newEntries) {
          const existing =
            entry.value !== undefined
              ? known.find((candidate) => candidate.attributes.value === entry.value)
              : known.find((candidate) => candidate.prefixedSlot === prefixedSlot);
          if (existing) {
            existing.prefixedSlot = prefixedSlot;
            Object.assign(existing.attributes, cloneEntry(entry));
          } else {
            known.push({ prefixedSlot, attributes: cloneEntry(entry) });
          }
        }
      }
    }
    return this.state();
  }

  /**
   * The tracker's entries in first-mention order, as plain JSON. Unlike {@link state}, which groups by
   * status, this keeps the order across statuses, so {@link DialogueStateTracker.restore} continues
   * exactly as this tracker would.
   */
  saved(): TrackerEntries {
    return [...this.entries].map(([slot, known]) => [slot, known.map(({ prefixedSlot, attributes }) => ({ prefixedSlot, attributes: cloneEntry(attributes) }))]);
  }

  /** A tracker that continues from {@link saved} entries. */
  static restore(saved: TrackerEntries): DialogueStateTracker {
    const tracker = new DialogueStateTracker();
    for (const [slot, known] of saved) tracker.entries.set(slot, known.map(({ prefixedSlot, attributes }) => ({ prefixedSlot, attributes: cloneEntry(attributes) })));
    return tracker;
  }

  /** The current state in the data's format (a fresh copy). */
  state(): DialogueState {
    const bySlot = new Map<string, SlotEntry[]>();
    for (const known of this.entries.values()) {
      for (const { prefixedSlot, attributes } of known) {
        let list = bySlot.get(prefixedSlot);
        if (!list) {
          list = [];
          bySlot.set(prefixedSlot, list);
        }
        list.push(cloneEntry(attributes));
      }
    }
    const state: DialogueState = {};
    for (const name of prefixedSlotNames) {
      const list = bySlot.get(name);
      if (list) state[name] = list;
    }
    return state;
  }
}

/** Applies frames to a state without keeping a tracker around. */
export function applyFrames(state: DialogueState, frames: ReadonlyArray<Pick<NluFrame, "slots">>): DialogueState {
  return new DialogueStateTracker(state).update(frames);
}

function cloneEntry(entry: SlotEntry): SlotEntry {
  const copy: SlotEntry = {};
  for (const [key, value] of Object.entries(entry)) copy[key] = Array.isArray(value) ? [...value] : value;
  return copy;
}
