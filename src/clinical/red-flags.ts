import { readFileSync } from "node:fs";
import { z } from "zod";
import { dialogueStateSchema, describeIssues, type DialogueState } from "../cmas/schemas.ts";
import { criterionSchema, criterionProblem, evidenceFor } from "./criteria.ts";

/**
 * Red flags (`ontology/red-flags.json`): findings in a history that need urgent care. Each flag's
 * criteria are read from the tracked CMAS state, never from the words of one backend, so the same
 * flags fire whichever NLU (embedded or an LLM) filled the state. The file is validated on load
 * against the CMAS ontology, and every flag's example state must fire that flag. Criteria are written in
 * the language of `./criteria.ts`.
 */

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
    const problem = criterionProblem(flag.criteria);
    if (problem) fail(`flag '${flag.id}': ${problem}`);
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
