import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(prefix = "anamnesis-backends-"): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Shaped like MediTOD NLU output: `{"frames":[{"intent":"inform","slots":{"symptom":[{"value":"cough","status":"positive"}]}}]}`. */
export const nluFramesSchema = z.object({
  frames: z.array(
    z.object({
      intent: z.enum(["inform", "chit-chat", "nod_prompt_salutations"]),
      slots: z
        .record(
          z.string(),
          z.array(z.object({ value: z.string(), status: z.enum(["positive", "negative", "unknown"]).optional() })),
        )
        .optional(),
    }),
  ),
});

/** Shaped like MediTOD doctor actions: `{"actions":[{"action":"inquire","symptom":[{"value":"cough","checks":[{"type":"onset"}]}]}]}`. */
export const doctorActionsSchema = z.object({
  actions: z.array(
    z.object({
      action: z.enum(["inquire", "chit-chat", "nod_prompt_salutations", "diagnosis", "other"]),
      symptom: z
        .array(
          z.object({
            value: z.string(),
            checks: z.array(z.object({ type: z.string(), values: z.array(z.string()).optional() })).optional(),
          }),
        )
        .optional(),
    }),
  ),
});

export const GOOD_FRAMES = { frames: [{ intent: "inform", slots: { symptom: [{ value: "cough", status: "positive" }] } }] };
export const GOOD_ACTIONS = { actions: [{ action: "inquire", symptom: [{ value: "cough", checks: [{ type: "onset" }] }] }] };
