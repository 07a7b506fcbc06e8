import { appendFileSync } from "node:fs";
import { AnamnesisError } from "../src/foundation/errors.ts";
import type { ModuleCallInfo } from "../src/language/module-interfaces.ts";
import {
  predictionsPath,
  readFinishedLines,
  requestsPath,
  rewriteRequestsFile,
  withoutLineNumber,
  fileHolds,
  writeFileAtomic,
} from "./shared/run-directory.ts";
import type { Suite, SuiteExample } from "./shared/suite.ts";
import type { SuiteModules } from "./shared/suite-modules.ts";

/**
 * Predicts a suite's examples into its predictions file: each line appended as soon as it is done (the
 * exact request beside it first), lines already in the file kept and never requested again, and the
 * file rewritten in dataset order once it is complete.
 */

/** How far a suite's predictions are. */
export interface ProgressEvent {
  readonly suite: string;
  readonly done: number;
  readonly total: number;
  readonly resumed: number;
}

/** What predicting needs besides the suite and its examples: the modules, where to write, how many at once. */
export interface PredictionRun {
  readonly outDir: string;
  readonly modules: SuiteModules;
  /** Requests in flight at once; examples predicted at once too, unless the suite says otherwise (`Suite.openExamples`). */
  readonly concurrency: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (event: ProgressEvent) => void;
}

/** A predictions line: the `anamnesis score` fields first, then what the call cost. */
function predictionRecord(example: SuiteExample, prediction: unknown, info: ModuleCallInfo): Record<string, unknown> {
  return {
    ...example.fields,
    prediction,
    raw: info.raw ?? null,
    latency_ms: Math.round(info.latencyMs * 1000) / 1000,
    tokens: info.usage ? { input: info.usage.inputTokens, output: info.usage.outputTokens } : null,
    prompt_tokens: info.promptTokens ?? null,
    exemplars: info.exemplars ?? null,
    cached: info.cached ?? false,
    ...(info.overBudget ? { over_budget: true } : {}),
    ...(info.repaired ? { repaired: true } : {}),
    ...(info.formatError ? { format_error: info.formatError } : {}),
    ...("fallback" in info && info.fallback ? { fallback: info.fallback } : {}),
  };
}

/** Runs `work` over `items` with at most `concurrency` at once; the first failure stops new work. */
async function pool<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  if (failure) throw failure.error;
}

/** The lines of the suite's file that are among `examples`, by key. */
function finishedLines(suite: Suite, path: string, examples: readonly SuiteExample[]): Map<string, unknown> {
  const wanted = new Set(examples.map((example) => example.key));
  const lines = readFinishedLines(path, suite.format).filter((line) => wanted.has(suite.format.key(line)));
  return new Map(lines.map((line) => [suite.format.key(line), line]));
}

/** Predicts the examples the file lacks; a failure says how many are saved and how to resume. */
async function predictMissing(
  suite: Suite,
  examples: readonly SuiteExample[],
  finished: ReadonlyMap<string, unknown>,
  run: PredictionRun,
): Promise<void> {
  const path = predictionsPath(run.outDir, suite.id);
  const todo = examples.filter((example) => !finished.has(example.key));
  let done = finished.size;
  run.onProgress?.({ suite: suite.id, done, total: examples.length, resumed: finished.size });
  try {
    await pool(todo, suite.openExamples?.(run.concurrency, run.modules) ?? run.concurrency, async (example) => {
      run.signal?.throwIfAborted();
      const { prediction, info } = await example.predict(run.modules, run.signal ? { signal: run.signal } : {});
      // The request first: a saved prediction always has its request beside it.
      if (info.request)
        appendFileSync(
          requestsPath(run.outDir, suite.id),
          `${JSON.stringify({ ...example.fields, ...info.request })}\n`,
        );
      appendFileSync(path, `${JSON.stringify(predictionRecord(example, prediction, info))}\n`);
      done += 1;
      run.onProgress?.({ suite: suite.id, done, total: examples.length, resumed: finished.size });
    });
  } catch (error) {
    const saved = `${done} of ${examples.length} ${suite.id} predictions are saved in ${path}; run the same command again to resume`;
    if (error instanceof AnamnesisError)
      throw new AnamnesisError(error.code, `${error.message} (${saved})`, { cause: error });
    throw new AnamnesisError("BACKEND_ERROR", `${(error as Error).message ?? String(error)} (${saved})`, {
      cause: error,
    });
  }
}

/** Rewrites the predictions and requests files in dataset order now that they are complete: the same input gives the same file. */
function rewriteInDatasetOrder(suite: Suite, examples: readonly SuiteExample[], outDir: string): void {
  const path = predictionsPath(outDir, suite.id);
  const order = new Map(examples.map((example, index) => [example.key, index]));
  const complete = readFinishedLines(path, suite.format)
    .filter((line) => order.has(suite.format.key(line)))
    .sort((a, b) => order.get(suite.format.key(a))! - order.get(suite.format.key(b))!);
  const text = complete.map((line) => `${JSON.stringify(withoutLineNumber(line))}\n`).join("");
  // A run that predicted in order already wrote this file: rewriting it would only cost an fsync.
  if (!fileHolds(path, text)) writeFileAtomic(path, text);
  rewriteRequestsFile(requestsPath(outDir, suite.id), order, (line) => suite.format.key(line as never));
}

/** Predicts a suite's examples into the run directory; returns how many an earlier run had predicted. */
export async function predictSuite(
  suite: Suite,
  examples: readonly SuiteExample[],
  run: PredictionRun,
): Promise<number> {
  const finished = finishedLines(suite, predictionsPath(run.outDir, suite.id), examples);
  await predictMissing(suite, examples, finished, run);
  rewriteInDatasetOrder(suite, examples, run.outDir);
  return finished.size;
}
