import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AnamnesisError } from "../src/foundation/errors.ts";
import { createAttributeJudge } from "../src/backends/index.ts";
import { checkOutputDirectory } from "../src/data/input-file.ts";
import { toJsonText } from "../src/data/json-lines.ts";
import type { BenchDataset } from "./shared/bench-dataset.ts";
import type { BenchResults } from "./shared/bench-results.ts";
import { readLinesOf } from "./shared/predictions-file.ts";
import { SUITE_REGISTRY } from "./registry.ts";
import {
  ensureDirectory,
  predictionsPath,
  readJsonFile,
  requestsPath,
  rewriteRequestsFile,
  withoutLineNumber,
  writeFileAtomic,
} from "./shared/run-directory.ts";
import { selectExamples, type RunRequest } from "./runner.ts";
import { scoreRunDirectory } from "./score-run-directory.ts";
import type { Suite } from "./shared/suite.ts";
import type { SuiteRegistry } from "./suite-registry.ts";

/** A run directory to merge: where it is, what it was asked (run.json) and, once scored, what it produced. */
interface MergedRun {
  readonly dir: string;
  readonly request: RunRequest;
  readonly results: BenchResults | undefined;
}

/** The shards given ("1/4", "3/4") and how many the run was split into (null when whole runs are merged). */
interface ShardCoverage {
  readonly shards: string[];
  readonly of: number | null;
}

/** What must be equal in every merged run (run.json keys; `protocol` where a run records one). */
const MUST_MATCH = [
  "backend",
  "backend_parameters",
  "split",
  "suites",
  "limit",
  "data_dir",
  "judge",
  "protocol",
  "suite_settings",
] as const;

/** Without the merge's own bookkeeping, so a merged run's protocol compares with its shards'. */
function protocolOf(results: BenchResults | undefined): string | undefined {
  if (!results) return undefined;
  const { merged_from: _mergedFrom, ...protocol } = results.protocol;
  return JSON.stringify(protocol);
}

/**
 * Refuses runs that cannot be one run: a directory given twice, runs that differ in what they ran
 * (backend, split, suites, limit, data, judge, protocol), the same shard twice, or shards of different
 * splittings. Returns the shards given and how many were asked for.
 */
function checkMergeable(requests: readonly MergedRun[]): ShardCoverage {
  const first = requests[0]!;
  const seenDirs = new Set<string>();
  for (const { dir, request, results } of requests) {
    if (seenDirs.has(dir)) throw new AnamnesisError("INVALID_ARGUMENT", `${dir} is given twice`);
    seenDirs.add(dir);
    for (const key of MUST_MATCH) {
      const normalise = (value: unknown) =>
        JSON.stringify(key === "suites" && Array.isArray(value) ? [...(value as unknown[])].sort() : value);
      const mine = (request as unknown as Record<string, unknown>)[key];
      const theirs = (first.request as unknown as Record<string, unknown>)[key];
      if (normalise(mine) !== normalise(theirs))
        throw new AnamnesisError(
          "INVALID_ARGUMENT",
          `${dir} differs from ${first.dir} in ${key}: ${normalise(mine)} vs ${normalise(theirs)}; they are not shards of one run`,
        );
    }
    const [mine, theirs] = [protocolOf(results), protocolOf(first.results)];
    if (mine !== undefined && theirs !== undefined && mine !== theirs)
      throw new AnamnesisError(
        "INVALID_ARGUMENT",
        `${dir} differs from ${first.dir} in its protocol (results.json): ${mine} vs ${theirs}`,
      );
  }
  const shards = requests.map(({ request }) => request.shard);
  if (shards.every((shard) => shard === null)) {
    if (requests.length > 1)
      throw new AnamnesisError(
        "INVALID_ARGUMENT",
        `${requests[1]!.dir} and ${first.dir} are both whole runs of the same examples (no --shard): there is nothing to merge`,
      );
    return { shards: ["1/1"], of: 1 };
  }
  const parsed = requests.map(({ dir, request }) => {
    if (request.shard === null)
      throw new AnamnesisError("INVALID_ARGUMENT", `${dir} is a whole run, the others are shards`);
    const [index, count] = request.shard.split("/").map(Number) as [number, number];
    return { dir, index, count };
  });
  const seen = new Map<number, string>();
  for (const { dir, index, count } of parsed) {
    if (count !== parsed[0]!.count)
      throw new AnamnesisError(
        "INVALID_ARGUMENT",
        `${dir} is shard ${index}/${count}, ${parsed[0]!.dir} is a shard of ${parsed[0]!.count}: different splittings`,
      );
    if (seen.has(index))
      throw new AnamnesisError(
        "INVALID_ARGUMENT",
        `${dir} and ${seen.get(index)} are the same shard ${index}/${count}`,
      );
    seen.set(index, dir);
  }
  return {
    shards: parsed.map(({ index, count }) => `${index}/${count}`).sort((a, b) => parseInt(a) - parseInt(b)),
    of: parsed[0]!.count,
  };
}

/** The exact requests behind the merged predictions (official runs keep them), in the same order. */
function mergeRequestsFiles(
  dirs: readonly string[],
  outDir: string,
  suite: Suite,
  order: ReadonlyMap<string, number>,
): void {
  const parts = dirs.map((dir) => requestsPath(dir, suite.id)).filter((path) => existsSync(path));
  if (parts.length === 0) return;
  const target = requestsPath(outDir, suite.id);
  writeFileAtomic(target, parts.map((path) => readFileSync(path, "utf8")).join(""));
  rewriteRequestsFile(target, order, (line) => suite.format.key(line as never));
}

/** Every run's lines of a suite by key, sorted by dialogue and turn (or document id); a key predicted differently twice is an error. */
function mergedLines(suite: Suite, runs: readonly MergedRun[]): Array<[key: string, text: string]> {
  const merged = new Map<string, string>();
  for (const { dir, request } of runs) {
    if (!request.suites.includes(suite.id)) continue;
    for (const line of readLinesOf(predictionsPath(dir, suite.id), suite.format)) {
      const key = suite.format.key(line);
      const existing = merged.get(key);
      if (
        existing !== undefined &&
        JSON.stringify((JSON.parse(existing) as { prediction: unknown }).prediction) !== JSON.stringify(line.prediction)
      ) {
        throw new AnamnesisError(
          "INVALID_ARGUMENT",
          `${suite.id}: ${suite.format.describe(line)} has different predictions in two runs`,
        );
      }
      merged.set(key, JSON.stringify(withoutLineNumber(line)));
    }
  }
  return [...merged.entries()].sort(([a], [b]) => {
    const [dialogueA, turnA] = a.split(":");
    const [dialogueB, turnB] = b.split(":");
    return dialogueA!.localeCompare(dialogueB!, "en", { numeric: true }) || Number(turnA) - Number(turnB);
  });
}

/** What one suite's merge wrote: its lines, the examples the run asked for that none of the runs has, and the split's size. */
interface MergedSuite {
  readonly lines: number;
  readonly absent: number;
  readonly splitExamples: number;
}

/** Merges one suite's predictions (and requests) into `outDir`; missing examples are refused unless `allowPartial`. */
function mergeSuite(
  suite: Suite,
  runs: readonly MergedRun[],
  dataset: BenchDataset,
  coverage: ShardCoverage,
  outDir: string,
  allowPartial: boolean,
): MergedSuite {
  const first = runs[0]!.request;
  const sorted = mergedLines(suite, runs);
  const keys = new Set(sorted.map(([key]) => key));
  const examples = suite.examples(dataset, first.split, first.protocol);
  const wanted = selectExamples(examples, first.limit ?? undefined).map((example) => example.key);
  const absent = wanted.filter((key) => !keys.has(key)).length;
  if (absent > 0 && !allowPartial) {
    const shards =
      coverage.of !== null && coverage.shards.length < coverage.of
        ? ` (shards given: ${coverage.shards.join(", ")} of ${coverage.of})`
        : "";
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `${suite.id}: ${absent} of ${wanted.length} examples are in none of the runs${shards}; merge every shard, finish the runs (run each again to resume), or pass --allow-partial`,
    );
  }
  writeFileAtomic(predictionsPath(outDir, suite.id), sorted.map(([, text]) => `${text}\n`).join(""));
  mergeRequestsFiles(
    runs.map(({ dir }) => dir),
    outDir,
    suite,
    new Map(sorted.map(([key], index) => [key, index])),
  );
  return { lines: sorted.length, absent, splitExamples: examples.length };
}

/** What results.json records for the merged run: the first scored run's protocol and prompts, the earliest start, and what is missing. */
function mergedRecord(
  runs: readonly MergedRun[],
  dataset: BenchDataset,
  merged: ReadonlyMap<Suite, MergedSuite>,
  coverage: ShardCoverage,
  registry: SuiteRegistry,
): Omit<BenchResults, "suites" | "runs" | "finished"> {
  const first = runs[0]!.request;
  const previous = runs.map(({ results }) => results);
  const base = previous.find((results) => results !== undefined);
  const starts = previous.flatMap((results) => (results ? [results.started] : [])).sort();
  const source = registry.dataset(registry.dataOf([...merged.keys()].map((suite) => suite.id)));
  const subset = first.limit !== null || [...merged.values()].some((suite) => suite.lines < suite.splitExamples);
  const missing = Object.fromEntries(
    [...merged].filter(([, suite]) => suite.absent > 0).map(([suite, { absent }]) => [suite.id, absent]),
  );
  return {
    backend: first.backend,
    split: first.split,
    ...(source.describeRun ? { dataset: source.describeRun(dataset, first.split, subset) } : {}),
    protocol: { ...(base?.protocol ?? {}), merged_from: runs.map(({ dir }) => dir) },
    tuned_on_split: base?.tuned_on_split ?? null,
    prompt_versions: base?.prompt_versions ?? {},
    git_revision: base?.git_revision ?? null,
    started: starts[0] ?? new Date().toISOString(),
    limit: first.limit,
    shard: null,
    ...(Object.keys(missing).length > 0 ? { partial: { missing, shards: coverage.shards, of: coverage.of } } : {}),
  };
}

/** Where and how {@link mergeRunDirectories} merges, besides the run directories. */
export interface MergeOptions {
  /** Merge even when shards or lines are missing (every output then says the run is partial). */
  readonly allowPartial?: boolean;
  /** Where the runs' suite ids are looked up: the suites the runner ships unless given. */
  readonly registry?: SuiteRegistry;
}

/**
 * Merges run directories (typically the shards of one run) into one: predictions are combined per
 * suite, then scored as one run. The runs must be shards of one run (see {@link checkMergeable}), and
 * together cover every example it asked for: a missing shard or missing lines are refused unless
 * `allowPartial`, and a partial merge says so in results.json, both reports and the terminal.
 */
export async function mergeRunDirectories(
  dirs: readonly string[],
  outDir: string,
  dataDir?: string,
  options: MergeOptions = {},
): Promise<BenchResults> {
  if (dirs.length === 0) throw new AnamnesisError("INVALID_ARGUMENT", "merge needs at least one run directory");
  checkOutputDirectory(outDir, "--out");
  const registry = options.registry ?? SUITE_REGISTRY;
  const runs: MergedRun[] = dirs.map((dir) => ({
    dir,
    request: readJsonFile<RunRequest>(join(dir, "run.json"))!,
    results: readJsonFile<BenchResults>(join(dir, "results.json")),
  }));
  const first = runs[0]!.request;
  const coverage = checkMergeable(runs);
  const suites = registry.suites.filter((suite) => runs.some(({ request }) => request.suites.includes(suite.id)));
  const ids = suites.map((suite) => suite.id);
  const dataset = registry.dataset(registry.dataOf(ids)).load(dataDir ?? first.data_dir);
  ensureDirectory(outDir);
  const merged = new Map(
    suites.map((suite) => [suite, mergeSuite(suite, runs, dataset, coverage, outDir, options.allowPartial === true)]),
  );
  const request: RunRequest = { ...first, suites: ids, shard: null };
  writeFileAtomic(join(outDir, "run.json"), `${toJsonText(request, 2)}\n`);
  return scoreRunDirectory({
    dir: outDir,
    dataset,
    suites: ids,
    registry,
    judge: await createAttributeJudge(first.judge),
    meta: mergedRecord(runs, dataset, merged, coverage, registry),
  });
}
