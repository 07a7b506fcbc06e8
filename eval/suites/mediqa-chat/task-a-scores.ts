import { AnamnesisError } from "../../../src/foundation/errors.ts";
import { noteSplit, type NoteDataset, type NoteDocument } from "../../../src/data/note-dataset.ts";
import type { NotePredictionLine } from "../../shared/predictions-file.ts";

/**
 * MEDIQA-Chat 2023 task A's section-header accuracy: the share of the test dialogues whose predicted
 * header is the gold header (the 20 normalized headers as MTS-Dialog writes them, e.g. `GENHX`,
 * `FAM/SOCHX`). The challenge's published evaluation script scores only the section text; the header
 * was scored by accuracy, and the challenge's own description of the headers writes them in lower
 * case (`genhx`), so a header is compared with surrounding spaces and case ignored — nothing else is
 * forgiven. An answer that named no header (a format error) counts as wrong. Beside it, the floor
 * that names the most common training header every time.
 */

/** The scores of a set of predicted headers. */
export interface TaskAScores {
  dialogues: number;
  split: string;
  split_dialogues: number;
  correct: number;
  accuracy: number;
  /** Answers that named no header (null predictions), counted wrong. */
  format_errors: number;
  /** Per gold header, in the order of their counts: the dialogues and how many were right. */
  by_header: Record<string, { dialogues: number; correct: number }>;
  /** The floor: the most common training header named every time, scored on the same dialogues. */
  majority_floor: { header: string; correct: number; accuracy: number };
}

/** A header as it is compared: `" genhx "` and `GENHX` are the same header. */
export function sameHeader(predicted: string | null, gold: string): boolean {
  return predicted !== null && predicted.trim().toUpperCase() === gold.trim().toUpperCase();
}

/** The most common header of the training split (the alphabetically first among equals). */
export function majorityHeader(dataset: NoteDataset): string {
  const counts = new Map<string, number>();
  for (const { header } of noteSplit(dataset, dataset.trainingSplit))
    if (header !== undefined) counts.set(header, (counts.get(header) ?? 0) + 1);
  const [best] = [...counts].sort(([a, left], [b, right]) => right - left || a.localeCompare(b));
  if (!best)
    throw new AnamnesisError("INVALID_DATA", `${dataset.info.name}: the training split has no section headers`);
  return best[0];
}

/** One scored dialogue: its gold header and the prediction (null: a format error). */
export interface TaskAPair {
  readonly gold: string;
  readonly predicted: string | null;
}

/** Accuracy and its breakdown over pairs, all from one split. */
export function scoreTaskA(
  pairs: readonly TaskAPair[],
  split: string,
  splitDialogues: number,
  floorHeader: string,
): TaskAScores {
  const byHeader = new Map<string, { dialogues: number; correct: number }>();
  let correct = 0;
  for (const { gold, predicted } of pairs) {
    const entry = byHeader.get(gold) ?? { dialogues: 0, correct: 0 };
    entry.dialogues += 1;
    if (sameHeader(predicted, gold)) {
      entry.correct += 1;
      correct += 1;
    }
    byHeader.set(gold, entry);
  }
  const floor = pairs.filter(({ gold }) => sameHeader(floorHeader, gold)).length;
  const ordered = [...byHeader].sort(([a, left], [b, right]) => right.dialogues - left.dialogues || a.localeCompare(b));
  return {
    dialogues: pairs.length,
    split,
    split_dialogues: splitDialogues,
    correct,
    accuracy: pairs.length > 0 ? correct / pairs.length : 0,
    format_errors: pairs.filter((pair) => pair.predicted === null).length,
    by_header: Object.fromEntries(ordered),
    majority_floor: {
      header: floorHeader,
      correct: floor,
      accuracy: pairs.length > 0 ? floor / pairs.length : 0,
    },
  };
}

/** The split a document id belongs to (`test1-17` → `test1`), or an error naming the line. */
function splitOf(dataset: NoteDataset, line: NotePredictionLine): { document: NoteDocument; split: string } {
  const document = dataset.documents.get(line.id);
  const split = Object.keys(dataset.splits).find((name) => dataset.splits[name]!.includes(document!));
  if (!document || !split)
    throw new AnamnesisError(
      "UNKNOWN_DIALOGUE",
      `line ${line.line}: ${dataset.info.name} has no dialogue '${line.id}' (ids look like test1-0, valid-12)`,
    );
  if (line.prediction !== null && typeof line.prediction !== "string")
    throw new AnamnesisError(
      "INVALID_JSON",
      `line ${line.line}: prediction must be a section header (a string) or null`,
    );
  return { document, split };
}

/** Scores JSONL lines `{id, prediction: header | null}`, all of one split. */
export function scoreTaskALines(
  dataset: NoteDataset,
  lines: readonly NotePredictionLine[],
  floorHeader: string = majorityHeader(dataset),
): TaskAScores {
  if (lines.length === 0) throw new AnamnesisError("INVALID_ARGUMENT", "no predictions to score");
  const located = lines.map((line) => ({ line, ...splitOf(dataset, line) }));
  const splits = [...new Set(located.map(({ split }) => split))];
  if (splits.length > 1)
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `the predictions mix splits (${splits.join(", ")}); task A is scored one split at a time`,
    );
  const pairs = located.map(({ line, document }) => ({
    gold: document.header!,
    predicted: line.prediction as string | null,
  }));
  return scoreTaskA(pairs, splits[0]!, dataset.splits[splits[0]!]!.length, floorHeader);
}
