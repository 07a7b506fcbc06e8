import { join } from "node:path";
import { AnamnesisError } from "../src/foundation/errors.ts";
import { createAttributeJudge } from "../src/backends/index.ts";
import { noteSplit } from "../src/data/note-dataset.ts";
import { readLinesOf } from "./predictions-file.ts";
import { toJsonText } from "../src/data/json-lines.ts";
import { ensureDirectory, predictionsPath, readJsonFile, requestsPath, rewriteRequestsFile, withoutLineNumber, writeFileAtomic } from "./run-directory.ts";
import { existsSync, readFileSync } from "node:fs";
import { scoreRunDirectory, selectExamples, type BenchResults, type RunRequest } from "./runner.ts";
import { checkOutputDirectory } from "../src/data/input-file.ts";
import { describeNoteData, isNoteDataset } from "./suites/clinical-notes/note-suites.ts";
import { loadBenchDataset, MEDITOD_SUITES, NOTE_SUITES, suiteData, SUITES, type SuiteId } from "./suites.ts";

/** What must be equal in every merged run (run.json keys; `protocol` where a run records one). */
const MUST_MATCH = ["backend", "backend_parameters", "split", "suites", "limit", "data_dir", "judge", "protocol"] as const;

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
function checkMergeable(requests: ReadonlyArray<{ dir: string; request: RunRequest; results: BenchResults | undefined }>): { shards: string[]; of: number | null } {
  const first = requests[0]!;
  const seenDirs = new Set<string>();
  for (const { dir, request, results } of requests) {
    if (seenDirs.has(dir)) throw new AnamnesisError("INVALID_ARGUMENT", `${dir} is given twice`);
    seenDirs.add(dir);
    for (const key of MUST_MATCH) {
      const normalise = (value: unknown) => JSON.stringify(key === "suites" && Array.isArray(value) ? [...(value as unknown[])].sort() : value);
      const mine = (request as unknown as Record<string, unknown>)[key];
      const theirs = (first.request as unknown as Record<string, unknown>)[key];
      if (normalise(mine) !== normalise(theirs)) throw new AnamnesisError("INVALID_ARGUMENT", `${dir} differs from ${first.dir} in ${key}: ${normalise(mine)} vs ${normalise(theirs)}; they are not shards of one run`);
    }
    const [mine, theirs] = [protocolOf(results), protocolOf(first.results)];
    if (mine !== undefined && theirs !== undefined && mine !== theirs) throw new AnamnesisError("INVALID_ARGUMENT", `${dir} differs from ${first.dir} in its protocol (results.json): ${mine} vs ${theirs}`);
  }
  const shards = requests.map(({ request }) => request.shard);
  if (shards.every((shard) => shard === null)) {
    if (requests.length > 1) throw new AnamnesisError("INVALID_ARGUMENT", `${requests[1]!.dir} and ${first.dir} are both whole runs of the same examples (no --shard): there is nothing to merge`);
    return { shards: ["1/1"], of: 1 };
  }
  const parsed = requests.map(({ dir, request }) => {
    if (request.shard === null) throw new AnamnesisError("INVALID_ARGUMENT", `${dir} is a whole run, the others are shards`);
    const [index, count] = request.shard.split("/").map(Number) as [number, number];
    return { dir, index, count };
  });
  const seen = new Map<number, string>();
  for (const { dir, index, count } of parsed) {
    if (count !== parsed[0]!.count) throw new AnamnesisError("INVALID_ARGUMENT", `${dir} is shard ${index}/${count}, ${parsed[0]!.dir} is a shard of ${parsed[0]!.count}: different splittings`);
    if (seen.has(index)) throw new AnamnesisError("INVALID_ARGUMENT", `${dir} and ${seen.get(index)} are the same shard ${index}/${count}`);
    seen.set(index, dir);
  }
  return { shards: parsed.map(({ index, count }) => `${index}/${count}`).sort((a, b) => parseInt(a) - parseInt(b)), of: parsed[0]!.count };
}

/** The exact requests behind the merged predictions (official runs keep them), in the same order. */
function mergeRequestsFiles(dirs: readonly string[], outDir: string, suite: SuiteId, order: ReadonlyMap<string, number>): void {
  const parts = dirs.map((dir) => requestsPath(dir, suite)).filter((path) => existsSync(path));
  if (parts.length === 0) return;
  const target = requestsPath(outDir, suite);
  writeFileAtomic(target, parts.map((path) => readFileSync(path, "utf8")).join(""));
  rewriteRequestsFile(target, order, (line) => SUITES[suite].format.key(line as never));
}

/**
 * Merges run directories (typically the shards of one run) into one: predictions are combined per
 * suite, then scored as one run. The runs must be shards of one run (see {@link checkMergeable}), and
 * together cover every example it asked for: a missing shard or missing lines are refused unless
 * `allowPartial`, and a partial merge says so in results.json, both reports and the terminal.
 */
export async function mergeRunDirectories(dirs: readonly string[], outDir: string, dataDir?: string, options: { allowPartial?: boolean } = {}): Promise<BenchResults> {
  if (dirs.length === 0) throw new AnamnesisError("INVALID_ARGUMENT", "merge needs at least one run directory");
  checkOutputDirectory(outDir, "--out");
  const requests = dirs.map((dir) => ({ dir, request: readJsonFile<RunRequest>(join(dir, "run.json"))!, results: readJsonFile<BenchResults>(join(dir, "results.json")) }));
  const first = requests[0]!.request;
  const coverage = checkMergeable(requests);
  const previous = requests.map(({ results }) => results);
  const suites = [...MEDITOD_SUITES, ...NOTE_SUITES].filter((suite) => requests.some(({ request }) => request.suites.includes(suite)));
  const data = suiteData(suites);
  const dataset = loadBenchDataset(data, dataDir ?? first.data_dir);
  ensureDirectory(outDir);
  const counts: number[] = [];
  const missing: Partial<Record<SuiteId, number>> = {};
  for (const suite of suites) {
    const merged = new Map<string, string>();
    for (const { dir, request } of requests) {
      if (!request.suites.includes(suite)) continue;
      const format = SUITES[suite].format;
      for (const line of readLinesOf(predictionsPath(dir, suite), format)) {
        const key = format.key(line);
        const text = JSON.stringify(withoutLineNumber(line));
        const existing = merged.get(key);
        if (existing !== undefined && JSON.stringify((JSON.parse(existing) as { prediction: unknown }).prediction) !== JSON.stringify(line.prediction)) {
          throw new AnamnesisError("INVALID_ARGUMENT", `${suite}: ${format.describe(line)} has different predictions in two runs`);
        }
        merged.set(key, text);
      }
    }
    const sorted = [...merged.entries()].sort(([a], [b]) => {
      const [dialogueA, turnA] = a.split(":");
      const [dialogueB, turnB] = b.split(":");
      return dialogueA!.localeCompare(dialogueB!, "en", { numeric: true }) || Number(turnA) - Number(turnB);
    });
    const wanted = selectExamples(SUITES[suite].examples(dataset, first.split, first.protocol), first.limit ?? undefined).map((example) => example.key);
    const absent = wanted.filter((key) => !merged.has(key)).length;
    if (absent > 0) {
      if (!options.allowPartial) {
        const shards = coverage.of !== null && coverage.shards.length < coverage.of ? ` (shards given: ${coverage.shards.join(", ")} of ${coverage.of})` : "";
        throw new AnamnesisError("INVALID_ARGUMENT", `${suite}: ${absent} of ${wanted.length} examples are in none of the runs${shards}; merge every shard, finish the runs (run each again to resume), or pass --allow-partial`);
      }
      missing[suite] = absent;
    }
    writeFileAtomic(predictionsPath(outDir, suite), sorted.map(([, text]) => `${text}\n`).join(""));
    mergeRequestsFiles(requests.map(({ dir }) => dir), outDir, suite, new Map(sorted.map(([key], index) => [key, index])));
    counts.push(sorted.length);
  }
  const request: RunRequest = { ...first, suites: suites, shard: null };
  writeFileAtomic(join(outDir, "run.json"), `${toJsonText(request, 2)}\n`);
  const base = previous.find((results) => results !== undefined);
  const starts = previous.flatMap((results) => (results ? [results.started] : [])).sort();
  return scoreRunDirectory({
    dir: outDir,
    dataset,
    suites: suites,
    judge: await createAttributeJudge(first.judge),
    meta: {
      backend: first.backend,
      split: first.split,
      ...(isNoteDataset(dataset) ? { dataset: describeNoteData(dataset, first.split, first.limit !== null || counts.some((count) => count < noteSplit(dataset, first.split).length)) } : {}),
      protocol: { ...(base?.protocol ?? {}), merged_from: dirs },
      tuned_on_split: base?.tuned_on_split ?? null,
      prompt_versions: base?.prompt_versions ?? {},
      git_revision: base?.git_revision ?? null,
      started: starts[0] ?? new Date().toISOString(),
      limit: first.limit,
      shard: null,
      ...(Object.keys(missing).length > 0 ? { partial: { missing, shards: coverage.shards, of: coverage.of } } : {}),
    },
  });
}
