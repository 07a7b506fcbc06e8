/**
 * The benchmark runner's public API: run suites (`runBench`), the suite list, and the official MediTOD
 * scorers over predictions files. Part of the package's entry (`index.ts` at the root).
 */

// Scorers: the official MediTOD scripts, over predictions files
export {
  scoreNluPredictions as scoreNlu,
  scorePolicyPredictions as scorePolicy,
  scoreNlgPredictions as scoreNlg,
  scoreNluPredictions,
  scorePolicyPredictions,
  scoreNlgPredictions,
  type PolicyScores,
} from "./suites/meditod/meditod-scoring.ts";
export { readPredictionLines, type PredictionLine } from "./shared/predictions-file.ts";

// The bench runner
export { runBench, parseShard, type BenchOptions, type BenchResults, type RunRequest, type Shard } from "./runner.ts";
export { SUITES, resolveSuites, loadBenchDataset, type SuiteId } from "./registry.ts";
