import { readFileSync } from "node:fs";
import { z } from "zod";
import { attributeDefinition, slotDefinition } from "../cmas/ontology.ts";
import { dialogueStateSchema, describeIssues, type DialogueState } from "../cmas/schemas.ts";

/**
 * Red flags (`ontology/red-flags.json`): findings in a history that need urgent care. Each flag's
 * criteria are read from the tracked CMAS state, never from the words of one backend, so the same
 * flags fire whichever NLU (embedded or an LLM) filled the state. The file is validated on load
 * against the CMAS ontology, and every flag's example state must fire that flag.
 */

/** A finding in the state: an entry of `slot` under `status` whose value is one of `values`. */
const findingSchema = z.strictObject({
  slot: z.string(),
  values: z.array(z.string().min(1)).min(1),
  status: z.string().default("positive"),
  /** Attribute → case-insensitive pattern; a list attribute matches when any of its items does. */
  attributes: z.record(z.string(), z.string()).optional(),
});

export type RedFlagCriterion =
  | { finding: z.infer<typeof findingSchema> }
  | { all: RedFlagCriterion[] }
  | { any: RedFlagCriterion[] }
  | { not: RedFlagCriterion };

const criterionSchema: z.ZodType<RedFlagCriterion, z.input<typeof findingSchema> | object> = z.lazy(() =>
  z.union([
    z.strictObject({ finding: findingSchema }),
    z.strictObject({ all: z.array(criterionSchema).min(1) }),
    z.strictObject({ any: z.array(criterionSchema).min(1) }),
    z.strictObject({ not: criterionSchema }),
  ]),
) as z.ZodType<RedFlagCriterion, z.input<typeof findingSchema> | object>;

const urgencySchema = z.enum(["emergency", "same_day", "soon"]);
export type Urgency = z.infer<typeof urgencySchema>;

const flagSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9_]+$/),
  label: z.string().min(1),
  urgency: urgencySchema,
  criteria: criterionSchema,
  /** What the doctor says, in plain words. */
  advice: z.string().min(1),
  example: z.strictObject({ said: z.string().min(1), state: dialogueStateSchema }),
});

const redFlagsFileSchema = z.strictObject({
  name: z.literal("red-flags"),
  version: z.string(),
  description: z.string(),
  urgency: z.record(urgencySchema, z.string()),
  escalation: z.strictObject({ opening: z.string(), closing: z.string() }),
  flags: z.array(flagSchema).min(1),
});

export type RedFlagsFile = z.infer<typeof redFlagsFileSchema>;
export type RedFlagDefinition = z.infer<typeof flagSchema>;

/** A flag that fires on a state, with the evidence that made it fire. */
export interface RedFlag {
  readonly id: string;
  readonly label: string;
  readonly urgency: Urgency;
  readonly advice: string;
  /** `status slot: value` of each finding that matched, e.g. `positive symptom: chest pain`. */
  readonly evidence: readonly string[];
}

function fail(message: string): never {
  throw new Error(`ontology/red-flags.json: ${message}`);
}

/** Every finding of a criterion, for the consistency check. */
function findingsOf(criterion: RedFlagCriterion): Array<z.infer<typeof findingSchema>> {
  if ("finding" in criterion) return [criterion.finding];
  if ("not" in criterion) return findingsOf(criterion.not);
  return ("all" in criterion ? criterion.all : criterion.any).flatMap(findingsOf);
}

function checkFinding(flag: string, finding: z.infer<typeof findingSchema>): void {
  const slot = slotDefinition(finding.slot);
  if (!slot || slot.actions_only) fail(`flag '${flag}' names unknown slot '${finding.slot}'`);
  if (!slot.statuses?.includes(finding.status)) fail(`flag '${flag}': '${finding.status}' is not a status of ${finding.slot}`);
  for (const [attribute, pattern] of Object.entries(finding.attributes ?? {})) {
    if (!attributeDefinition(slot, attribute)) fail(`flag '${flag}': ${finding.slot} has no attribute '${attribute}'`);
    try {
      new RegExp(pattern, "i");
    } catch {
      fail(`flag '${flag}': '${pattern}' is not a regular expression`);
    }
  }
}

/** The entries of a slot under a status that carry a value. */
function entriesUnder(state: DialogueState, slot: string, status: string) {
  return (state[`${status}_${slot}`] ?? []).filter((entry) => typeof entry.value === "string");
}

function matchesAttributes(entry: Record<string, string | string[]>, patterns: Readonly<Record<string, string>>): boolean {
  return Object.entries(patterns).every(([attribute, pattern]) => {
    const value = entry[attribute];
    if (value === undefined) return false;
    const regex = new RegExp(pattern, "i");
    return (Array.isArray(value) ? value : [value]).some((item) => regex.test(item));
  });
}

/** The evidence for a criterion in a state, or null when it does not hold. `not` contributes no evidence. */
function evidenceFor(criterion: RedFlagCriterion, state: DialogueState): string[] | null {
  if ("finding" in criterion) {
    const { slot, values, status, attributes } = criterion.finding;
    const wanted = new Set(values.map((value) => value.toLowerCase()));
    const hits = entriesUnder(state, slot, status).filter((entry) => wanted.has(String(entry.value).toLowerCase()) && matchesAttributes(entry, attributes ?? {}));
    return hits.length > 0 ? hits.map((entry) => `${status} ${slot}: ${String(entry.value)}`) : null;
  }
  if ("not" in criterion) return evidenceFor(criterion.not, state) === null ? [] : null;
  if ("all" in criterion) {
    const parts = criterion.all.map((part) => evidenceFor(part, state));
    return parts.every((part) => part !== null) ? [...new Set(parts.flat() as string[])] : null;
  }
  const parts = criterion.any.map((part) => evidenceFor(part, state)).filter((part): part is string[] => part !== null);
  return parts.length > 0 ? [...new Set(parts.flat())] : null;
}

/** The red flags as compiled data, with the evaluation over a state. */
export class RedFlagRules {
  readonly flags: readonly RedFlagDefinition[];

  constructor(readonly file: RedFlagsFile) {
    this.flags = file.flags;
  }

  /** The flags that fire on a state, in the file's order. */
  evaluate(state: DialogueState): RedFlag[] {
    const fired: RedFlag[] = [];
    for (const flag of this.flags) {
      const evidence = evidenceFor(flag.criteria, state);
      if (evidence !== null) fired.push({ id: flag.id, label: flag.label, urgency: flag.urgency, advice: flag.advice, evidence });
    }
    return fired;
  }

  /** What the doctor says when flags first fire: the opening, each flag's advice, then the choice to go on or stop. */
  escalationText(flags: readonly RedFlag[]): string {
    return [this.file.escalation.opening, ...flags.map((flag) => flag.advice), this.file.escalation.closing].join(" ");
  }
}

/** Validates a red-flags file's content against its schema and the CMAS ontology; each example must fire its flag. */
export function compileRedFlags(json: unknown): RedFlagRules {
  const parsed = redFlagsFileSchema.safeParse(json);
  if (!parsed.success) fail(describeIssues(parsed.error));
  const ids = new Set<string>();
  for (const flag of parsed.data.flags) {
    if (ids.has(flag.id)) fail(`duplicate flag id '${flag.id}'`);
    ids.add(flag.id);
    for (const finding of findingsOf(flag.criteria)) checkFinding(flag.id, finding);
  }
  const rules = new RedFlagRules(parsed.data);
  for (const flag of rules.flags) {
    if (!rules.evaluate(flag.example.state).some((fired) => fired.id === flag.id)) fail(`flag '${flag.id}': its example state does not fire it`);
  }
  return rules;
}

let cached: RedFlagRules | undefined;

/** The bundled red flags, read and validated once. */
export function loadRedFlags(): RedFlagRules {
  cached ??= compileRedFlags(JSON.parse(readFileSync(new URL("../../ontology/red-flags.json", import.meta.url), "utf8")));
  return cached;
}
