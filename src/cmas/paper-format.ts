import * as z from "zod";
import type { NluIntentName } from "./cmas-names.ts";
import { nluIntentNames, nluSlots, type SlotDefinition } from "./ontology.ts";
import { doctorActionsSchema, type DoctorAction, type NluFrame, type SlotEntry } from "./schemas.ts";

/**
 * The JSON the MediTOD paper's in-context prompts ask a model for, and its conversion to and from the
 * data's format. In the paper's format NLU slots are unprefixed and carry `status` as an attribute
 * (`{"symptom": [{"value": "coughing", "status": "positive"}]}`); the data prefixes the slot
 * (`positive_symptom`). This is `format_nlu` / `deformat_nlu` of the official
 * `src/prompting/formating_utils.py`.
 */

function statusesOf(slot: SlotDefinition): string[] {
  return slot.statuses ?? [];
}

function paperEntrySchema(slot: SlotDefinition) {
  const shape: Record<string, z.ZodType> = {};
  const statuses = statusesOf(slot);
  if (statuses.length > 0) shape.status = z.enum(statuses as [string, ...string[]]);
  for (const attribute of slot.attributes) {
    shape[attribute.name] = (attribute.list ? z.union([z.string(), z.array(z.string())]) : z.string()).optional();
  }
  return z.strictObject(shape);
}

const paperSlotsShape: Record<string, z.ZodType> = {};
for (const slot of nluSlots) paperSlotsShape[slot.name] = z.array(paperEntrySchema(slot)).optional();

/** One NLU frame in the paper's format. */
export const paperFrameSchema = z.strictObject({
  intent: z.enum(nluIntentNames),
  slots: z.strictObject(paperSlotsShape).optional(),
}) as unknown as z.ZodType<PaperFrame>;
export type PaperFrame = { intent: NluIntentName; slots?: Record<string, Array<Record<string, string | string[]>>> };

/** What the NLU prompt asks for: `{"frames": [ … ]}`. */
export const paperNluOutputSchema = z.strictObject({ frames: z.array(paperFrameSchema) });
/** What the policy prompt asks for: `{"actions": [ … ]}` in the data's action format. */
export const paperPolicyOutputSchema = z.strictObject({ actions: doctorActionsSchema });

/** Data frames → paper frames (official `format_nlu`). */
export function toPaperFrames(frames: readonly NluFrame[]): PaperFrame[] {
  return frames.map((frame) => {
    if (!frame.slots) return { intent: frame.intent };
    const slots: Record<string, Array<Record<string, string | string[]>>> = {};
    for (const [name, entries] of Object.entries(frame.slots)) {
      const slot = nluSlots.find((candidate) =>
        statusesOf(candidate).some((status) => name === `${status}_${candidate.name}`),
      );
      if (!slot) {
        slots[name] = entries.map((entry) => ({ ...entry }));
        continue;
      }
      const status = name.slice(0, name.length - slot.name.length - 1);
      (slots[slot.name] ??= []).push(...entries.map((entry) => ({ ...entry, status })));
    }
    return { intent: frame.intent, slots };
  });
}

function lower<T>(value: T): T {
  if (typeof value === "string") return value.toLowerCase() as T;
  if (Array.isArray(value)) return value.map(lower) as T;
  return value;
}

/**
 * Paper frames → data frames (official `deformat_nlu`). Values are lower-cased, as the official
 * post-processing lower-cases the model's whole reply before parsing it.
 */
export function fromPaperFrames(frames: readonly PaperFrame[]): NluFrame[] {
  return frames.map((frame) => {
    if (!frame.slots) return { intent: frame.intent };
    const slots: Record<string, SlotEntry[]> = {};
    for (const [name, entries] of Object.entries(frame.slots)) {
      const slot = nluSlots.find((candidate) => candidate.name === name);
      for (const entry of entries) {
        const { status, ...attributes } = entry;
        const converted: SlotEntry = {};
        for (const [key, value] of Object.entries(attributes)) converted[key] = lower(value);
        let target = name;
        if (slot && statusesOf(slot).length > 0) {
          // The schema only admits the slot's statuses, so the official fallback to unknown_ is moot.
          target = `${typeof status === "string" ? status : statusesOf(slot).at(-1)}_${name}`;
        } else if (status !== undefined) {
          converted.status = lower(status);
        }
        (slots[target] ??= []).push(converted);
      }
    }
    return { intent: frame.intent, slots };
  });
}

/** Lower-cases every value of doctor actions (the official post-processing). */
export function normaliseActions(actions: readonly DoctorAction[]): DoctorAction[] {
  return actions.map((action) => {
    const copy: Record<string, unknown> = { action: action.action };
    for (const [key, value] of Object.entries(action)) {
      if (key === "action" || !Array.isArray(value)) continue;
      copy[key] = value.map((entry) => ({
        ...(entry.value !== undefined ? { value: entry.value.toLowerCase() } : {}),
        ...(entry.checks
          ? {
              checks: entry.checks.map((check) => ({
                ...(check.type ? { type: check.type } : {}),
                ...(check.values ? { values: lower(check.values) } : {}),
              })),
            }
          : {}),
      }));
    }
    return copy as DoctorAction;
  });
}
