import { dialogueStateSchema, describeIssues, type DialogueState } from "../cmas/schemas.ts";
import { loadOntologyFile, parseOntologyFile, type OntologyFile } from "../ontology/ontology-files.ts";
import { criterionProblem, evidenceFor } from "./criteria.ts";

/**
 * Red flags (`ontology/red-flags.json`): findings in a history that need urgent care. Each flag's
 * criteria are read from the tracked CMAS state, never from the words of one backend, so the same
 * flags fire whichever NLU (embedded or an LLM) filled the state. The file is validated on load
 * against the CMAS ontology, and every flag's example state must fire that flag. Criteria are written in
 * the language of `./criteria.ts`.
 */

export type RedFlagsFile = OntologyFile<"red-flags.json">;
export type RedFlagDefinition = RedFlagsFile["flags"][number];
export type Urgency = RedFlagDefinition["urgency"];

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
      if (evidence !== null)
        fired.push({ id: flag.id, label: flag.label, urgency: flag.urgency, advice: flag.advice, evidence });
    }
    return fired;
  }

  /** What the doctor says when flags first fire: the opening, each flag's advice, then the choice to go on or stop. */
  escalationText(flags: readonly RedFlag[]): string {
    return [this.file.escalation.opening, ...flags.map((flag) => flag.advice), this.file.escalation.closing].join(" ");
  }
}

/**
 * Checks a validated red-flags file against the CMAS ontology (slots, statuses, attributes, patterns;
 * example states) and itself (unique ids; every example fires its flag).
 */
export function compileRedFlags(file: RedFlagsFile): RedFlagRules {
  const ids = new Set<string>();
  for (const flag of file.flags) {
    if (ids.has(flag.id)) fail(`duplicate flag id '${flag.id}'`);
    ids.add(flag.id);
    const problem = criterionProblem(flag.criteria);
    if (problem) fail(`flag '${flag.id}': ${problem}`);
    const example = dialogueStateSchema.safeParse(flag.example.state);
    if (!example.success) fail(`flag '${flag.id}': example state: ${describeIssues(example.error)}`);
  }
  const rules = new RedFlagRules(file);
  for (const flag of rules.flags) {
    if (!rules.evaluate(flag.example.state).some((fired) => fired.id === flag.id))
      fail(`flag '${flag.id}': its example state does not fire it`);
  }
  return rules;
}

/** Parses, validates and checks the text of a red-flags file (for tests of edits). */
export function parseRedFlags(text: string): RedFlagRules {
  return compileRedFlags(parseOntologyFile("red-flags.json", text));
}

let cached: RedFlagRules | undefined;

/** The bundled red flags, read and checked once. */
export function loadRedFlags(): RedFlagRules {
  cached ??= compileRedFlags(loadOntologyFile("red-flags.json"));
  return cached;
}
