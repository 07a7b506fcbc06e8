import { readFileSync } from "node:fs";
import * as z from "zod";
import { loadRedFlags } from "../clinical/red-flags.ts";
import { dialogueStateSchema, describeIssues } from "../cmas/schemas.ts";
import { getDialogue, type MeditodDataset } from "../data/meditod.ts";
import { AnamnesisError } from "../foundation/errors.ts";
import { BUNDLED } from "../foundation/package-paths.ts";
import { templateFor } from "../language/history-plan.ts";
import { loadHistoryPlan } from "../language/history-plan.ts";
import { checkScript, layScriptSchema, type LayScript } from "./lay-script.ts";
import { caseFromDialogue, type PatientCase } from "./patient-simulator.ts";

/**
 * The simulated-patient cases self-play runs on: our own library (`data/cases/library.json`) and the
 * MediTOD training and validation dialogues (their gold final state; never the test split). Each case
 * says what a good history of it ends with. A library case states it by hand, as a clinician judges the
 * history — its expected diagnosis or that none is supportable from a history alone, and its red flags —
 * never as our rules compute them from its profile, and carries the lay script its patient speaks from. A
 * MediTOD case takes the diagnosis its doctor named and the red flags our rules find in its profile, and
 * its patient speaks from the profile.
 */

const SYSTEMS = [
  "cardiovascular",
  "respiratory",
  "gastrointestinal",
  "genitourinary",
  "neurological",
  "musculoskeletal",
  "dermatological",
  "psychiatric",
  "general",
] as const;

const caseSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  system: z.enum(SYSTEMS),
  title: z.string().min(1),
  expected_diagnosis: z.string().trim().min(1).nullable(),
  also_accepted: z.array(z.string().trim().min(1)).optional(),
  why: z.string().trim().min(1).optional(),
  why_none: z.string().trim().min(1).optional(),
  red_flags: z.array(z.string()),
  profile: dialogueStateSchema,
  script: layScriptSchema,
});
type CaseEntry = z.infer<typeof caseSchema>;

/** What a case's own fields must agree on: a reason for its expected answer, known red flags, a script that fits its profile. */
function checkCase(entry: CaseEntry, context: z.RefinementCtx, flagIds: ReadonlySet<string>): void {
  const issue = (path: Array<string | number>, message: string) => context.addIssue({ code: "custom", path, message });
  if (entry.expected_diagnosis === null) {
    if (entry.why_none === undefined)
      issue(["why_none"], "a case that expects no diagnosis says why none is supportable");
    if (entry.why !== undefined || entry.also_accepted !== undefined)
      issue(["expected_diagnosis"], "why and also_accepted go with an expected diagnosis; this case expects none");
  } else {
    if (entry.why === undefined) issue(["why"], "a case that expects a diagnosis says why");
    if (entry.why_none !== undefined) issue(["why_none"], "why_none goes with an expected diagnosis of null");
  }
  for (const [index, id] of entry.red_flags.entries())
    if (!flagIds.has(id)) issue(["red_flags", index], `no red flag '${id}' in ontology/red-flags.json`);
  for (const problem of checkScript(entry.script, entry.profile)) issue(problem.path, problem.message);
}

function librarySchema(flagIds: ReadonlySet<string>) {
  return z.strictObject({
    name: z.literal("case-library"),
    version: z.string(),
    description: z.string(),
    cases: z.array(caseSchema.superRefine((entry, context) => checkCase(entry, context, flagIds))).min(1),
  });
}

/** What a good history of a case ends with. */
export interface ExpectedClosing {
  /** The working diagnosis a clinician gives at the end of this history; null when none is supportable from a history alone. */
  readonly diagnosis: string | null;
  /** Other names of the same diagnosis (spellings, abbreviations, synonyms). */
  readonly alsoAccepted: readonly string[];
  /** Why that diagnosis, or why none. */
  readonly why: string;
}

/** A case with what a good history of it ends with. */
export interface SelfPlayCase extends PatientCase {
  readonly source: "library" | "meditod";
  readonly system: string;
  readonly expected: ExpectedClosing;
  /** Ids of the red flags the case carries. */
  readonly redFlags: readonly string[];
  /** The lay script its patient speaks from; MediTOD cases have none (their patient speaks from the profile). */
  readonly script?: LayScript;
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new AnamnesisError("INVALID_JSON", `case library ${path}: ${(error as Error).message}`);
  }
}

/** The id the file gives the case at an index, if it gives one. */
function caseIdAt(json: unknown, index: number): string | undefined {
  const cases = (json as { cases?: unknown } | null)?.cases;
  const id = Array.isArray(cases) ? (cases[index] as { id?: unknown } | null)?.id : undefined;
  return typeof id === "string" ? id : undefined;
}

/** The problems of a library file, each naming the case it is in by its id (a path's index alone is hard to find in a long file). */
function describeLibraryIssues(error: z.ZodError, json: unknown): string {
  const named = error.issues.map((issue) => {
    const index = issue.path[0] === "cases" && typeof issue.path[1] === "number" ? issue.path[1] : undefined;
    const id = index === undefined ? undefined : caseIdAt(json, index);
    return id === undefined ? issue : { ...issue, message: `${issue.message} (case '${id}')` };
  });
  return describeIssues(new z.ZodError(named));
}

/** Our case library, validated (a malformed case fails with its path and its id). */
export function loadCaseLibrary(path: string = BUNDLED.caseLibrary): SelfPlayCase[] {
  const flagIds = new Set(loadRedFlags().flags.map((flag) => flag.id));
  const json = readJson(path);
  const parsed = librarySchema(flagIds).safeParse(json);
  if (!parsed.success)
    throw new AnamnesisError("INVALID_DATA", `case library ${path}: ${describeLibraryIssues(parsed.error, json)}`);
  return parsed.data.cases.map((entry) => ({
    id: entry.id,
    title: entry.title,
    profile: entry.profile,
    source: "library",
    system: entry.system,
    expected: {
      diagnosis: entry.expected_diagnosis,
      alsoAccepted: entry.also_accepted ?? [],
      why: entry.why ?? entry.why_none ?? "",
    },
    redFlags: entry.red_flags,
    script: entry.script,
  }));
}

/** The disease a MediTOD doctor named last, if any. */
function goldDiagnosis(dataset: MeditodDataset, id: string): string | null {
  const named = getDialogue(dataset, id).utterances.flatMap((utterance) =>
    utterance.speaker === "doctor"
      ? utterance.actions.flatMap((action) =>
          Array.isArray(action.disease) ? action.disease.map((entry) => entry.value) : [],
        )
      : [],
  );
  return named.filter((value): value is string => typeof value === "string").at(-1) ?? null;
}

/** The train and valid dialogues of a MediTOD directory as cases (the test split stays unseen). */
export function meditodCases(dataset: MeditodDataset): SelfPlayCase[] {
  const rules = loadRedFlags();
  const plan = loadHistoryPlan();
  return [...(dataset.splits.train ?? []), ...(dataset.splits.valid ?? [])].map((id) => {
    const patientCase = caseFromDialogue(dataset, id);
    const complaint = (patientCase.profile.positive_symptom ?? [])[0];
    const system = complaint
      ? templateFor(plan, String(complaint.value), [complaint.location ?? []].flat()).area
      : "general";
    const diagnosis = goldDiagnosis(dataset, id);
    return {
      ...patientCase,
      source: "meditod",
      system,
      expected: {
        diagnosis,
        alsoAccepted: [],
        why: diagnosis === null ? "the MediTOD doctor named no diagnosis" : "the diagnosis the MediTOD doctor named",
      },
      redFlags: rules.evaluate(patientCase.profile).map((flag) => flag.id),
    };
  });
}
