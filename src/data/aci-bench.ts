import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import * as z from "zod";
import { AnamnesisError } from "../foundation/errors.ts";
import { BUNDLED } from "../foundation/package-paths.ts";
import { describeZodIssues } from "../ontology/describe-zod-issues.ts";
import { parseCsvObjects } from "./csv.ts";
import { readInputText } from "./input-file.ts";
import { indexDocuments, type NoteDataset, type NoteDocument } from "./note-dataset.ts";

/**
 * ACI-Bench (wyim/aci-bench, CC BY 4.0): whole doctor–patient visits and the clinician's note of each,
 * split as the MEDIQA-Chat 2023 and MEDIQA-Sum 2023 challenges split them. Each split is two CSV files
 * read whole: the conversations and notes (`dataset`, `encounter_id`, `dialogue`, `note`) and their
 * metadata (`dataset`, `encounter_id`, `id`, `doctor_name`, `patient_gender`, `patient_age`,
 * `patient_firstname`, `patient_familyname`, `cc`, `2nd_complaints`), row for row in the same order —
 * the official scorer joins them by position, and so do we, after checking that they agree.
 */

export const BUNDLED_ACI_BENCH_DIR = BUNDLED.aciBench;

/** Our split names and the challenge's file names. */
export const ACI_BENCH_SPLIT_FILES = {
  train: "train",
  valid: "valid",
  test1: "clinicalnlp_taskB_test1",
  test2: "clinicalnlp_taskC_test2",
  test3: "clef_taskC_test3",
} as const;
export type AciBenchSplit = keyof typeof ACI_BENCH_SPLIT_FILES;

/** A row of a split's conversations file. */
const encounterRowSchema = z.object({
  dataset: z.string().min(1),
  encounter_id: z.string().min(1),
  dialogue: z.string(),
  note: z.string(),
});

/** A row of a split's metadata file: the columns the scorer reads; the others are kept as they are. */
const metadataRowSchema = z.looseObject({
  dataset: z.string(),
  encounter_id: z.string().min(1),
  patient_gender: z.string(),
  cc: z.string(),
  "2nd_complaints": z.string(),
});

/** One visit: the conversation is the document's input, the clinician's note its target. */
export interface AciBenchEncounter extends NoteDocument {
  /** The encounter id, e.g. `D2N128`; unique across the splits. */
  readonly id: string;
  readonly split: AciBenchSplit;
  /** How the visit was recorded, from the metadata file: `virtassist`, `virtscribe` or `aci`. */
  readonly source: string;
  /** The metadata row, every column as written. */
  readonly metadata: Readonly<Record<string, string>>;
}

/** ACI-Bench as a clinical-note dataset: its splits of encounters, by id. */
export interface AciBenchDataset extends NoteDataset {
  readonly task: "aci_bench";
  readonly splits: Readonly<Record<AciBenchSplit, readonly AciBenchEncounter[]>>;
  readonly encounters: ReadonlyMap<string, AciBenchEncounter>;
}

/** The folder holding the challenge CSVs: `dir` itself, its `challenge_data/`, or a checkout's `data/challenge_data/`. */
function challengeDataDir(dir: string): string {
  const candidates = [dir, join(dir, "challenge_data"), join(dir, "data", "challenge_data")];
  const found = candidates.find((candidate) => existsSync(join(candidate, "train.csv")));
  if (!found)
    throw new AnamnesisError(
      "FILE_NOT_FOUND",
      `no ACI-Bench data in ${dir}: expected train.csv there, in challenge_data/ or in data/challenge_data/ (a checkout of wyim/aci-bench)`,
    );
  return found;
}

/** The rows of one CSV file, each checked against its schema; the first bad row is an error naming the file and the record. */
function readRows<T>(path: string, schema: z.ZodType<T>, what: string): T[] {
  const rows = parseCsvObjects(readInputText(path, what), { source: path });
  if (rows.length === 0) throw new AnamnesisError("INVALID_DATA", `${path}: no rows`);
  return rows.map((row, index) => {
    const parsed = schema.safeParse(row);
    if (!parsed.success)
      throw new AnamnesisError("INVALID_DATA", `${path}: record ${index + 1}: ${describeZodIssues(parsed.error)}`);
    return parsed.data;
  });
}

/** One split's encounters: the conversations file joined row by row with its metadata file. */
function readSplit(dir: string, split: AciBenchSplit): AciBenchEncounter[] {
  const stem = join(dir, ACI_BENCH_SPLIT_FILES[split]);
  const encounters = readRows(`${stem}.csv`, encounterRowSchema, "ACI-Bench file");
  const metadata = readRows(`${stem}_metadata.csv`, metadataRowSchema, "ACI-Bench metadata file");
  if (metadata.length !== encounters.length)
    throw new AnamnesisError(
      "INVALID_DATA",
      `${stem}_metadata.csv has ${metadata.length} rows, ${stem}.csv has ${encounters.length}`,
    );
  return encounters.map((row, index) => {
    const meta = metadata[index]!;
    if (meta.encounter_id !== row.encounter_id)
      throw new AnamnesisError(
        "INVALID_DATA",
        `${stem}_metadata.csv: record ${index + 1} is encounter ${meta.encounter_id}, ${stem}.csv has ${row.encounter_id} there`,
      );
    const columns = Object.fromEntries(Object.entries(meta).map(([key, value]) => [key, String(value)]));
    return { id: row.encounter_id, split, input: row.dialogue, target: row.note, source: meta.dataset, metadata: columns };
  });
}

/**
 * Loads ACI-Bench: the bundled copy, or a user's data (a checkout of wyim/aci-bench, its
 * `data/challenge_data/`, or a folder with the same files), every split's files read whole.
 */
export function loadAciBench(path?: string): AciBenchDataset {
  const root = resolve(path ?? BUNDLED_ACI_BENCH_DIR);
  if (!existsSync(root)) throw new AnamnesisError("FILE_NOT_FOUND", `ACI-Bench data not found: ${root}`);
  if (!statSync(root).isDirectory())
    throw new AnamnesisError("INVALID_ARGUMENT", `ACI-Bench --data must be a folder (a checkout of wyim/aci-bench): ${root}`);
  const dir = challengeDataDir(root);
  const splits = Object.fromEntries(
    (Object.keys(ACI_BENCH_SPLIT_FILES) as AciBenchSplit[]).map((split) => [split, readSplit(dir, split)]),
  ) as Record<AciBenchSplit, AciBenchEncounter[]>;
  const documents = indexDocuments(splits) as Map<string, AciBenchEncounter>;
  const bundled = dir === resolve(BUNDLED_ACI_BENCH_DIR, "challenge_data");
  return {
    task: "aci_bench",
    dir,
    info: {
      name: bundled ? "ACI-Bench (bundled wyim/aci-bench, CC BY 4.0)" : "ACI-Bench (wyim/aci-bench layout)",
      source: dir,
      target: "the clinician's visit note",
      comparable_with_lm_eval: false,
      note: "ACI-Bench is scored as its official evaluate_fullnote.py scores it, which lm-evaluation-harness does not run.",
    },
    splits,
    defaultSplit: "valid",
    trainingSplit: "train",
    documents,
    encounters: documents,
  };
}
