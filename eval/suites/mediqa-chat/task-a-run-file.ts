import { extname } from "node:path";
import { AnamnesisError } from "../../../src/foundation/errors.ts";
import { parseCsvObjects } from "../../../src/data/csv.ts";
import { readInputText } from "../../../src/data/input-file.ts";
import { noteSplit, type NoteDataset } from "../../../src/data/note-dataset.ts";
import { pandasText } from "../../../src/data/pandas-cells.ts";
import { inPredictionsFile, NOTE_LINES, readLinesOf } from "../../shared/predictions-file.ts";
import type { ScoreInput } from "../../shared/suite.ts";
import { majorityHeader, scoreTaskA, scoreTaskALines, type TaskAScores } from "./task-a-scores.ts";

/**
 * `anamnesis score mediqa-chat-a` reads the challenge's own run file as well as our JSONL: a CSV
 * (`taskA_team_run1.csv`) with the columns `TestID` (MTS-Dialog's `ID` of the dialogue), `SystemOutput1`
 * (the section header) and `SystemOutput2` (the section text, not scored here), one row per dialogue of
 * the test set. The gold split is `--split`, by default `test1` (the MEDIQA-Chat 2023 test set; MEDIQA-Sum
 * 2023 used `test2`). Every dialogue of the split must be answered exactly once.
 */

/** The split a run file is scored against when `--split` is not given. */
export const TASK_A_RUN_FILE_SPLIT = "test1";

/** The columns of the challenge's task A run file that scoring reads. */
const RUN_FILE_COLUMNS = ["TestID", "SystemOutput1"] as const;

/** Scores a run file against the gold headers of `split`; a malformed file is one clear error. */
function scoreRunFile(dataset: NoteDataset, path: string, split: string): TaskAScores {
  const gold = noteSplit(dataset, split);
  const rows = parseCsvObjects(readInputText(path, "predictions file"), { source: path });
  const columns = Object.keys(rows[0] ?? {});
  const missing = RUN_FILE_COLUMNS.filter((column) => !columns.includes(column));
  if (missing.length > 0)
    throw new AnamnesisError(
      "INVALID_DATA",
      `${path}: no ${missing.map((column) => `'${column}'`).join(", ")} column (found: ${columns.join(", ") || "no header"}); the task A run file has TestID, SystemOutput1 (the header) and SystemOutput2`,
    );
  if (rows.length !== gold.length)
    throw new AnamnesisError(
      "INVALID_DATA",
      `${path} has ${rows.length} rows; the gold ${split} split has ${gold.length} dialogues (one row per dialogue)`,
    );
  const byId = new Map(gold.map((document) => [document.id, document]));
  const seen = new Set<string>();
  const pairs = rows.map((row, index) => {
    const id = `${split}-${row.TestID!.trim()}`;
    const document = byId.get(id);
    if (!document || seen.has(id))
      throw new AnamnesisError(
        "INVALID_DATA",
        `${path}: row ${index + 1} has TestID '${row.TestID}', ${document ? "answered twice" : `not a dialogue of the ${split} split`}`,
      );
    seen.add(id);
    // Read as pandas would: an empty cell is `nan`, which names no header.
    return { gold: document.header!, predicted: pandasText(row.SystemOutput1!) };
  });
  return scoreTaskA(pairs, split, gold.length, majorityHeader(dataset));
}

/** Scores a predictions file: the challenge's run file (`.csv`) or our JSONL. */
export function runTaskAScore(dataset: NoteDataset, { predictions, split }: ScoreInput): Promise<TaskAScores> {
  return inPredictionsFile(predictions, async () => {
    if (extname(predictions).toLowerCase() === ".csv")
      return scoreRunFile(dataset, predictions, split ?? TASK_A_RUN_FILE_SPLIT);
    if (split !== undefined)
      throw new AnamnesisError(
        "INVALID_ARGUMENT",
        "--split is for the challenge's run file (CSV); JSONL lines name their dialogues",
      );
    return scoreTaskALines(dataset, readLinesOf(predictions, NOTE_LINES));
  });
}
