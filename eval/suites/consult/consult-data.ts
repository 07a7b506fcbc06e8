import { AnamnesisError } from "../../../src/foundation/errors.ts";
import {
  consultSplit,
  loadAgentClinicConsultations,
  loadLibraryConsultations,
  loadMediqConsultations,
  type ConsultDataset,
} from "../../../src/simulator/consultation/consult-dataset.ts";
import { isConsultDataset, type BenchDataset, type DatasetSource } from "../../shared/bench-dataset.ts";

/** The consultation suites' data: MediQ's cases, AgentClinic's, our library's. */

/** The dataset as consultation cases, or an error: a consultation suite was given other data. */
export function consultDatasetOf(dataset: BenchDataset): ConsultDataset {
  if (!isConsultDataset(dataset))
    throw new AnamnesisError("INVALID_ARGUMENT", "the consultation suites need consultation cases");
  return dataset;
}

/** A consultation data source: loading and help differ, the splits are checked alike. */
function consultSource(
  source: Pick<DatasetSource, "id" | "load" | "splitHelp" | "dataHelp" | "scoreDataOption">,
  defaultSplit: string,
): DatasetSource {
  return {
    ...source,
    defaultSplit: () => defaultSplit,
    checkSplit: (dataset, split) => {
      consultSplit(consultDatasetOf(dataset), split);
    },
    namedInRunFolder: true,
  };
}

/** MediQ's cases: `icraft` (the 140 iCraft-MD cases, default) and `dev` (the MedQA development cases). */
export const MEDIQ_DATA = consultSource(
  {
    id: "mediq",
    load: (path) => loadMediqConsultations(path),
    splitHelp: "MediQ: icraft (default, the 140 iCraft-MD cases), dev (the MedQA development cases)",
    dataHelp:
      "MediQ's data/ directory or one of its files, read whole (default: the bundled iCraft-MD cases and first 1,000 development cases)",
    scoreDataOption: {
      flags: "--data <path>",
      help: "MediQ's data/ directory or one of its files; default: the bundled cases",
    },
  },
  "icraft",
);

/** AgentClinic's MedQA cases: split `medqa`. */
export const AGENTCLINIC_DATA = consultSource(
  {
    id: "agentclinic",
    load: (path) => loadAgentClinicConsultations(path),
    splitHelp: "AgentClinic: medqa (default)",
    dataHelp:
      "an AgentClinic checkout or its agentclinic_medqa_extended.jsonl, read whole (default: the bundled first 150 cases)",
    scoreDataOption: {
      flags: "--data <path>",
      help: "an AgentClinic checkout or its MedQA JSON Lines file; default: the bundled cases",
    },
  },
  "medqa",
);

/** Our case library: split `library`. */
export const LIBRARY_DATA = consultSource(
  {
    id: "library",
    load: (path) => loadLibraryConsultations(path),
    splitHelp: "our case library: library (default)",
    dataHelp: "a case library file in the form of data/cases/library.json (default: the bundled library)",
    scoreDataOption: {
      flags: "--data <path>",
      help: "a case library file in the form of data/cases/library.json; default: the bundled library",
    },
  },
  "library",
);
