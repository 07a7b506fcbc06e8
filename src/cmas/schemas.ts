import * as z from "zod";
import { describeZodIssues } from "../ontology/describe-zod-issues.ts";
import { ACTION_NAMES, NLU_INTENT_NAMES } from "./cmas-names.ts";
import { checkTypes, nluSlots, ontology, prefixedSlotNames, type SlotDefinition } from "./ontology.ts";

/**
 * Zod schemas of the data formats, built from the ontology: NLU frames and the dialogue state use
 * status-prefixed slot names (`positive_symptom`), doctor actions unprefixed ones with `checks`.
 * The shapes (which slots, which attributes, which check types) come from `ontology/cmas.json`; the
 * names are typed by `cmas-names.ts`, generated from the same file.
 */

/** One slot entry of a frame or of the state: attribute name → string, or string[] when list-valued. */
export type SlotEntry = Record<string, string | string[]>;

/** An attribute's value schema: what it accepts as input and gives as output. */
type AttributeValueSchema = z.ZodType<string | string[], string | string[]>;

/**
 * A list-valued attribute. A bare string is accepted and becomes a one-element list: the official
 * scorer unrolls `"chest"` and `["chest"]` to the same tuple, so rejecting it would score differently.
 */
const listValue: AttributeValueSchema = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (typeof value === "string" ? [value] : value));

function entrySchema(slot: SlotDefinition): z.ZodType<SlotEntry> {
  const shape: Record<string, z.ZodOptional<AttributeValueSchema>> = {};
  for (const attribute of slot.attributes) {
    shape[attribute.name] = (attribute.list ? listValue : z.string()).optional();
  }
  return z.strictObject(shape).transform(withoutUndefined);
}

/** Drops keys whose value is undefined (zod types optional keys as possibly undefined). */
function withoutUndefined<Value>(record: Record<string, Value | undefined>): Record<string, Value> {
  const result: Record<string, Value> = {};
  for (const [key, value] of Object.entries(record)) if (value !== undefined) result[key] = value;
  return result;
}

const frameSlotsShape: Record<string, z.ZodOptional<z.ZodArray<z.ZodType<SlotEntry>>>> = {};
for (const slot of nluSlots) {
  const entries = z.array(entrySchema(slot));
  for (const name of prefixedSlotNames.filter(
    (prefixed) => prefixed === slot.name || prefixed.endsWith(`_${slot.name}`),
  )) {
    frameSlotsShape[name] = entries.optional();
  }
}

/** Slots of an NLU frame or of the dialogue state, keyed by prefixed slot name. */
const frameSlotsSchema: z.ZodType<Record<string, SlotEntry[]>> = z
  .strictObject(frameSlotsShape)
  .transform(withoutUndefined);

/** One NLU frame: `{ intent, slots? }`. */
export const nluFrameSchema = z.strictObject({
  intent: z.enum(NLU_INTENT_NAMES),
  slots: frameSlotsSchema.optional(),
});
/** One NLU frame of a patient turn: an intent and its slots. */
export type NluFrame = z.infer<typeof nluFrameSchema>;

/** A patient turn's NLU annotation: a list of frames. */
export const nluFramesSchema = z.array(nluFrameSchema);

/** The cumulative patient profile after a patient turn (`dialog_state` in the data). */
export const dialogueStateSchema = frameSlotsSchema;
/** The cumulative patient profile: slot name → entries. */
export type DialogueState = Record<string, SlotEntry[]>;

/** What a doctor checks about a slot value: an attribute (`type`) and optionally candidate values. */
export type ActionCheck = { type?: string; values?: string[] };
/** One slot entry of a doctor action. */
export type ActionEntry = { value?: string; checks?: ActionCheck[] };

function actionEntrySchema(slot: SlotDefinition): z.ZodType<ActionEntry> {
  const [first, ...rest] = checkTypes(slot);
  const check = z.strictObject({
    type: z.enum([first!, ...rest]).optional(),
    values: z.array(z.string()).optional(),
  });
  return z.strictObject({ value: z.string().optional(), checks: z.array(check).optional() });
}

/** One doctor action: `{ action, <slot>: [{ value?, checks? }] }`. */
export type DoctorAction = { action: string } & { [slot: string]: ActionEntry[] | string };

const actionSlotsShape: Record<string, z.ZodOptional<z.ZodArray<z.ZodType<ActionEntry>>>> = {};
for (const slot of ontology.slots) actionSlotsShape[slot.name] = z.array(actionEntrySchema(slot)).optional();

/** One doctor action: `{ action, <slot>: [{ value?, checks? }] }`. */
export const doctorActionSchema: z.ZodType<DoctorAction> = z
  .strictObject({ action: z.enum(ACTION_NAMES), ...actionSlotsShape })
  .transform((action): DoctorAction => ({
    ...withoutUndefined<ActionEntry[] | string>(action),
    action: action.action,
  }));

/** A doctor turn's actions. */
export const doctorActionsSchema = z.array(doctorActionSchema);

/** Formats zod issues as `path: message` lines — our error messages and format-error reasons. */
export const describeIssues = describeZodIssues;
