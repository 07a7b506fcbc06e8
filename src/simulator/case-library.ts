import { readFileSync } from "node:fs";
import { z } from "zod";
import { loadRedFlags } from "../clinical/red-flags.ts";
import { dialogueStateSchema, describeIssues } from "../cmas/schemas.ts";
import { getDialogue, type MeditodDataset } from "../data/meditod.ts";
import { AnamnesisError } from "../foundation/errors.ts";
import { BUNDLED } from "../foundation/package-paths.ts";
import { templateFor } from "../language/history-plan.ts";
import { loadHistoryPlan } from "../language/history-plan.ts";
import { caseFromDialogue, type PatientCase } from "./patient-simulator.ts";

/**
 * The simulated-patient cases self-play runs on: our own library (`data/cases/library.json`, CMAS
 * profiles with a one-line presentation across the body systems) and the MediTOD training and
 * validation dialogues (their gold final state; never the test split). Each case says what a good
 * history should end with: the working diagnosis its history supports (or none) and its red flags.
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

const librarySchema = z.strictObject({
  name: z.literal("case-library"),
  version: z.string(),
  description: z.string(),
  cases: z
    .array(
      z.strictObject({
        id: z.string().regex(/^[a-z0-9-]+$/),
        system: z.enum(SYSTEMS),
        title: z.string().min(1),
        diagnosis: z.string().nullable(),
        red_flags: z.array(z.string()),
        profile: dialogueStateSchema,
      }),
    )
    .min(1),
});

/** A case with what a good history of it ends with. */
export interface SelfPlayCase extends PatientCase {
  readonly source: "library" | "meditod";
  readonly system: string;
  /** The working diagnosis its history supports; null when none is (the honest closing names none). */
  readonly diagnosis: string | null;
  /** Ids of the red flags its profile carries. */
  readonly redFlags: readonly string[];
}

/** Our case library, validated (a malformed case fails with its path). */
export function loadCaseLibrary(path: string = BUNDLED.caseLibrary): SelfPlayCase[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new AnamnesisError("INVALID_JSON", `case library ${path}: ${(error as Error).message}`);
  }
  const parsed = librarySchema.safeParse(json);
  if (!parsed.success)
    throw new AnamnesisError("INVALID_DATA", `case library ${path}: ${describeIssues(parsed.error)}`);
  return parsed.data.cases.map((entry) => ({
    id: entry.id,
    title: entry.title,
    profile: entry.profile,
    source: "library",
    system: entry.system,
    diagnosis: entry.diagnosis,
    redFlags: entry.red_flags,
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
    return {
      ...patientCase,
      source: "meditod",
      system,
      diagnosis: goldDiagnosis(dataset, id),
      redFlags: rules.evaluate(patientCase.profile).map((flag) => flag.id),
    };
  });
}
