import * as z from "zod";
import { regexSourceSchema } from "./regex-source-schema.ts";

/** The zod schema of `ontology/visit-note.json`: how a visit note names values and groups findings by body system. */

const names = z.array(z.string().min(1)).min(1);

/** Regular expressions (case-insensitive), each checked to compile. */
const cues = z.array(regexSourceSchema);

export const visitNoteSchema = z.strictObject({
  description: z.string(),
  /** CMAS value → the words a note uses for it ("hypertensive disease" → "hypertension"). */
  note_names: z.record(z.string(), z.string().min(1)),
  /** The review of systems: each system's CMAS symptoms, and for a symptom with a site, the sites that place it here. */
  review_of_systems: z.array(
    z.strictObject({ system: z.string().min(1), values: names, sites: names.optional() }),
  ),
  /** Where a symptom with a site no system lists goes. */
  default_system: z.string().min(1),
  /** The physical examination: each system with the words that place a doctor's finding in it, tried in order. */
  examination: z.array(z.strictObject({ system: z.string().min(1), cues: cues.min(1) })),
  /** Where a finding no system's words place goes. */
  examination_default_system: z.string().min(1),
});
