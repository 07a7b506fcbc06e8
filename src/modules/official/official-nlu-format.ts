/**
 * `format_nlu` and `deformat_nlu` of the official `src/prompting/formating_utils.py`, with Python's
 * semantics on any JSON value (our words, not its code):
 *
 * - `formatOfficialNlu` (exemplar answers): a slot whose name contains `positive_`, `negative_`,
 *   `unknown_`, `unavail_` or `avail_` (tested in that order, anywhere in the name) loses every
 *   occurrence of that prefix and each entry gains `status`. Two statuses of one slot in one frame
 *   write the same key, so the later list replaces the earlier one (the key keeps its first position).
 * - `deformatOfficialNlu` (post-processing): entries of symptom, medical_history, family_history,
 *   habit, exposure, medication and medical_test go back under `<status>_<slot>`; a status the slot
 *   does not take becomes `unknown_<slot>`; other slots are copied. Where Python would raise (a frame
 *   that is not an object, no `intent`, an entry that is not an object, …) this throws
 *   {@link OfficialFormatError} with the reason, and the caller counts a format error.
 */

import { MEDICAL_SLOT_NAMES } from "../../cmas/cmas-names.ts";

export class OfficialFormatError extends Error {}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const STATUS_PREFIXES = [
  ["positive_", "positive"],
  ["negative_", "negative"],
  ["unknown_", "unknown"],
  ["unavail_", "unavail"],
  ["avail_", "avail"],
] as const;

/** Slots whose entries carry a status prefix: CMAS's medical slots, the same seven the official `deformat_nlu` lists. */
const STATUS_SLOTS: readonly string[] = MEDICAL_SLOT_NAMES;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const copy = <T>(value: T): T => structuredClone(value);

/** Python's `for x in value` over a JSON value: list items, object keys, string characters. */
function pythonIterate(value: Json, what: string): Json[] {
  if (Array.isArray(value)) return value;
  if (isObject(value)) return Object.keys(value);
  if (typeof value === "string") return [...value];
  throw new OfficialFormatError(`${what} is ${value === null ? "null" : typeof value}, not iterable`);
}

/** Python's `container[key]` for a JSON container and a key taken from iterating it. */
function pythonItem(container: Json, key: Json, what: string): Json {
  if (isObject(container) && typeof key === "string") {
    if (!(key in container)) throw new OfficialFormatError(`${what} has no key '${key}'`);
    return container[key]!;
  }
  if (Array.isArray(container) && typeof key === "number" && Number.isInteger(key)) {
    const item = container.at(key);
    if (item === undefined) throw new OfficialFormatError(`${what}: index ${key} out of range`);
    return item;
  }
  throw new OfficialFormatError(`${what} cannot be indexed by ${JSON.stringify(key)}`);
}

/** `format_nlu`: data frames (status-prefixed slots) → the prompt's frames (a `status` per entry). */
export function formatOfficialNlu(frames: ReadonlyArray<Readonly<Record<string, unknown>>>): JsonObject[] {
  return (frames as readonly JsonObject[]).map((frame) => {
    const formatted: JsonObject = { intent: copy(frame.intent!) };
    if (!("slots" in frame)) return formatted;
    const slots: JsonObject = {};
    for (const [slot, entries] of Object.entries(frame.slots as JsonObject)) {
      const prefix = STATUS_PREFIXES.find(([text]) => slot.includes(text));
      if (!prefix) {
        slots[slot] = copy(entries);
        continue;
      }
      slots[slot.replaceAll(prefix[0], "")] = (entries as JsonObject[]).map((entry) => ({
        ...copy(entry),
        status: prefix[1],
      }));
    }
    formatted.slots = slots;
    return formatted;
  });
}

/** The data slot an entry of a status-carrying slot goes back to. */
function statusSlot(slot: string, status: Json | undefined): string {
  const takes = slot === "medical_test" ? ["avail", "unavail"] : ["positive", "negative", "unknown"];
  return typeof status === "string" && takes.includes(status) ? `${status}_${slot}` : `unknown_${slot}`;
}

function deformatSlots(slots: Json): JsonObject {
  const out: Record<string | number, Json> = {};
  for (const slot of pythonIterate(slots, "slots")) {
    const entries = pythonItem(slots, slot, "slots");
    if (typeof slot !== "string" || !STATUS_SLOTS.includes(slot)) {
      out[slot as string] = copy(entries);
      continue;
    }
    for (const entry of pythonIterate(entries, `slot ${slot}`)) {
      if (!isObject(entry))
        throw new OfficialFormatError(`an entry of ${slot} is ${JSON.stringify(entry)}, not an object`);
      const target = statusSlot(slot, entry.status);
      const list = (out[target] ??= []);
      if (!Array.isArray(list)) throw new OfficialFormatError(`${target} is given twice, once not as a list`);
      const { status: _status, ...rest } = copy(entry);
      list.push(rest);
    }
  }
  return out;
}

/** `deformat_nlu`: the model's frames → data frames; throws {@link OfficialFormatError} where Python raises. */
export function deformatOfficialNlu(value: unknown): JsonObject[] {
  return pythonIterate(value as Json, "the reply").map((frame) => {
    if (!isObject(frame)) throw new OfficialFormatError(`a frame is ${JSON.stringify(frame)}, not an object`);
    if (!("intent" in frame)) throw new OfficialFormatError("a frame has no intent");
    const entry: JsonObject = { intent: copy(frame.intent!) };
    if ("slots" in frame) entry.slots = deformatSlots(frame.slots);
    return entry;
  });
}
