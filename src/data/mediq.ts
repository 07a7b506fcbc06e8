import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import * as z from "zod";
import { AnamnesisError } from "../foundation/errors.ts";
import { BUNDLED } from "../foundation/package-paths.ts";
import { describeIssues } from "../cmas/schemas.ts";
import { inputName, isStandardInput } from "./input-file.ts";
import { streamJsonLines } from "./json-lines.ts";

/**
 * MediQ's cases (stellalisy/mediQ `data/`, CC BY 4.0): JSON Lines, one case a line, each a
 * multiple-choice question about a patient whose story is split into `context` sentences (the first
 * is what the expert is told at the start) and numbered atomic `facts` the patient may reveal.
 * `all_craft_md.jsonl` holds the 140 iCraft-MD dermatology cases, `all_dev_good.jsonl` the 1,272
 * MedQA development cases; the bundled `data/mediq/` holds the first file whole and the first 1,000
 * lines of the second (`all_dev_good.part1.jsonl`). A directory given with `--data` is read the same
 * way, whole.
 */

/** The bundled copy. */
export const BUNDLED_MEDIQ_DIR = BUNDLED.mediq;

/** MediQ's splits as our suites name them, and the upstream file of each. */
export const MEDIQ_SPLITS = {
  icraft: { file: "all_craft_md.jsonl", parts: /^all_craft_md\.part\d+\.jsonl$/ },
  dev: { file: "all_dev_good.jsonl", parts: /^all_dev_good\.part\d+\.jsonl$/ },
} as const;
/** `icraft` (iCraft-MD) or `dev` (MedQA development cases). */
export type MediqSplit = keyof typeof MEDIQ_SPLITS;

/** One MediQ line as upstream writes it; fields the suites do not read are kept as they are. */
export const mediqCaseSchema = z.looseObject({
  id: z.union([z.number().int(), z.string().min(1)]).transform(String),
  question: z.string(),
  /** Upstream accepts a list of sentences or one string split at ". " (mediQ_benchmark.py). */
  context: z.union([z.array(z.string()), z.string()]),
  options: z.record(z.string().regex(/^[A-Z]$/), z.string()).refine((options) => Object.keys(options).length >= 2, {
    message: "at least two options",
  }),
  answer: z.string(),
  answer_idx: z.string().regex(/^[A-Z]$/),
  /** Numbered ("1. …"); three development cases have none (the patient then speaks from `context`). */
  facts: z.array(z.string()),
  /** MediQ's own patient takes a case's initial information from here when it is given. */
  initial_info: z.string().optional(),
  patient: z.looseObject({ age: z.string().optional(), gender: z.string().optional() }).optional(),
});
/** A MediQ case: the question, its options and answer, the context sentences and atomic facts. */
export type MediqCase = z.infer<typeof mediqCaseSchema>;

/** The MediQ cases of each split that was found, and where they were read from. */
export interface MediqDataset {
  readonly kind: "mediq";
  /** The directory (or file) read; recorded in run.json, so a resumed run reads the same. */
  readonly dir: string;
  readonly splits: Readonly<Partial<Record<MediqSplit, readonly MediqCase[]>>>;
  /** The files each split was read from, for reports. */
  readonly files: Readonly<Partial<Record<MediqSplit, readonly string[]>>>;
}

/**
 * Reads one MediQ JSON Lines file. A line that is not JSON, or not a MediQ case (a missing field, an
 * `answer_idx` that is no option), stops the read with one error naming the file and the line; so does
 * an id given twice.
 */
export function readMediqFile(path: string): MediqCase[] {
  const cases: MediqCase[] = [];
  const seen = new Map<string, number>();
  streamJsonLines(path, "MediQ file", (value, line) => {
    const parsed = mediqCaseSchema.safeParse(value);
    if (!parsed.success)
      throw new AnamnesisError("INVALID_DATA", `${inputName(path)}:${line}: not a MediQ case: ${describeIssues(parsed.error)}`);
    const entry = parsed.data;
    if (!(entry.answer_idx in entry.options))
      throw new AnamnesisError("INVALID_DATA", `${inputName(path)}:${line}: answer_idx '${entry.answer_idx}' is not one of the options (${Object.keys(entry.options).join(", ")})`);
    const earlier = seen.get(entry.id);
    if (earlier !== undefined)
      throw new AnamnesisError("INVALID_DATA", `${inputName(path)}:${line}: case id ${entry.id} was already on line ${earlier}`);
    seen.set(entry.id, line);
    cases.push(entry);
  });
  return cases;
}

/** The split a file holds, by its upstream name (`all_craft_md…` is iCraft-MD, `all_dev_good…` the development cases). */
function splitOfFile(name: string): MediqSplit | undefined {
  return (Object.keys(MEDIQ_SPLITS) as MediqSplit[]).find(
    (split) => MEDIQ_SPLITS[split].file === name || MEDIQ_SPLITS[split].parts.test(name),
  );
}

/** A split's files in a directory: the upstream file whole, else its parts in order. */
function filesOfSplit(dir: string, split: MediqSplit): string[] {
  const whole = join(dir, MEDIQ_SPLITS[split].file);
  if (existsSync(whole)) return [whole];
  return readdirSync(dir)
    .filter((name) => MEDIQ_SPLITS[split].parts.test(name))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
    .map((name) => join(dir, name));
}

/** Case ids must be unique across a split's parts too. */
function readSplit(files: readonly string[]): MediqCase[] {
  const cases = files.flatMap((file) => readMediqFile(file));
  const ids = new Set<string>();
  for (const entry of cases) {
    if (ids.has(entry.id))
      throw new AnamnesisError("INVALID_DATA", `MediQ case id ${entry.id} is in more than one of ${files.join(", ")}`);
    ids.add(entry.id);
  }
  return cases;
}

const cache = new Map<string, MediqDataset>();

/**
 * Loads MediQ from a directory holding its files (MediQ's `data/`; default: the bundled copy), or from
 * one file, whose split its upstream name gives. Throws one error naming the file and line of anything
 * malformed, or saying what the path lacks.
 */
export function loadMediq(path: string = BUNDLED_MEDIQ_DIR): MediqDataset {
  if (isStandardInput(path))
    throw new AnamnesisError("INVALID_ARGUMENT", "MediQ data is read from a directory or a file, not standard input");
  const absolute = resolve(path);
  const cached = cache.get(absolute);
  if (cached) return cached;
  if (!existsSync(absolute)) throw new AnamnesisError("FILE_NOT_FOUND", `MediQ data not found: ${absolute}`);
  const files: Partial<Record<MediqSplit, string[]>> = {};
  if (statSync(absolute).isDirectory()) {
    for (const split of Object.keys(MEDIQ_SPLITS) as MediqSplit[]) {
      const found = filesOfSplit(absolute, split);
      if (found.length > 0) files[split] = found;
    }
    if (Object.keys(files).length === 0)
      throw new AnamnesisError("FILE_NOT_FOUND", `${absolute} holds no MediQ file (all_craft_md.jsonl or all_dev_good.jsonl)`);
  } else {
    const split = splitOfFile(basename(absolute));
    if (!split)
      throw new AnamnesisError("INVALID_ARGUMENT", `${absolute}: a MediQ file is named all_craft_md.jsonl (iCraft-MD) or all_dev_good.jsonl (development cases); give its folder or rename it`);
    files[split] = [absolute];
  }
  const splits = Object.fromEntries(Object.entries(files).map(([split, paths]) => [split, readSplit(paths)]));
  const dataset: MediqDataset = { kind: "mediq", dir: absolute, splits, files };
  cache.set(absolute, dataset);
  return dataset;
}
