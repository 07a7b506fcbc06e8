import { AnamnesisError } from "../../foundation/errors.ts";
import { loadAgentClinic } from "../../data/agentclinic.ts";
import { loadMediq, MEDIQ_SPLITS, type MediqSplit } from "../../data/mediq.ts";
import { BUNDLED } from "../../foundation/package-paths.ts";
import { loadCaseLibrary } from "../case-library.ts";
import { agentClinicConsultCase } from "./agentclinic-cases.ts";
import type { ConsultCase } from "./consult-case.ts";
import { libraryConsultCase } from "./library-cases.ts";
import { mediqConsultCase } from "./mediq-cases.ts";

/**
 * The consultation cases a suite runs on, by split: MediQ's (`icraft`, `dev`), AgentClinic's
 * (`medqa`), or our library's (`library`), each read with its loader and turned into consultation
 * cases once.
 */

/** Consultation cases by split, and where they were read from. */
export interface ConsultDataset {
  readonly kind: "consult";
  readonly source: ConsultCase["source"];
  /** The directory or file read (recorded in run.json: a resumed run reads the same). */
  readonly dir: string;
  readonly splits: Readonly<Record<string, readonly ConsultCase[]>>;
  /** The files read, for reports. */
  readonly files: readonly string[];
}

/** The cases of a split; an unknown split is an error listing the dataset's. */
export function consultSplit(dataset: ConsultDataset, split: string): readonly ConsultCase[] {
  const cases = dataset.splits[split];
  if (!cases)
    throw new AnamnesisError(
      "UNKNOWN_SPLIT",
      `the ${dataset.source} data in ${dataset.dir} has no split '${split}' (available: ${Object.keys(dataset.splits).join(", ")})`,
    );
  return cases;
}

/** Each split's cases by id, made when a split is first searched. */
const indexes = new WeakMap<readonly ConsultCase[], ReadonlyMap<string, ConsultCase>>();

/** The case of an id, searched split by split in order (a later split is not made when an earlier one has it). */
export function findConsultCase(dataset: ConsultDataset, id: string): ConsultCase | undefined {
  for (const split of Object.keys(dataset.splits)) {
    const cases = dataset.splits[split]!;
    let index = indexes.get(cases);
    if (!index) {
      index = new Map(cases.map((entry) => [entry.id, entry]));
      indexes.set(cases, index);
    }
    const found = index.get(id);
    if (found) return found;
  }
  return undefined;
}

/** Datasets already turned into consultation cases, by source and directory. */
const converted = new Map<string, ConsultDataset>();

/** A dataset converted once per source and path. */
function once(source: string, path: string | undefined, load: () => ConsultDataset): ConsultDataset {
  const key = `${source}\u0000${path ?? ""}`;
  const known = converted.get(key);
  if (known) return known;
  const dataset = load();
  converted.set(key, dataset);
  return dataset;
}

/** MediQ's cases (`icraft`: iCraft-MD; `dev`: the MedQA development cases) from a directory or one file. */
export function loadMediqConsultations(path?: string): ConsultDataset {
  return once("mediq", path, () => mediqConsultations(path));
}

function mediqConsultations(path?: string): ConsultDataset {
  const mediq = loadMediq(path);
  const splits = lazySplits(
    (Object.keys(MEDIQ_SPLITS) as MediqSplit[]).flatMap((split) => {
      const cases = mediq.splits[split];
      // MediQ numbers each file's cases from 0: the split makes an id unique in the dataset.
      return cases
        ? [[split, () => cases.map((entry) => ({ ...mediqConsultCase(entry), id: `${split}-${entry.id}` }))] as const]
        : [];
    }),
  );
  return { kind: "consult", source: "mediq", dir: mediq.dir, splits, files: Object.values(mediq.files).flat() };
}

/**
 * Splits whose cases are made when first read: a run of iCraft-MD's 140 cases does not turn the 1,000
 * development cases into consultation cases too.
 */
function lazySplits(
  makers: ReadonlyArray<readonly [string, () => readonly ConsultCase[]]>,
): Readonly<Record<string, readonly ConsultCase[]>> {
  const splits: Record<string, readonly ConsultCase[]> = {};
  for (const [split, make] of makers) {
    let made: readonly ConsultCase[] | undefined;
    Object.defineProperty(splits, split, { enumerable: true, get: () => (made ??= make()) });
  }
  return splits;
}

/** AgentClinic's MedQA cases (split `medqa`) from a directory or one file. */
export function loadAgentClinicConsultations(path?: string): ConsultDataset {
  return once("agentclinic", path, () => agentClinicConsultations(path));
}

function agentClinicConsultations(path?: string): ConsultDataset {
  const clinic = loadAgentClinic(path);
  return {
    kind: "consult",
    source: "agentclinic",
    dir: clinic.dir,
    splits: { medqa: clinic.cases.map(agentClinicConsultCase) },
    files: clinic.files,
  };
}

/** Our case library (split `library`): `data/cases/library.json`, or a library file of the same form. */
export function loadLibraryConsultations(path?: string): ConsultDataset {
  return once("library", path, () => {
    const file = path ?? BUNDLED.caseLibrary;
    return {
      kind: "consult",
      source: "library",
      dir: file,
      splits: { library: loadCaseLibrary(file).map(libraryConsultCase) },
      files: [file],
    };
  });
}
