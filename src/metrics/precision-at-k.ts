import { allTuples, type UnrolledTurn } from "./cmas-f1.ts";

/**
 * Policy Precision@K as `compute_precision_k` of the official `pol_metrics.py` computes it (mode `all`,
 * no Jaccard): a predicted doctor turn t counts as a hit when its tuple set EQUALS the tuple set of one
 * of the gold doctor turns t, t+1, …, t+K-1 of the same dialogue. The paper describes it as whether the
 * predicted attributes "are present" in the next K gold turns; the code demands exact set equality,
 * and so do we. No turn is skipped; a format error is an empty set.
 */

/** The K values the official script reports; `Infinity` is the paper's "Inf" (the script's 1000000). */
export const OFFICIAL_K = [1, 2, 4, 6, 8, 10, Infinity] as const;

/** One dialogue: gold for every scored doctor turn in order, and the predicted positions. */
export interface PrecisionAtKDialogue {
  gold: readonly UnrolledTurn["gold"][];
  /** Positions into `gold` that have predictions, with their unrolled prediction (null = invalid). */
  predictions: ReadonlyArray<{ position: number; prediction: UnrolledTurn["prediction"] }>;
}

function canonicalKey(tuples: Set<string>): string {
  return JSON.stringify([...tuples].sort());
}

/**
 * Precision@K per K. When every scored doctor turn of a dialogue is predicted, this is exactly the
 * official figure; with a subset (a `--limit` run) the window still looks at the dialogue's real next
 * gold turns.
 */
export function precisionAtK(
  dialogues: readonly PrecisionAtKDialogue[],
  ks: readonly number[] = OFFICIAL_K,
): Record<string, number> {
  const hits = ks.map(() => 0);
  let total = 0;
  for (const dialogue of dialogues) {
    const goldKeys = dialogue.gold.map((tuples) => canonicalKey(allTuples(tuples)));
    for (const { position, prediction } of dialogue.predictions) {
      const predictedKey = canonicalKey(prediction ? allTuples(prediction) : new Set());
      // The first gold turn at or after t with the same set decides every K at once.
      let firstMatch = -1;
      for (let index = position; index < goldKeys.length; index += 1) {
        if (goldKeys[index] === predictedKey) {
          firstMatch = index - position;
          break;
        }
      }
      ks.forEach((k, index) => {
        if (firstMatch >= 0 && firstMatch < k) hits[index]! += 1;
      });
      total += 1;
    }
  }
  const result: Record<string, number> = {};
  ks.forEach((k, index) => {
    result[k === Infinity ? "inf" : String(k)] = total > 0 ? hits[index]! / total : 0;
  });
  return result;
}
