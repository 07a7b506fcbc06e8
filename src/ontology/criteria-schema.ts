import * as z from "zod";

/**
 * The zod schema of criteria over the tracked CMAS state, shared by `red-flags.json` and
 * `diagnoses.json`: a finding (an entry of a slot under a status — positive by default — whose value
 * is one of `values`, with optional attribute patterns), or all / any / not of criteria. Whether the
 * slots, statuses and attributes exist is checked against `cmas.json` by `src/clinical/criteria.ts`.
 */

export const findingSchema = z.strictObject({
  slot: z.string(),
  values: z.array(z.string().min(1)).min(1),
  status: z.string().default("positive"),
  /** Attribute → case-insensitive pattern; a list attribute matches when any of its items does. */
  attributes: z.record(z.string(), z.string()).optional(),
});
export type Finding = z.infer<typeof findingSchema>;

export type Criterion = { finding: Finding } | { all: Criterion[] } | { any: Criterion[] } | { not: Criterion };

export const criterionSchema: z.ZodType<Criterion, object> = z.lazy(() =>
  z.union([
    z.strictObject({ finding: findingSchema }),
    z.strictObject({ all: z.array(criterionSchema).min(1) }),
    z.strictObject({ any: z.array(criterionSchema).min(1) }),
    z.strictObject({ not: criterionSchema }),
  ]),
);

/** A CMAS state written as an example (checked against the state schema by the code that loads it). */
export const exampleStateSchema = z.record(z.string(), z.array(z.record(z.string(), z.union([z.string(), z.array(z.string())]))));
