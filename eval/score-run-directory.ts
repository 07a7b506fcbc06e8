import { join } from "node:path";
import { toJsonText } from "../src/data/json-lines.ts";
import { exactJudge, type AttributeJudge } from "../src/metrics/attribute-judge.ts";
import type { ModelMetricRequest } from "../src/metrics/model-metrics/model-metrics.ts";
import type { BenchDataset } from "./shared/bench-dataset.ts";
import type { BenchResults } from "./shared/bench-results.ts";
import { readLinesOf } from "./shared/predictions-file.ts";
import { writeReports } from "./report.ts";
import { predictionsPath, writeFileAtomic } from "./shared/run-directory.ts";
import { suiteStats } from "./run-stats.ts";
import type { SuiteRegistry } from "./suite-registry.ts";

/** What {@link scoreRunDirectory} scores: a run directory's suites on their data, and the run's record. */
export interface RunDirectoryScoring<Id extends string> {
  readonly dir: string;
  readonly dataset: BenchDataset;
  /** The suites to score, in the order results.json lists them. */
  readonly suites: readonly Id[];
  readonly registry: SuiteRegistry;
  readonly judge?: AttributeJudge;
  /** Where the model-based metrics come from; absent ones are null with their reason. */
  readonly models?: ModelMetricRequest;
  readonly meta: Omit<BenchResults, "suites" | "runs" | "finished">;
  /** Per suite, how many of its lines an earlier run had predicted. */
  readonly resumed?: Readonly<Partial<Record<string, number>>>;
}

/**
 * Scores the predictions files of a run directory by reading them back (so re-scoring a predictions
 * file reproduces results.json), and writes results.json and the reports.
 */
export async function scoreRunDirectory<Id extends string>(
  options: RunDirectoryScoring<Id>,
): Promise<BenchResults<Id>> {
  const suites: BenchResults<Id>["suites"] = {};
  const runs: BenchResults<Id>["runs"] = {};
  for (const id of options.suites) {
    const suite = options.registry.get(id)!;
    const lines = readLinesOf(predictionsPath(options.dir, id), suite.format);
    suites[id] = await suite.score(options.dataset, lines, options.judge ?? exactJudge, options.models);
    runs[id] = suiteStats(lines, options.resumed?.[id] ?? 0);
    suite.writeArtifacts?.(options.dir, lines);
  }
  const results: BenchResults<Id> = { suites, ...options.meta, finished: new Date().toISOString(), runs };
  // Derived from the predictions: scoring the run directory again rewrites it.
  writeFileAtomic(join(options.dir, "results.json"), `${toJsonText(results, 2)}\n`, { durable: false });
  writeReports(options.dir, results, options.dataset, options.registry);
  return results;
}
