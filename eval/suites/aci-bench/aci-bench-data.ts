import { AnamnesisError } from "../../../src/foundation/errors.ts";
import { ACI_BENCH_SPLIT_FILES, loadAciBench, type AciBenchDataset } from "../../../src/data/aci-bench.ts";
import { noteSplit } from "../../../src/data/note-dataset.ts";
import { isNoteDataset, type BenchDataset, type DatasetSource } from "../../shared/bench-dataset.ts";

/** ACI-Bench's visits: the bundled challenge data, or a user's checkout of wyim/aci-bench. */
export const ACI_BENCH_DATA: DatasetSource = {
  id: "aci-bench",
  load: (path) => loadAciBench(path),
  defaultSplit: (dataset) => aciBenchDataset(dataset).defaultSplit,
  checkSplit: (dataset, split) => {
    noteSplit(aciBenchDataset(dataset), split);
  },
  splitHelp: `ACI-Bench: valid (default), train, test1 (MEDIQA-Chat task B), test2 (task C), test3 (MEDIQA-Sum task C)`,
  dataHelp: "ACI-Bench: a checkout of wyim/aci-bench or its data/challenge_data (default: the bundled copy)",
  scoreDataOption: {
    flags: "--data <dir>",
    help: "a checkout of wyim/aci-bench, or its data/challenge_data folder; default: the bundled copy",
  },
  namedInRunFolder: true,
};

/** The dataset as ACI-Bench's, or an error: an ACI-Bench suite was given other data. */
export function aciBenchDataset(dataset: BenchDataset): AciBenchDataset {
  if (!isNoteDataset(dataset) || dataset.task !== "aci_bench")
    throw new AnamnesisError("INVALID_ARGUMENT", "the aci-bench suite needs the ACI-Bench data");
  return dataset as AciBenchDataset;
}

/** Our split names, for messages. */
export const ACI_SPLIT_NAMES = Object.keys(ACI_BENCH_SPLIT_FILES).join(", ");
