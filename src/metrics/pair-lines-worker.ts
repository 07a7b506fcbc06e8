import { parentPort, workerData } from "node:worker_threads";
import { pairLines, type IdentifiedPair } from "./pair-lines.ts";

// A worker thread of `metrics pairs` (pair-lines.ts): scores its slice and sends back the lines.
parentPort?.postMessage(pairLines(workerData as IdentifiedPair[]));
