import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import * as z from "zod";
import { AnamnesisError } from "../foundation/errors.ts";
import { BUNDLED } from "../foundation/package-paths.ts";
import { describeIssues } from "../cmas/schemas.ts";
import { inputName, isStandardInput } from "./input-file.ts";
import { streamJsonLines } from "./json-lines.ts";

/**
 * AgentClinic's OSCE-style cases built from MedQA (SamuelSchmidgall/AgentClinic, MIT):
 * `agentclinic_medqa_extended.jsonl`, one case a line, `{"OSCE_Examination": {Objective_for_Doctor,
 * Patient_Actor, Physical_Examination_Findings, Test_Results, Correct_Diagnosis}}`. The bundled
 * `data/agentclinic/` holds its first 150 lines (`agentclinic_medqa_extended.part1.jsonl`); the
 * upstream file (213 cases) or the older `agentclinic_medqa.jsonl` (107) is read whole with `--data`.
 * A case has no id of its own: AgentClinic names a scenario by its 0-based place in the file, and so
 * do we.
 */

export const BUNDLED_AGENTCLINIC_DIR = BUNDLED.agentclinic;

/** The file names tried in a directory: the extended MedQA file, its parts, then the original MedQA file. */
const EXTENDED_FILE = "agentclinic_medqa_extended.jsonl";
const EXTENDED_PARTS = /^agentclinic_medqa_extended\.part\d+\.jsonl$/;
const ORIGINAL_FILE = "agentclinic_medqa.jsonl";

/** A field of the patient's or the examiner's sheet: text, a list, or named sub-fields (the upstream files use all three). */
export type SheetValue = string | number | boolean | null | readonly SheetValue[] | { readonly [key: string]: SheetValue };
const sheetValue: z.ZodType<SheetValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(sheetValue), z.record(z.string(), sheetValue)]),
);
const sheet = z.record(z.string(), sheetValue);

/** One AgentClinic line: the OSCE examination of one patient. */
export const agentClinicCaseSchema = z.looseObject({
  OSCE_Examination: z.looseObject({
    Objective_for_Doctor: z.string(),
    Patient_Actor: sheet,
    Physical_Examination_Findings: sheet,
    Test_Results: sheet,
    Correct_Diagnosis: z.string().min(1),
  }),
});

/** An AgentClinic case with the id it has in its file. */
export interface AgentClinicCase {
  /** Its 0-based place in the file (AgentClinic's scenario id). */
  readonly id: string;
  readonly objective: string;
  readonly patient: Readonly<Record<string, SheetValue>>;
  readonly examination: Readonly<Record<string, SheetValue>>;
  readonly tests: Readonly<Record<string, SheetValue>>;
  readonly diagnosis: string;
}

/** AgentClinic's MedQA cases, and where they were read from. */
export interface AgentClinicDataset {
  readonly kind: "agentclinic";
  readonly dir: string;
  readonly files: readonly string[];
  readonly cases: readonly AgentClinicCase[];
}

/**
 * Reads one AgentClinic JSON Lines file; a line that is not JSON or not an OSCE examination stops the
 * read with one error naming the file and the line. `first` is the id of its first case (the parts of
 * one file continue each other's numbering).
 */
export function readAgentClinicFile(path: string, first = 0): AgentClinicCase[] {
  const cases: AgentClinicCase[] = [];
  streamJsonLines(path, "AgentClinic file", (value, line) => {
    const parsed = agentClinicCaseSchema.safeParse(value);
    if (!parsed.success)
      throw new AnamnesisError("INVALID_DATA", `${inputName(path)}:${line}: not an AgentClinic case: ${describeIssues(parsed.error)}`);
    const exam = parsed.data.OSCE_Examination;
    cases.push({
      id: String(first + cases.length),
      objective: exam.Objective_for_Doctor,
      patient: exam.Patient_Actor,
      examination: exam.Physical_Examination_Findings,
      tests: exam.Test_Results,
      diagnosis: exam.Correct_Diagnosis.trim(),
    });
  });
  return cases;
}

/** The files to read in a directory: the extended file whole, else its parts in order, else the original file. */
function filesIn(dir: string): string[] {
  if (existsSync(join(dir, EXTENDED_FILE))) return [join(dir, EXTENDED_FILE)];
  const parts = readdirSync(dir)
    .filter((name) => EXTENDED_PARTS.test(name))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  if (parts.length > 0) return parts.map((name) => join(dir, name));
  if (existsSync(join(dir, ORIGINAL_FILE))) return [join(dir, ORIGINAL_FILE)];
  throw new AnamnesisError("FILE_NOT_FOUND", `${dir} holds no AgentClinic MedQA file (${EXTENDED_FILE} or ${ORIGINAL_FILE})`);
}

const cache = new Map<string, AgentClinicDataset>();

/**
 * Loads AgentClinic's MedQA cases from a directory (an AgentClinic checkout; default: the bundled copy)
 * or from one JSON Lines file. Throws one error naming the file and line of anything malformed.
 */
export function loadAgentClinic(path: string = BUNDLED_AGENTCLINIC_DIR): AgentClinicDataset {
  if (isStandardInput(path))
    throw new AnamnesisError("INVALID_ARGUMENT", "AgentClinic data is read from a directory or a file, not standard input");
  const absolute = resolve(path);
  const cached = cache.get(absolute);
  if (cached) return cached;
  if (!existsSync(absolute)) throw new AnamnesisError("FILE_NOT_FOUND", `AgentClinic data not found: ${absolute}`);
  const files = statSync(absolute).isDirectory() ? filesIn(absolute) : [absolute];
  const cases: AgentClinicCase[] = [];
  for (const file of files) cases.push(...readAgentClinicFile(file, cases.length));
  const dataset: AgentClinicDataset = { kind: "agentclinic", dir: absolute, files, cases };
  cache.set(absolute, dataset);
  return dataset;
}
