import type { MeditodDataset } from "../../src/data/meditod.ts";
import type { NoteDataset } from "../../src/data/note-dataset.ts";
import type { ConsultDataset } from "../../src/simulator/consultation/consult-dataset.ts";
import type { NoteRunData } from "./bench-results.ts";

/** The data one run reads: MediTOD's dialogues, a clinical-note dataset's documents, or consultation cases. */
export type BenchDataset = MeditodDataset | NoteDataset | ConsultDataset;

/** Whether the data is a clinical-note dataset (MTS-Dialog, MedText) rather than MediTOD. */
export function isNoteDataset(dataset: BenchDataset): dataset is NoteDataset {
  return "task" in dataset;
}

/** Whether the data is consultation cases (MediQ, AgentClinic, our library). */
export function isConsultDataset(dataset: BenchDataset): dataset is ConsultDataset {
  return "kind" in dataset && dataset.kind === "consult";
}

/**
 * A data set the suites read, declared once by the family that reads it: its name, how it is loaded
 * and split, and how the command line talks about it.
 */
export interface DatasetSource {
  /** The name suites give as their `data` and {@link DatasetSource.load} answers to: `meditod`, `mts-dialog`, `medtext`. */
  readonly id: string;
  /** Loads it from `path` (a directory or a file; `-` is standard input), else the bundled copy. */
  load(path?: string): BenchDataset;
  /** The split a run uses when none is given. */
  defaultSplit(dataset: BenchDataset): string;
  /** Checks that the dataset has the split, with an error listing the ones it has. */
  checkSplit(dataset: BenchDataset, split: string): void;
  /** Its part of `bench --split`'s help: the splits, the default first. */
  readonly splitHelp: string;
  /** Its part of `bench --data`'s help: what the path is and what is read without one. */
  readonly dataHelp: string;
  /** `anamnesis score <suite> --data`: the option and its help. */
  readonly scoreDataOption: { readonly flags: string; readonly help: string };
  /** Whether the default run folder names it (`runs/<backend>-<data>-<split>`); MediTOD, the default data, is not named. */
  readonly namedInRunFolder: boolean;
  /** What results.json says about the data of a run (`subset`: the run left documents out), for data that has caveats. */
  describeRun?(dataset: BenchDataset, split: string, subset: boolean): NoteRunData;
}
