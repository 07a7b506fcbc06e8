import { AnamnesisError } from "../../foundation/errors.ts";
import { getDialogue, splitIds, type Dialogue, type MeditodDataset, type Split } from "../../data/meditod.ts";

/**
 * What the embedded engine learns from: training dialogues only. It refuses any dialogue of the test
 * (or out-of-domain) split, so scores on those splits are never tuned on themselves, and it records
 * the ids it read.
 */
export interface TrainingData {
  readonly dialogues: readonly Dialogue[];
  /** The dialogue ids read, in order. */
  readonly dialogueIds: readonly string[];
  /** The dataset folder and split they are, when a whole split was read (a build's snapshot is keyed by it). */
  readonly source?: { readonly dir: string; readonly split: Split };
}

/** The ids a build may read: train (and valid, for tuning) — never test or ood. */
export function loadTrainingData(dataset: MeditodDataset, source: Split | readonly string[] = "train"): TrainingData {
  const ids = typeof source === "string" ? splitIds(dataset, source) : [...source];
  const forbidden = new Set([...(dataset.splits.test ?? []), ...(dataset.splits.ood ?? [])]);
  const leaked = ids.filter((id) => forbidden.has(id));
  if (leaked.length > 0) {
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `the embedded engine never learns from test or out-of-domain dialogues (asked for ${leaked.join(", ")})`,
    );
  }
  return {
    dialogues: ids.map((id) => getDialogue(dataset, id)),
    dialogueIds: ids,
    ...(typeof source === "string" ? { source: { dir: dataset.dir, split: source } } : {}),
  };
}
