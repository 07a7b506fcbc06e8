import { z } from "zod";
import {
  actionNames,
  checkTypes,
  nluIntentNames,
  nluSlots,
  ontology,
  prefixedSlotNames,
  type SlotDefinition,
} from "./ontology.ts";

/**
 * Zod schemas of the data formats, built from the ontology: NLU frames and the dialogue state use
 * status-prefixed slot names (`positive_symptom`), doctor actions unprefixed ones with `checks`.
 * Types are inferred from these schemas; nothing else declares them.
 */

/**
 * A list-valued attribute. A bare string is accepted and becomes a one-element list: the official
 * scorer unrolls `"chest"` and `["chest"]` to the same tuple, so rejecting it would score differently.
 */
const listValue = z.union([z.string(), z.array(z.string())]).transform((value) => (typeof value === "string" ? [value] : value));

function entrySchema(slot: SlotDefinition) {
  const shape: Record<string, z.ZodType> = {};
  for (const attribute of slot.attributes) {
    shape[attribute.name] = (attribute.list ? listValue : z.string()).optional();
  }
  return z.strictObject(shape);
}

/** One slot entry of a frame or of the state: attribute name → string, or string[] when list-valued. */
export type SlotEntry = Record<string, string | string[]>;

const frameSlotsShape: Record<string, z.ZodType> = {};
for (const slot of nluSlots) {
  const entries = z.array(entrySchema(slot));
  for (const name of prefixedSlotNames.filter((prefixed) => prefixed === slot.name || prefixed.endsWith(`_${slot.name}`))) {
    frameSlotsShape[name] = entries.optional();
  }
}

/** Slots of an NLU frame or of the dialogue state, keyed by prefixed slot name. */
export const frameSlotsSchema = z.strictObject(frameSlotsShape) as unknown as z.ZodType<Record<string, SlotEntry[]>>;

/** One NLU frame: `{ intent, slots? }`. */
export const nluFrameSchema = z.strictObject({
  intent: z.enum(nluIntentNames),
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

function actionEntrySchema(slot: SlotDefinition) {
  const check = z.strictObject({
    type: z.enum(checkTypes(slot) as [string, ...string[]]).optional(),
    values: z.array(z.string()).optional(),
  });
  return z.strictObject({ value: z.string().optional(), checks: z.array(check).optional() });
}

const actionShape: Record<string, z.ZodType> = { action: z.enum(actionNames) };
for (const slot of ontology.slots) actionShape[slot.name] = z.array(actionEntrySchema(slot)).optional();

/** One doctor action: `{ action, <slot>: [{ value?, checks? }] }`. */
export const doctorActionSchema = z.strictObject(actionShape) as unknown as z.ZodType<DoctorAction>;
/** One doctor action: `{ action, <slot>: [{ value?, checks? }] }`. */
export type DoctorAction = { action: string } & { [slot: string]: ActionEntry[] | string };

/** A doctor turn's actions. */
export const doctorActionsSchema = z.array(doctorActionSchema);

/** Formats zod issues as `path: message` lines — our error messages and format-error reasons. */
export function describeIssues(error: z.ZodError, limit = 5): string {
  const lines = error.issues.slice(0, limit).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join(".") : "(root)";
    return `${path}: ${issue.message}`;
  });
  if (error.issues.length > limit) lines.push(`… and ${error.issues.length - limit} more`);
  return lines.join("; ");
}
