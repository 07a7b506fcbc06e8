import { splitPrefixedSlot } from "../cmas/ontology.ts";
import { dialogueStateSchema, describeIssues, type DialogueState } from "../cmas/schemas.ts";
import { loadOntologyFile, parseOntologyFile, type OntologyFile } from "../ontology/ontology-files.ts";
import { criterionProblem, evidenceFor, type Criterion } from "./criteria.ts";

/**
 * Working diagnoses as data (`ontology/diagnoses.json`): a disease is named only when the tracked
 * CMAS state has its required features and none of its excluding ones; otherwise there is no
 * working diagnosis, and the doctor says so. Whatever backend filled the state, the same rule decides, so the closing and the clinical
 * note never offer a disease (or a test) the history does not support.
 */

export type DiagnosisDefinition = OntologyFile<"diagnoses.json">["diagnoses"][number];

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

/** A diagnosis's criteria as one criterion: its required features, and not its excluding ones. */
export function diagnosisCriterion(diagnosis: DiagnosisDefinition): Criterion {
  return { all: [diagnosis.required, { not: diagnosis.excluding }] };
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

/** The working diagnoses as compiled data: which of them a state's history supports, best first. */
export class DiagnosisRules {
  constructor(readonly diagnoses: readonly DiagnosisDefinition[]) {}

  /** Every candidate whose criteria the state meets, best first (most evidence present; ties keep file order). */
  candidates(state: DialogueState): WorkingImpression[] {
    const present = positiveValues(state);
    const met = this.diagnoses.flatMap((diagnosis, order) => {
      const evidence = evidenceFor(diagnosisCriterion(diagnosis), state);
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
    return definition !== undefined && evidenceFor(diagnosisCriterion(definition), state) !== null;
  }
}

function checkDefinition(diagnosis: DiagnosisDefinition): void {
  for (const [part, criterion] of [
    ["required", diagnosis.required],
    ["excluding", diagnosis.excluding],
  ] as const) {
    const problem = criterionProblem(criterion);
    if (problem) fail(`'${diagnosis.disease}': ${part}: ${problem}`);
  }
  const histories = [diagnosis.example, ...diagnosis.negative_examples.map((negative) => negative.history)];
  for (const [index, history] of histories.entries()) {
    const parsed = dialogueStateSchema.safeParse(history);
    const where = index === 0 ? "example" : `negative example ${index}`;
    if (!parsed.success) fail(`'${diagnosis.disease}': ${where}: ${describeIssues(parsed.error)}`);
  }
}

/**
 * Checks a validated diagnoses file against the CMAS ontology: every example must have its own
 * diagnosis as working impression, and no negative example may name it.
 */
export function compileDiagnoses(file: OntologyFile<"diagnoses.json">): DiagnosisRules {
  const seen = new Set<string>();
  for (const diagnosis of file.diagnoses) {
    if (seen.has(diagnosis.disease)) fail(`duplicate disease '${diagnosis.disease}'`);
    seen.add(diagnosis.disease);
    checkDefinition(diagnosis);
  }
  const rules = new DiagnosisRules(file.diagnoses);
  for (const diagnosis of rules.diagnoses) {
    const named = rules.workingImpression(diagnosis.example)?.disease ?? "none";
    if (named !== diagnosis.disease) fail(`'${diagnosis.disease}': its example's working impression is ${named}`);
    for (const negative of diagnosis.negative_examples)
      if (rules.workingImpression(negative.history)?.disease === diagnosis.disease)
        fail(`'${diagnosis.disease}': named for its negative example '${negative.why}'`);
  }
  return rules;
}

/** Parses, validates and checks the text of a diagnoses file (for tests of edits). */
export function parseDiagnoses(text: string): DiagnosisRules {
  return compileDiagnoses(parseOntologyFile("diagnoses.json", text));
}

let cached: DiagnosisRules | undefined;

/** The bundled diagnoses, read and checked once. */
export function loadDiagnoses(): DiagnosisRules {
  cached ??= compileDiagnoses(loadOntologyFile("diagnoses.json"));
  return cached;
}
