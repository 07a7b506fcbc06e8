import { appendFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { AnamnesisError } from "../src/foundation/errors.ts";
import type { ModuleCallInfo } from "../src/language/module-interfaces.ts";
import { exactJudge, type AttributeJudge } from "../src/metrics/attribute-judge.ts";
import { gitRevision } from "../src/backends/run-record.ts";
import { readLinesOf, type AnyPredictionLine } from "./predictions-file.ts";
import { SUITES, type ProtocolName, type BenchDataset, type BenchModules, type SuiteExample, type SuiteId } from "./suites.ts";
import { describeNoteData, isNoteDataset, type NoteRunData } from "./suites/clinical-notes/note-suites.ts";
import { toJsonText } from "../src/data/json-lines.ts";
import { ensureDirectory, predictionsPath, readFinishedLines, readJsonFile, requestsPath, rewriteRequestsFile, withoutLineNumber, writeFileAtomic } from "./run-directory.ts";
import { writeReports } from "./report.ts";
import { tunedOnSplit } from "./protocol-label.ts";
import type { PartialRun } from "./partial-run.ts";

/**
 * The benchmark runner: predicts every example of the chosen suites with a set of modules, writes
 * predictions files in exactly the `anamnesis score` format (plus what each call cost), scores them by
 * reading those files back — so re-scoring a predictions file reproduces results.json — and writes
 * the reports. Runs resume: lines already in the directory are kept and never requested again.
 */

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
}

/** What a run was asked to do; stored as run.json and checked when a run resumes. */
export interface RunRequest {
  readonly backend: string;
  /** How the modules were prompted: official, anamnesis, or embedded (absent in runs made before it was recorded). */
  readonly protocol?: ProtocolName;
  /** What the protocol used: prompt source and MediTOD commit, retrieval, embedding model, decoding, … */
  readonly protocol_details?: Readonly<Record<string, unknown>>;
  readonly backend_parameters?: Readonly<Record<string, unknown>>;
  readonly split: string;
  readonly suites: readonly SuiteId[];
  readonly limit: number | null;
  readonly shard: string | null;
  readonly judge: string;
  readonly data_dir: string;
}

export interface SuiteRunStats {
  predicted: number;
  resumed: number;
  cached: number;
  format_errors: number;
  repaired: number;
  latency_ms: { mean: number; p95: number };
  tokens: { input: number; output: number };
  prompt_tokens: { mean: number; max: number } | null;
  exemplars: { mean: number; min: number } | null;
}

/** What a bench run produced: the scores per suite and the run's record (results.json). */
export interface BenchResults {
  suites: Partial<Record<SuiteId, unknown>>;
  backend: string;
  split: string;
  /** Clinical-note runs only: what the data is and whether lm-eval's numbers are comparable. */
  dataset?: NoteRunData;
  protocol: Record<string, unknown>;
  /** Embedded-engine runs on dialogues it was shaped on: why the figures are not a plain result; else null. */
  tuned_on_split?: string | null;
  prompt_versions: Record<string, string>;
  git_revision: string | null;
  started: string;
  finished: string;
  limit: number | null;
  shard: string | null;
  runs: Partial<Record<SuiteId, SuiteRunStats>>;
  /** Set when `merge --allow-partial` scored fewer examples than the run asked for: what is missing. */
  partial?: PartialRun;
}


export interface ProgressEvent {
  readonly suite: SuiteId;
  readonly done: number;
  readonly total: number;
  readonly resumed: number;
}

/** What {@link runBench} runs: suites, dataset, modules, run directory and limits. */
export interface BenchOptions {
  readonly suites: readonly SuiteId[];
  readonly modules: BenchModules;
  readonly backend: { readonly id: string; readonly parameters?: Readonly<Record<string, unknown>> };
  /** The MediTOD protocol (which examples exist depends on it); recorded in run.json. */
  readonly protocolName?: ProtocolName;
  readonly dataset: BenchDataset;
  readonly split: string;
  readonly outDir: string;
  readonly limit?: number;
  readonly shard?: Shard;
  /** Examples predicted at once (the backend applies its own limit too). */
  readonly concurrency?: number;
  readonly judge?: AttributeJudge;
  /** Template version and hash per module, e.g. `{ nlu: "nlu.v1#6234834aac46" }`. */
  readonly promptVersions?: Record<string, string>;
  /** Extra protocol facts (retrieval, exemplars, token budget). */
  readonly protocol?: Record<string, unknown>;
  readonly signal?: AbortSignal;
  readonly onProgress?: (event: ProgressEvent) => void;
}

/** Parses `i/n` (1 ≤ i ≤ n). */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) throw new AnamnesisError("INVALID_ARGUMENT", `--shard must be i/n with 1 ≤ i ≤ n, e.g. 1/4 (got '${text}')`);
  return { index, count };
}

/** The examples a run covers: the first `limit` of the split, then every n-th for shard i/n. */
export function selectExamples<T>(examples: readonly T[], limit?: number, shard?: Shard): T[] {
  const limited = limit !== undefined ? examples.slice(0, limit) : [...examples];
  return shard ? limited.filter((_, index) => index % shard.count === shard.index - 1) : limited;
}

function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
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

export function suiteStats(lines: readonly AnyPredictionLine[], resumed: number): SuiteRunStats {
  const number = (line: AnyPredictionLine, key: string) => (typeof line[key] === "number" ? (line[key]) : undefined);
  const latencies = lines.map((line) => number(line, "latency_ms") ?? 0);
  const promptTokens = lines.map((line) => number(line, "prompt_tokens")).filter((value): value is number => value !== undefined);
  const exemplarCounts = lines.map((line) => (Array.isArray(line.exemplars) ? line.exemplars.length : undefined)).filter((value): value is number => value !== undefined);
  const tokens = lines.map((line) => line.tokens as { input?: number; output?: number } | null | undefined);
  return {
    predicted: lines.length,
    resumed,
    cached: lines.filter((line) => line.cached === true).length,
    format_errors: lines.filter((line) => typeof line.format_error === "string").length,
    repaired: lines.filter((line) => line.repaired === true).length,
    latency_ms: { mean: mean(latencies), p95: percentile(latencies, 0.95) },
    tokens: { input: tokens.reduce((sum, t) => sum + (t?.input ?? 0), 0), output: tokens.reduce((sum, t) => sum + (t?.output ?? 0), 0) },
    prompt_tokens: promptTokens.length > 0 ? { mean: mean(promptTokens), max: Math.max(...promptTokens) } : null,
    exemplars: exemplarCounts.length > 0 ? { mean: mean(exemplarCounts), min: Math.min(...exemplarCounts) } : null,
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

function checkResumable(dir: string, request: RunRequest): void {
  const previous = readJsonFile<RunRequest>(join(dir, "run.json"));
  if (!previous) return;
  const keys = ["backend", "protocol", "split", "limit", "shard", "data_dir"] as const;
  const changed = keys.filter((key) => JSON.stringify(previous[key]) !== JSON.stringify(request[key]));
  if (changed.length > 0) {
    const what = changed.map((key) => `${key} ${JSON.stringify(previous[key])} → ${JSON.stringify(request[key])}`).join(", ");
    throw new AnamnesisError("INVALID_ARGUMENT", `${dir} holds another run (${what}); use another --out or delete it`);
  }
}

/** Scores the predictions files of a run directory and writes results.json and the reports. */
export async function scoreRunDirectory(options: {
  dir: string;
  dataset: BenchDataset;
  suites: readonly SuiteId[];
  judge?: AttributeJudge;
  meta: Omit<BenchResults, "suites" | "runs" | "finished">;
  resumed?: Partial<Record<SuiteId, number>>;
}): Promise<BenchResults> {
  const suites: BenchResults["suites"] = {};
  const runs: BenchResults["runs"] = {};
  for (const id of options.suites) {
    const lines = readLinesOf(predictionsPath(options.dir, id), SUITES[id].format);
    suites[id] = await SUITES[id].score(options.dataset, lines, options.judge ?? exactJudge);
    runs[id] = suiteStats(lines, options.resumed?.[id] ?? 0);
  }
  const results: BenchResults = { suites, ...options.meta, finished: new Date().toISOString(), runs };
  writeFileAtomic(join(options.dir, "results.json"), `${toJsonText(results, 2)}\n`);
  writeReports(options.dir, results, options.dataset);
  return results;
}

/** Runs the benchmark; see the module comment. */
export async function runBench(options: BenchOptions): Promise<BenchResults> {
  const started = new Date().toISOString();
  const judge = options.judge ?? exactJudge;
  // A folder keeps every suite it holds: a run of other suites into it adds to them, never drops them.
  const held = (readJsonFile<RunRequest>(join(options.outDir, "run.json"))?.suites ?? []).filter((id) => id in SUITES && existsSync(predictionsPath(options.outDir, id)));
  const allSuites = [...new Set([...held, ...options.suites])];
  const request: RunRequest = {
    backend: options.backend.id,
    ...(options.protocolName ? { protocol: options.protocolName } : {}),
    ...(options.protocol ? { protocol_details: options.protocol } : {}),
    ...(options.backend.parameters ? { backend_parameters: options.backend.parameters } : {}),
    split: options.split,
    suites: allSuites,
    limit: options.limit ?? null,
    shard: options.shard ? `${options.shard.index}/${options.shard.count}` : null,
    judge: judge.id,
    data_dir: options.dataset.dir,
  };
  ensureDirectory(options.outDir);
  checkResumable(options.outDir, request);
  writeFileAtomic(join(options.outDir, "run.json"), `${toJsonText(request, 2)}\n`);

  const resumed: Partial<Record<SuiteId, number>> = {};
  for (const id of options.suites) {
    const suite = SUITES[id];
    const examples = selectExamples(suite.examples(options.dataset, options.split, options.protocolName), options.limit, options.shard);
    const path = predictionsPath(options.outDir, id);
    const wanted = new Set(examples.map((example) => example.key));
    const finished = new Map(
      readFinishedLines(path, suite.format)
        .filter((line) => wanted.has(suite.format.key(line)))
        .map((line) => [suite.format.key(line), line]),
    );
    const todo = examples.filter((example) => !finished.has(example.key));
    resumed[id] = finished.size;
    let done = finished.size;
    options.onProgress?.({ suite: id, done, total: examples.length, resumed: finished.size });

    try {
      await pool(todo, options.concurrency ?? 8, async (example) => {
        options.signal?.throwIfAborted();
        const { prediction, info } = await example.predict(options.modules, options.signal ? { signal: options.signal } : {});
        // The request first: a saved prediction always has its request beside it.
        if (info.request) appendFileSync(requestsPath(options.outDir, id), `${JSON.stringify({ ...example.fields, ...info.request })}\n`);
        appendFileSync(path, `${JSON.stringify(predictionRecord(example, prediction, info))}\n`);
        done += 1;
        options.onProgress?.({ suite: id, done, total: examples.length, resumed: finished.size });
      });
    } catch (error) {
      const saved = `${done} of ${examples.length} ${id} predictions are saved in ${path}; run the same command again to resume`;
      if (error instanceof AnamnesisError) throw new AnamnesisError(error.code, `${error.message} (${saved})`, { cause: error });
      throw new AnamnesisError("BACKEND_ERROR", `${(error as Error).message ?? String(error)} (${saved})`, { cause: error });
    }

    // Rewrite in dataset order now that the file is complete: the same input gives the same file.
    const order = new Map(examples.map((example, index) => [example.key, index]));
    const complete = readFinishedLines(path, suite.format)
      .filter((line) => order.has(suite.format.key(line)))
      .sort((a, b) => order.get(suite.format.key(a))! - order.get(suite.format.key(b))!);
    writeFileAtomic(path, complete.map((line) => `${JSON.stringify(withoutLineNumber(line))}\n`).join(""));
    rewriteRequestsFile(requestsPath(options.outDir, id), order, (line) => suite.format.key(line as never));
  }

  return scoreRunDirectory({
    dir: options.outDir,
    dataset: options.dataset,
    suites: allSuites,
    judge,
    resumed,
    meta: {
      backend: options.backend.id,
      split: options.split,
      ...(isNoteDataset(options.dataset) ? { dataset: describeNoteData(options.dataset, options.split, options.limit !== undefined || options.shard !== undefined) } : {}),
      protocol: {
        ...Object.fromEntries(allSuites.map((id) => [id, SUITES[id].protocol])),
        judge: judge.id,
        ...options.protocol,
      },
      tuned_on_split: tunedOnSplit(options.backend.id, options.dataset, options.split),
      prompt_versions: options.promptVersions ?? {},
      git_revision: await gitRevision(),
      started,
      limit: options.limit ?? null,
      shard: request.shard,
    },
  });
}
