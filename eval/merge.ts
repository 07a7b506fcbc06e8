import { join } from "node:path";
import { AnamnesisError } from "../src/errors.ts";
import { createAttributeJudge } from "../src/backends/index.ts";
import { noteSplit } from "../src/data/note-dataset.ts";
import { readLinesOf } from "./predictions-file.ts";
import { toJsonText } from "../src/data/json-lines.ts";
import { ensureDirectory, predictionsPath, readJsonFile, requestsPath, rewriteRequestsFile, withoutLineNumber, writeFileAtomic } from "./run-directory.ts";
import { existsSync, readFileSync } from "node:fs";
import { scoreRunDirectory, type BenchResults, type RunRequest } from "./runner.ts";
import { describeNoteData, isNoteDataset } from "./note-suites.ts";
import { loadBenchDataset, MEDITOD_SUITES, NOTE_SUITES, suiteData, SUITES, type SuiteId } from "./suites.ts";

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
 * suite, then scored as one run. The runs must share backend, protocol, split, limit and data; an example
 * predicted twice must have the same prediction.
 */
export async function mergeRunDirectories(dirs: readonly string[], outDir: string, dataDir?: string): Promise<BenchResults> {
  if (dirs.length === 0) throw new AnamnesisError("INVALID_ARGUMENT", "merge needs at least one run directory");
  const requests = dirs.map((dir) => ({ dir, request: readJsonFile<RunRequest>(join(dir, "run.json"))! }));
  const first = requests[0]!.request;
  for (const { dir, request } of requests) {
    // Runs of different protocols answer different prompts (and the official NLU has fewer turns): never one run.
    for (const key of ["backend", "protocol", "split", "limit", "data_dir", "judge"] as const) {
      if (JSON.stringify(request[key]) !== JSON.stringify(first[key])) {
        throw new AnamnesisError("INVALID_ARGUMENT", `${dir} differs from ${requests[0]!.dir} in ${key}: ${JSON.stringify(request[key])} vs ${JSON.stringify(first[key])}`);
      }
    }
  }
  const previous = dirs.map((dir) => readJsonFile<BenchResults>(join(dir, "results.json")));
  const suites = [...MEDITOD_SUITES, ...NOTE_SUITES].filter((suite) => requests.some(({ request }) => request.suites.includes(suite)));
  const data = suiteData(suites);
  ensureDirectory(outDir);
  const counts: number[] = [];
  for (const suite of suites) {
    const merged = new Map<string, string>();
    for (const { dir, request } of requests) {
      if (!request.suites.includes(suite)) continue;
      const format = SUITES[suite].format;
      for (const line of readLinesOf(predictionsPath(dir, suite), format)) {
        const key = format.key(line);
        const text = JSON.stringify(withoutLineNumber(line));
        const existing = merged.get(key);
        if (existing !== undefined && JSON.stringify(JSON.parse(existing).prediction) !== JSON.stringify(line.prediction)) {
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
    writeFileAtomic(predictionsPath(outDir, suite), sorted.map(([, text]) => `${text}\n`).join(""));
    mergeRequestsFiles(requests.map(({ dir }) => dir), outDir, suite, new Map(sorted.map(([key], index) => [key, index])));
    counts.push(sorted.length);
  }
  const request: RunRequest = { ...first, suites: suites as SuiteId[], shard: null };
  writeFileAtomic(join(outDir, "run.json"), `${toJsonText(request, 2)}\n`);
  const dataset = loadBenchDataset(data, dataDir ?? first.data_dir);
  const base = previous.find((results) => results !== undefined);
  const starts = previous.flatMap((results) => (results ? [results.started] : [])).sort();
  return scoreRunDirectory({
    dir: outDir,
    dataset,
    suites: suites as SuiteId[],
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
    },
  });
}
