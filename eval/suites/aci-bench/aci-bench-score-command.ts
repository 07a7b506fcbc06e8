import { extname } from "node:path";
import { AnamnesisError } from "../../../src/foundation/errors.ts";
import {
  ACI_BENCH_SPLIT_FILES,
  loadAciBench,
  type AciBenchDataset,
  type AciBenchSplit,
} from "../../../src/data/aci-bench.ts";
import {
  alignOfficialPredictions,
  readOfficialPredictions,
  type OfficialPredictions,
} from "../../../src/data/aci-bench-predictions.ts";
import { inPredictionsFile, NOTE_LINES, readLinesOf } from "../../shared/predictions-file.ts";
import type { ScoreCommand, ScoreInput } from "../../shared/suite.ts";
import { formatTable } from "../../shared/terminal-table.ts";
import { ACI_SPLIT_NAMES } from "./aci-bench-data.ts";
import { percent } from "./aci-bench-report.ts";
import { scoreAciBench, scoreAciBenchLines, type AciBenchScores } from "./aci-bench-scores.ts";

/**
 * `anamnesis score aci-bench`: the official predictions CSV (the repository's own format, a `note`
 * column with one row per gold row) against the gold split `--split` names — or that its
 * `encounter_id` column shows —, or our JSONL, whose lines name their encounters.
 */

/** Whether a predictions path is the official CSV (by its extension) rather than JSONL. */
function isCsv(path: string): boolean {
  return extname(path).toLowerCase() === ".csv";
}

/** The split a CSV predicts: `--split`, else the split whose encounters its encounter_id column lists in order. */
function splitOfCsv(dataset: AciBenchDataset, file: OfficialPredictions, split: string | undefined): AciBenchSplit {
  if (split !== undefined) {
    if (!(split in ACI_BENCH_SPLIT_FILES))
      throw new AnamnesisError("UNKNOWN_SPLIT", `--split must be one of ${ACI_SPLIT_NAMES} (got '${split}')`);
    return split as AciBenchSplit;
  }
  const ids = file.encounterIds?.join(",");
  const found = (Object.keys(ACI_BENCH_SPLIT_FILES) as AciBenchSplit[]).find(
    (candidate) => dataset.splits[candidate].map((encounter) => encounter.id).join(",") === ids,
  );
  if (!found)
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `${file.path}: give --split (${ACI_SPLIT_NAMES}): the file ${file.encounterIds ? "lists no split's encounters in order" : "has no encounter_id column"}`,
    );
  return found;
}

/** Scores a predictions file, CSV or JSONL, against the data (`--data`, else the bundled copy). */
export function runAciBenchScore({ predictions, data, split }: ScoreInput): AciBenchScores {
  const dataset = loadAciBench(data);
  if (!isCsv(predictions)) {
    if (split !== undefined)
      throw new AnamnesisError(
        "INVALID_ARGUMENT",
        "--split is for the official predictions CSV; JSONL lines name their encounters",
      );
    const lines = readLinesOf(predictions, NOTE_LINES);
    return scoreAciBenchLines(dataset, lines);
  }
  const file = readOfficialPredictions(predictions);
  const gold = splitOfCsv(dataset, file, split);
  const notes = alignOfficialPredictions(file, dataset.splits[gold], gold);
  return scoreAciBench(dataset, gold, dataset.splits[gold], notes);
}

/** The cohorts `score` prints: ALL, each dataset, each division (the results JSON's other cohorts are in --json). */
function printedCohorts(scores: AciBenchScores): string[] {
  return Object.keys(scores.rouge).filter(
    (cohort) => cohort === "ALL" || cohort.startsWith("dataset-") || cohort.startsWith("division-"),
  );
}

/** What `anamnesis score aci-bench` prints without --json. */
function printScores(scores: AciBenchScores): string {
  const rows = printedCohorts(scores).map((cohort) => {
    const rouge = scores.rouge[cohort]!;
    return [cohort, percent(rouge.rouge1), percent(rouge.rouge2), percent(rouge.rougeLsum), percent(rouge.rougeL)];
  });
  const table = formatTable(["cohort", "ROUGE-1", "ROUGE-2", "ROUGE-L (Lsum)", "ROUGE-L (sentence)"], rows);
  const subset =
    scores.notes < scores.split_notes
      ? ` — ${scores.notes} of its ${scores.split_notes} notes, not comparable with the paper`
      : "";
  return `aci-bench ${scores.split} (${scores.notes} notes${subset}), scored as evaluate_fullnote.py (x100; the paper's ROUGE-L is Lsum)\n${table}\n(${scores.unavailable}; --json gives every cohort of the official results file)\n`;
}

/** The aci-bench suite's score subcommand. */
export const ACI_BENCH_SCORE_COMMAND: ScoreCommand<AciBenchScores> = {
  description:
    "ACI-Bench as its official evaluate_fullnote.py: ROUGE-1/2/L/Lsum per note and per division, means over all notes, per dataset and per division.",
  predictionsHelp:
    "the official predictions CSV (a 'note' column, one row per gold row in the gold order), or JSONL, one line per visit: {id: encounter id, prediction: note}",
  splitHelp: `with a CSV, the gold split it predicts: ${ACI_SPLIT_NAMES} (default: the split its encounter_id column lists)`,
  judged: false,
  run: async (input) => inPredictionsFile(input.predictions, () => runAciBenchScore(input)),
  print: printScores,
};
