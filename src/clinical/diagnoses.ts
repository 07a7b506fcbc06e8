import { readFileSync } from "node:fs";
import { z } from "zod";
import { splitPrefixedSlot } from "../cmas/ontology.ts";
import { dialogueStateSchema, describeIssues, type DialogueState } from "../cmas/schemas.ts";
import { criterionProblem, criterionSchema, evidenceFor } from "./criteria.ts";

/**
 * Working diagnoses as data (`ontology/diagnoses.json`): a disease is named only when the tracked
 * CMAS state meets its explicit criteria; otherwise there is no working diagnosis, and the doctor
 * says so. Whatever backend filled the state, the same rule decides, so the closing and the clinical
 * note never offer a disease (or a test) the history does not support.
 */

const diagnosisSchema = z.strictObject({
  disease: z.string().min(1),
  /** Tests proposed to confirm it (offered only with the diagnosis). */
  tests: z.array(z.string().min(1)),
  criteria: criterionSchema,
  /** Values (any slot) whose presence ranks candidates that all meet their criteria. */
  evidence: z.array(z.string().min(1)).min(1),
  /** A state whose working impression this diagnosis must be. */
  example: dialogueStateSchema,
});

const diagnosesFileSchema = z.strictObject({
  name: z.literal("diagnoses"),
  version: z.string(),
  description: z.string(),
  diagnoses: z.array(diagnosisSchema).min(1),
});

export type DiagnosisDefinition = z.infer<typeof diagnosisSchema>;

/** A diagnosis the history supports, with the findings that met its criteria. */
export interface WorkingImpression {
  readonly disease: string;
  readonly tests: readonly string[];
  /** `status slot: value` of the findings that met the criteria. */
  readonly evidence: readonly string[];
}

function fail(message: string): never {
  throw new Error(`ontology/diagnoses.json: ${message}`);
}

/** Positive (or available) values of every slot. */
function positiveValues(state: DialogueState): Set<string> {
  const values = new Set<string>();
  for (const [slot, entries] of Object.entries(state)) {
    const status = splitPrefixedSlot(slot)?.status;
    if (status !== "positive" && status !== "avail") continue;
    for (const entry of entries) if (typeof entry.value === "string") values.add(entry.value);
  }
  return values;
}

export class DiagnosisRules {
  constructor(readonly diagnoses: readonly DiagnosisDefinition[]) {}

  /** Every candidate whose criteria the state meets, best first (most evidence present; ties keep file order). */
  candidates(state: DialogueState): WorkingImpression[] {
    const present = positiveValues(state);
    const met = this.diagnoses.flatMap((diagnosis, order) => {
      const evidence = evidenceFor(diagnosis.criteria, state);
      if (evidence === null) return [];
      const score = diagnosis.evidence.filter((value) => present.has(value)).length;
      return [{ impression: { disease: diagnosis.disease, tests: diagnosis.tests, evidence }, score, order }];
    });
    met.sort((a, b) => b.score - a.score || a.order - b.order);
    return met.map((candidate) => candidate.impression);
  }

  /** The working diagnosis the state supports, or null: then the doctor names none. */
  workingImpression(state: DialogueState): WorkingImpression | null {
    return this.candidates(state)[0] ?? null;
  }

  /** Whether the state meets the criteria of a disease (false for a disease the data does not know). */
  supports(state: DialogueState, disease: string): boolean {
    const definition = this.diagnoses.find((diagnosis) => diagnosis.disease === disease.toLowerCase());
    return definition !== undefined && evidenceFor(definition.criteria, state) !== null;
  }
}

/** Validates a diagnoses file; every example must have its own diagnosis as working impression. */
export function compileDiagnoses(json: unknown): DiagnosisRules {
  const parsed = diagnosesFileSchema.safeParse(json);
  if (!parsed.success) fail(describeIssues(parsed.error));
  const seen = new Set<string>();
  for (const diagnosis of parsed.data.diagnoses) {
    if (seen.has(diagnosis.disease)) fail(`duplicate disease '${diagnosis.disease}'`);
    seen.add(diagnosis.disease);
    const problem = criterionProblem(diagnosis.criteria);
    if (problem) fail(`'${diagnosis.disease}': ${problem}`);
  }
  const rules = new DiagnosisRules(parsed.data.diagnoses);
  for (const diagnosis of rules.diagnoses) {
    const named = rules.workingImpression(diagnosis.example)?.disease ?? "none";
    if (named !== diagnosis.disease) fail(`'${diagnosis.disease}': its example's working impression is ${named}`);
  }
  return rules;
}

let cached: DiagnosisRules | undefined;

/** The bundled diagnoses, read and validated once. */
export function loadDiagnoses(): DiagnosisRules {
  cached ??= compileDiagnoses(JSON.parse(readFileSync(new URL("../../ontology/diagnoses.json", import.meta.url), "utf8")));
  return cached;
}
