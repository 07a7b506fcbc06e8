import { AnamnesisError } from "../../../src/foundation/errors.ts";
import { loadMeditod, SPLITS, type MeditodDataset } from "../../../src/data/meditod.ts";
import { isConsultDataset, isNoteDataset, type BenchDataset, type DatasetSource } from "../../shared/bench-dataset.ts";

/** MediTOD's dialogues (a directory holding dialogs.json and the split files; the bundled public sample by default). */
export const MEDITOD_DATA: DatasetSource = {
  id: "meditod",
  load: (path) => loadMeditod(path),
  defaultSplit: () => "test",
  checkSplit: (_dataset, split) => {
    if (!(SPLITS as readonly string[]).includes(split))
      throw new AnamnesisError("INVALID_ARGUMENT", `--split must be one of ${SPLITS.join(", ")} (got '${split}')`);
  },
  splitHelp: "MediTOD: test (default), valid, train, ood",
  dataHelp: "MediTOD directory (default: the bundled public sample)",
  scoreDataOption: { flags: "--data <dir>", help: "MediTOD directory; default: the bundled public sample" },
  namedInRunFolder: false,
};

/** The dataset as MediTOD's, or an error: a MediTOD suite was given other data. */
export function meditodDataset(dataset: BenchDataset): MeditodDataset {
  if (isNoteDataset(dataset) || isConsultDataset(dataset))
    throw new AnamnesisError("INVALID_ARGUMENT", "the MediTOD suites need the MediTOD data");
  return dataset;
}
