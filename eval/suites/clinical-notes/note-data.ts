import { AnamnesisError } from "../../../src/foundation/errors.ts";
import { loadMedtext } from "../../../src/data/medtext.ts";
import { loadMtsDialog } from "../../../src/data/mts-dialog.ts";
import { noteSplit, type NoteDataset, type NoteTask } from "../../../src/data/note-dataset.ts";
import { isNoteDataset, type BenchDataset, type DatasetSource } from "../../shared/bench-dataset.ts";
import type { NoteRunData } from "../../shared/bench-results.ts";

/** The clinical-note datasets of lm-evaluation-harness's tasks: MTS-Dialog and MedText. */

/** The dataset as a note dataset of the task, or an error: a note suite was given other data. */
export function noteDatasetOf(dataset: BenchDataset, task: NoteTask): NoteDataset {
  if (!isNoteDataset(dataset) || dataset.task !== task)
    throw new AnamnesisError("INVALID_ARGUMENT", `this suite needs the ${task} data`);
  return dataset;
}

/** What results.json and the report say about a note run's data: lm-eval's numbers compare only on the whole of its split. */
export function describeNoteData(dataset: NoteDataset, split: string, subset: boolean): NoteRunData {
  const documents = noteSplit(dataset, split).length;
  const full = split === "all" && !subset;
  return {
    ...dataset.info,
    comparable_with_lm_eval: dataset.info.comparable_with_lm_eval && full,
    split,
    documents,
  };
}

/** A note dataset source: loading, splits and caveats are the same for both; their names and help differ. */
function noteSource(
  task: NoteTask,
  source: Pick<DatasetSource, "id" | "load" | "splitHelp" | "dataHelp" | "scoreDataOption">,
): DatasetSource {
  return {
    ...source,
    defaultSplit: (dataset) => noteDatasetOf(dataset, task).defaultSplit,
    checkSplit: (dataset, split) => {
      noteSplit(noteDatasetOf(dataset, task), split);
    },
    namedInRunFolder: true,
    describeRun: (dataset, split, subset) => describeNoteData(noteDatasetOf(dataset, task), split, subset),
  };
}

/** MTS-Dialog (the bundled CSVs, or a file in the har1 layout). */
export const MTS_DIALOG_DATA = noteSource("mts_dialog", {
  id: "mts-dialog",
  load: (path) => loadMtsDialog(path),
  splitHelp: "MTS-Dialog: valid (default), train, test1, test2, or for a --data file all (default), train, valid",
  dataHelp: "MTS-Dialog file in the har1 layout (default: the bundled CSVs)",
  scoreDataOption: { flags: "--data <path>", help: "MTS-Dialog file in the har1 layout; default: the bundled CSVs" },
});

/** MedText (not bundled: a CSV or JSONL file the user gives). */
export const MEDTEXT_DATA = noteSource("medtext", {
  id: "medtext",
  load: (path) => loadMedtext(path),
  splitHelp: "MedText: all",
  dataHelp: "MedText CSV/JSONL file (required)",
  scoreDataOption: { flags: "--data <path>", help: "MedText CSV/JSONL file (required: not bundled)" },
});
