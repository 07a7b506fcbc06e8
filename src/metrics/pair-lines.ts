import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { toJsonText } from "../data/json-lines.ts";
import { scorePair } from "./pair-metrics.ts";

/**
 * `metrics pairs` output: one JSON line per pair, `{id, ...every metric}`, in input order. Large
 * inputs are split over worker threads (one per core, at most 4); the lines are the same either way,
 * since each pair is scored on its own.
 */

/** A pair to score, with the id echoed back as given. */
export interface IdentifiedPair {
  readonly rawId: string | number;
  readonly prediction: string;
  readonly reference: string;
}

/** Below this many pairs, starting workers costs more than it saves. */
const PARALLEL_THRESHOLD = 1000;
const MAX_WORKERS = 4;

/** The output lines of some pairs, scored on this thread. */
export function pairLines(pairs: readonly IdentifiedPair[]): string[] {
  return pairs.map((pair) => toJsonText({ id: pair.rawId, ...scorePair(pair.prediction, pair.reference) }));
}

/** The worker's module beside this one: compiled (.js) when this file is; workers run only compiled. */
function workerUrl(): URL | undefined {
  return import.meta.url.endsWith(".js") ? new URL("./pair-lines-worker.js", import.meta.url) : undefined;
}

function scoreInWorker(url: URL, pairs: readonly IdentifiedPair[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(url, { workerData: pairs });
    worker.once("message", (lines: string[]) => resolve(lines));
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (code !== 0) reject(new Error(`metrics worker exited with code ${code}`));
    });
  });
}

/**
 * Writes the lines of every pair through `write`, in input order, a slice at a time: on worker
 * threads for large inputs (when compiled), else on this thread in chunks of 1,000.
 */
export async function writePairLines(pairs: readonly IdentifiedPair[], write: (text: string) => void): Promise<void> {
  const url = workerUrl();
  const workers = Math.min(availableParallelism(), MAX_WORKERS);
  if (url === undefined || workers < 2 || pairs.length < PARALLEL_THRESHOLD) {
    for (let start = 0; start < pairs.length; start += 1000)
      write(`${pairLines(pairs.slice(start, start + 1000)).join("\n")}\n`);
    return;
  }
  const size = Math.ceil(pairs.length / workers);
  const slices = Array.from({ length: workers }, (_, index) => pairs.slice(index * size, (index + 1) * size)).filter(
    (slice) => slice.length > 0,
  );
  const results = slices.map((slice) => scoreInWorker(url, slice));
  for (const result of results) write(`${(await result).join("\n")}\n`);
}
