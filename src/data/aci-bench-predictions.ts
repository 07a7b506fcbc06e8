import { AnamnesisError } from "../foundation/errors.ts";
import { parseCsvObjects } from "./csv.ts";
import { readInputText } from "./input-file.ts";
import { pandasText } from "./pandas-cells.ts";
import type { AciBenchEncounter } from "./aci-bench.ts";

/**
 * ACI-Bench's official predictions file, as `evaluate_fullnote.py` reads it: a CSV whose `note` column
 * holds one predicted note per gold row, in the gold file's order (the repository's baseline outputs
 * keep the gold CSV's other columns too). The script reads it with pandas and `str()`s each note, so a
 * cell pandas takes for missing (empty, `NA`, `None`, …) is scored as the text `nan`.
 */

/** The notes of a predictions CSV, and its `encounter_id` column when it has one. */
export interface OfficialPredictions {
  readonly path: string;
  readonly notes: readonly string[];
  readonly encounterIds: readonly string[] | null;
}

/** Reads a predictions CSV; a missing file, a malformed CSV or one without a `note` column is one clear error. */
export function readOfficialPredictions(path: string): OfficialPredictions {
  const rows = parseCsvObjects(readInputText(path, "predictions file"), { source: path });
  const columns = Object.keys(rows[0] ?? {});
  if (!columns.includes("note"))
    throw new AnamnesisError(
      "INVALID_DATA",
      `${path}: no 'note' column (found: ${columns.join(", ") || "no header"}); the official predictions CSV has one predicted note per gold row in a 'note' column`,
    );
  return {
    path,
    notes: rows.map((row) => pandasText(row.note!)),
    encounterIds: columns.includes("encounter_id") ? rows.map((row) => row.encounter_id!) : null,
  };
}

/**
 * The predicted note of each gold encounter, in the gold order: the file must have one row per gold
 * row, and when it names its encounters they must be the gold ones in the gold order (the official
 * script pairs rows by position alone, so a file of another split would be scored against the wrong
 * notes without a word).
 */
export function alignOfficialPredictions(
  predictions: OfficialPredictions,
  gold: readonly AciBenchEncounter[],
  splitName: string,
): string[] {
  const { path, notes, encounterIds } = predictions;
  if (notes.length !== gold.length)
    throw new AnamnesisError(
      "INVALID_DATA",
      `${path} has ${notes.length} rows; the gold ${splitName} split has ${gold.length} (one predicted note per gold row, in the gold order)`,
    );
  const wrong = encounterIds?.findIndex((id, index) => id !== gold[index]!.id) ?? -1;
  if (wrong >= 0)
    throw new AnamnesisError(
      "INVALID_DATA",
      `${path}: row ${wrong + 1} is encounter ${encounterIds![wrong]}, the gold ${splitName} split has ${gold[wrong]!.id} there (is this another split's file?)`,
    );
  return [...notes];
}
