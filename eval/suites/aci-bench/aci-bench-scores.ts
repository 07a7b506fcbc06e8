import { AnamnesisError } from "../../../src/foundation/errors.ts";
import type { AciBenchDataset, AciBenchEncounter, AciBenchSplit } from "../../../src/data/aci-bench.ts";
import { isPandasMissing, pandasText } from "../../../src/data/pandas-cells.ts";
import {
  aciCohorts,
  scoreAciNotes,
  type AciCohortScores,
  type AciScoringNote,
} from "../../../src/metrics/aci-bench-scoring.ts";
import type { NotePredictionLine } from "../../shared/predictions-file.ts";

/**
 * An ACI-Bench predictions file's notes, put in the gold order of their split and scored as the
 * official script scores them (src/metrics/aci-bench-scoring.ts).
 */

/** Why the model-based figures of the official script are null, in one line. */
export const ACI_MODEL_METRICS_UNAVAILABLE =
  "BERTScore (deberta-xlarge-mnli), BLEURT-20 and MEDCON (UMLS concepts through QuickUMLS) need models and a UMLS licence that are not bundled";

/** What the aci-bench suite reports: the official script's ROUGE figures, its other figures null with the reason. */
export interface AciBenchScores {
  /** The notes scored, and how many the split has (fewer on a `--limit` or shard run: not comparable with the paper). */
  notes: number;
  split: string;
  split_notes: number;
  /** Every cohort's mean F-measures, keyed as evaluate_fullnote.py's results JSON (`ALL`, `dataset-aci`, `division-subjective`, …). */
  rouge: AciCohortScores;
  bertscore: null;
  bleurt: null;
  medcon: null;
  unavailable: string;
}

/** The scorer's view of one visit and its predicted note: metadata values pandas reads as missing are null. */
export function scoringNote(encounter: AciBenchEncounter, prediction: string): AciScoringNote {
  const metadata = Object.fromEntries(
    Object.entries(encounter.metadata).map(([column, value]) => [column, isPandasMissing(value) ? null : value]),
  );
  return { reference: encounter.target, prediction, dialogue: encounter.input, metadata };
}

/** Scores predicted notes of some of a split's visits, given in the gold order. */
export function scoreAciBench(
  dataset: AciBenchDataset,
  split: AciBenchSplit,
  encounters: readonly AciBenchEncounter[],
  predictions: readonly string[],
): AciBenchScores {
  const notes = encounters.map((encounter, index) => scoringNote(encounter, predictions[index]!));
  return {
    notes: notes.length,
    split,
    split_notes: dataset.splits[split].length,
    rouge: aciCohorts(notes, scoreAciNotes(notes)),
    bertscore: null,
    bleurt: null,
    medcon: null,
    unavailable: ACI_MODEL_METRICS_UNAVAILABLE,
  };
}

/** The visit a predictions line names, or an error naming the line. */
function encounterOf(dataset: AciBenchDataset, line: NotePredictionLine): AciBenchEncounter {
  const encounter = dataset.encounters.get(line.id);
  if (!encounter)
    throw new AnamnesisError(
      "UNKNOWN_DIALOGUE",
      `line ${line.line}: ACI-Bench has no encounter '${line.id}' (ids look like D2N001, …, D2N207)`,
    );
  if (typeof line.prediction !== "string")
    throw new AnamnesisError("INVALID_JSON", `line ${line.line}: prediction must be the note as a string`);
  return encounter;
}

/**
 * Scores JSONL predictions lines (`{id: encounter id, prediction: note}`): every line of one split, put
 * in the gold order; each note read as the script would read it from its CSV (a missing-looking note
 * is the text `nan`).
 */
export function scoreAciBenchLines(dataset: AciBenchDataset, lines: readonly NotePredictionLine[]): AciBenchScores {
  if (lines.length === 0) throw new AnamnesisError("INVALID_ARGUMENT", "no predictions to score");
  const named = lines.map((line) => ({
    encounter: encounterOf(dataset, line),
    note: pandasText(line.prediction as string),
  }));
  const splits = [...new Set(named.map(({ encounter }) => encounter.split))];
  if (splits.length > 1)
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `the predictions mix splits (${splits.join(", ")}); the official script scores one split at a time`,
    );
  const split = splits[0]!;
  const order = new Map(dataset.splits[split].map((encounter, index) => [encounter.id, index]));
  named.sort((left, right) => order.get(left.encounter.id)! - order.get(right.encounter.id)!);
  return scoreAciBench(
    dataset,
    split,
    named.map(({ encounter }) => encounter),
    named.map(({ note }) => note),
  );
}
