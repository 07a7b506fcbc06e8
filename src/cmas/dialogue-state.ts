import { prefixedSlotNames, splitPrefixedSlot } from "./ontology.ts";
import type { DialogueState, NluFrame, SlotEntry } from "./schemas.ts";

/** A tracker's entries: per unprefixed slot, each entry's current prefixed slot and attributes. */
export type TrackerEntries = Array<[string, Array<{ prefixedSlot: string; attributes: SlotEntry }>]>;

/**
 * What makes two entries of a slot the same finding.
 * - `value`: MediTOD's rule (below): one entry per value, whatever its sites.
 * - `value-and-site`: as `value`, except that an entry with another status that names only other sites
 *   is another finding ("no leg swelling" after swollen ankles; no back pain after chest pain), so the
 *   history keeps both instead of denying what the patient affirmed. The live history (chat, simulated
 *   consultations, visit notes) uses it; the benchmark reproduces the data's states with `value`.
 */
export type EntryIdentity = "value" | "value-and-site";

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
export class DialogueStateTracker {
  private profile: TrackedProfile = EMPTY_PROFILE;

  /** Starts from an empty state, or from a state in the data's format. */
  constructor(
    initial?: DialogueState,
    private readonly identity: EntryIdentity = "value",
  ) {
    if (initial) this.update([{ slots: initial }]);
  }

  /** Applies a patient turn's NLU frames and returns the new state. Unknown slot names are ignored. */
  update(frames: ReadonlyArray<Pick<NluFrame, "slots">>): DialogueState {
    this.profile = trackFrames(this.profile, frames, this.identity);
    return profileState(this.profile);
  }

  /**
   * The tracker's entries in first-mention order, as plain JSON. Unlike {@link state}, which groups by
   * status, this keeps the order across statuses, so {@link DialogueStateTracker.restore} continues
   * exactly as this tracker would.
   */
  saved(): TrackerEntries {
    return saveProfile(this.profile);
  }

  /** A tracker that continues from {@link saved} entries. */
  static restore(saved: TrackerEntries, identity: EntryIdentity = "value"): DialogueStateTracker {
    const tracker = new DialogueStateTracker(undefined, identity);
    tracker.profile = restoreProfile(saved);
    return tracker;
  }

  /** The current state in the data's format (a fresh copy). */
  state(): DialogueState {
    return profileState(this.profile);
  }
}

/** One tracked entry: its current prefixed slot and its attributes. */
interface TrackedEntry {
  readonly prefixedSlot: string;
  readonly attributes: SlotEntry;
}

/**
 * What the tracker remembers, as an immutable value: per unprefixed slot, its entries in
 * first-mention order. The data's state format cannot hold that order across statuses, so a
 * conversation keeps this and derives its state with {@link profileState}.
 */
export interface TrackedProfile {
  readonly entries: ReadonlyMap<string, readonly TrackedEntry[]>;
}

/** A profile as plain JSON (for a stored conversation). */
export function saveProfile(profile: TrackedProfile): TrackerEntries {
  return [...profile.entries].map(([slot, known]) => [
    slot,
    known.map(({ prefixedSlot, attributes }) => ({ prefixedSlot, attributes: cloneEntry(attributes) })),
  ]);
}

/** The profile of {@link saveProfile}'s JSON. */
export function restoreProfile(saved: TrackerEntries): TrackedProfile {
  return {
    entries: new Map(
      saved.map(([slot, known]) => [
        slot,
        known.map(({ prefixedSlot, attributes }) => ({ prefixedSlot, attributes: cloneEntry(attributes) })),
      ]),
    ),
  };
}

/** The profile before any patient turn. */
export const EMPTY_PROFILE: TrackedProfile = { entries: new Map() };

/** The profile after a patient turn's frames (pure: `profile` is left as it was). */
export function trackFrames(
  profile: TrackedProfile,
  frames: ReadonlyArray<Pick<NluFrame, "slots">>,
  identity: EntryIdentity = "value",
): TrackedProfile {
  const entries = new Map<string, TrackedEntry[]>([...profile.entries].map(([slot, known]) => [slot, [...known]]));
  for (const frame of frames) {
    for (const [prefixedSlot, newEntries] of Object.entries(frame.slots ?? {})) {
      const split = splitPrefixedSlot(prefixedSlot);
      if (!split) continue;
      const known = entries.get(split.slot.name) ?? [];
      entries.set(split.slot.name, known);
      for (const entry of newEntries) {
        const index = known.findIndex((candidate) =>
          entry.value !== undefined
            ? candidate.attributes.value === entry.value &&
              (identity === "value" || !separateSites(candidate, prefixedSlot, entry))
            : candidate.prefixedSlot === prefixedSlot,
        );
        if (index >= 0)
          known[index] = { prefixedSlot, attributes: { ...known[index]!.attributes, ...cloneEntry(entry) } };
        else known.push({ prefixedSlot, attributes: cloneEntry(entry) });
      }
    }
  }
  return { entries };
}

/**
 * Whether an entry of a known value is another finding, not news about the known one (under
 * `value-and-site`): it has another status and names only other sites. Moving the known entry to the
 * new status would deny what the patient affirmed.
 */
function separateSites(known: TrackedEntry, prefixedSlot: string, entry: SlotEntry): boolean {
  if (known.prefixedSlot === prefixedSlot) return false;
  const before = known.attributes["location"];
  const now = entry["location"];
  if (!Array.isArray(before) || !Array.isArray(now) || before.length === 0 || now.length === 0) return false;
  return !now.some((site) => before.includes(site));
}

/** A profile in the data's state format (a fresh copy), keys in the ontology's order. */
export function profileState(profile: TrackedProfile): DialogueState {
  const bySlot = new Map<string, SlotEntry[]>();
  for (const known of profile.entries.values()) {
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

/** Applies frames to a state without keeping a tracker around. */
export function applyFrames(
  state: DialogueState,
  frames: ReadonlyArray<Pick<NluFrame, "slots">>,
  identity: EntryIdentity = "value",
): DialogueState {
  return new DialogueStateTracker(state, identity).update(frames);
}

function cloneEntry(entry: SlotEntry): SlotEntry {
  const copy: SlotEntry = {};
  for (const [key, value] of Object.entries(entry)) copy[key] = Array.isArray(value) ? [...value] : value;
  return copy;
}
