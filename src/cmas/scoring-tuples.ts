import { attributeDefinition, slotDefinition, splitPrefixedSlot, type SlotDefinition } from "./ontology.ts";

/**
 * Unrolling NLU frames and doctor actions into the tuples the official MediTOD scorers compare
 * (dair-iitd/MediTOD `metrics/nlu_metrics.py` and `pol_metrics.py`, `process_single_entry`).
 *
 * A tuple is kept as its JSON text so that sets compare tuples by value, as Python sets of tuples do.
 * "medical" is what the official code calls canon; "non_medical" is non-canon. The official split is
 * wider than the paper's table, which stars only value, location and response_to: the code also counts
 * progression, severity, the dermatology yes/no attributes, medication impact, the status of
 * residence/occupation/travel and all of basic_information as canon. We follow the code.
 */
export interface ScoringTuples {
  readonly medical: Set<string>;
  readonly nonMedical: Set<string>;
}

/** The official placeholder for an entry without `value`. */
const MISSING_VALUE = "dummy";

/** Reads a tuple key back into its parts. */
export function tupleParts(key: string): string[] {
  return JSON.parse(key) as string[];
}

function add(into: Set<string>, ...parts: string[]): void {
  into.add(JSON.stringify(parts));
}

function valuesOf(raw: unknown): string[] {
  return Array.isArray(raw) ? (raw as string[]) : [raw as string];
}

/** Whether an attribute of a slot is canonical for scoring (the official `canon_attrs` lists). */
function isMedicalAttribute(slot: SlotDefinition, attribute: string): boolean {
  // Officially every basic_information tuple is canon, whatever the attribute.
  if (slot.group === "demographic") return true;
  // `value` heads medical slots and is scored on its own, never as an attribute.
  if (attribute === "value" && slot.group === "medical") return false;
  return attributeDefinition(slot, attribute)?.medical === true;
}

type FrameLike = { intent: string; slots?: Record<string, ReadonlyArray<Record<string, unknown>>> };

/**
 * Unrolls one patient turn's frames. Slots unknown to the ontology are skipped, as the official code
 * skips (and prints) them.
 */
export function unrollFrames(frames: readonly FrameLike[]): ScoringTuples {
  const medical = new Set<string>();
  const nonMedical = new Set<string>();
  for (const frame of frames) {
    const slots = frame.slots ?? {};
    const slotNames = Object.keys(slots);
    if (slotNames.length === 0) {
      add(medical, frame.intent);
      continue;
    }
    for (const slotName of slotNames) {
      const slot = splitPrefixedSlot(slotName)?.slot;
      if (!slot || slot.actions_only) continue;
      for (const entry of slots[slotName] ?? []) {
        if (slot.group === "medical") {
          let head = MISSING_VALUE;
          if ("value" in entry) {
            head = entry.value as string;
            add(medical, frame.intent, slotName, head);
          }
          for (const [attribute, raw] of Object.entries(entry)) {
            if (attribute === "value") continue;
            const into = isMedicalAttribute(slot, attribute) ? medical : nonMedical;
            for (const value of valuesOf(raw)) add(into, frame.intent, slotName, head, attribute, value);
          }
        } else {
          for (const [attribute, raw] of Object.entries(entry)) {
            const into = isMedicalAttribute(slot, attribute) ? medical : nonMedical;
            for (const value of valuesOf(raw)) add(into, frame.intent, slotName, attribute, value);
          }
        }
      }
    }
  }
  return { medical, nonMedical };
}

type CheckLike = { type?: string; values?: readonly string[] };
type ActionEntryLike = { value?: string; checks?: readonly CheckLike[] };

/**
 * Unrolls one doctor turn's actions (official `pol_metrics.py`). Check types are always canonical;
 * check values are canonical when the type is a canonical attribute (`status` for social slots).
 * Entry keys other than `value` and `checks` are ignored, as officially.
 */
export function unrollActions(actions: ReadonlyArray<Record<string, unknown>>): ScoringTuples {
  const medical = new Set<string>();
  const nonMedical = new Set<string>();
  for (const action of actions) {
    const name = action.action as string;
    const slotNames = Object.keys(action).filter((key) => key !== "action");
    if (slotNames.length === 0) {
      add(medical, name);
      continue;
    }
    for (const slotName of slotNames) {
      const slot = slotDefinition(slotName);
      if (!slot) continue;
      for (const entry of action[slotName] as readonly ActionEntryLike[]) {
        if (slot.group === "medical") {
          let head = MISSING_VALUE;
          if (entry.value !== undefined) {
            head = entry.value;
            add(medical, name, slotName, head);
          }
          for (const check of entry.checks ?? []) {
            const type = check.type ?? MISSING_VALUE;
            if (check.type !== undefined) add(medical, name, slotName, head, type);
            const into = isMedicalAttribute(slot, type) ? medical : nonMedical;
            for (const value of check.values ?? []) add(into, name, slotName, head, type, value);
          }
        } else {
          if (entry.value !== undefined) add(nonMedical, name, slotName, entry.value);
          // basic_information checks are not scored by the official code.
          if (slot.group === "demographic") continue;
          for (const check of entry.checks ?? []) {
            const type = check.type ?? MISSING_VALUE;
            if (check.type !== undefined) add(medical, name, slotName, type);
            const into = isMedicalAttribute(slot, type) ? medical : nonMedical;
            for (const value of check.values ?? []) add(into, name, slotName, type, value);
          }
        }
      }
    }
  }
  return { medical, nonMedical };
}
