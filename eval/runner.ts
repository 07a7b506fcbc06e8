import { existsSync } from "node:fs";
import { join } from "node:path";
import { AnamnesisError } from "../src/foundation/errors.ts";
import { exactJudge, type AttributeJudge } from "../src/metrics/attribute-judge.ts";
import type { ModelMetricRequest } from "../src/metrics/model-metrics/model-metrics.ts";
import { gitRevision } from "../src/backends/run-record.ts";
import type { ProtocolName } from "../src/modules/builders/modules-for-protocol.ts";
import { toJsonText } from "../src/data/json-lines.ts";
import type { BenchDataset } from "./shared/bench-dataset.ts";
import type { BenchResults } from "./shared/bench-results.ts";
import { predictSuite, type ProgressEvent } from "./predict-suite.ts";
import { tunedOnSplit } from "./shared/protocol-label.ts";
import { SUITE_REGISTRY, type SuiteId } from "./registry.ts";
import { ensureDirectory, predictionsPath, readJsonFile, writeFileAtomicSyncedLater } from "./shared/run-directory.ts";
import { scoreRunDirectory } from "./score-run-directory.ts";
import type { SuiteRegistry } from "./suite-registry.ts";
import type { SuiteModules } from "./shared/suite-modules.ts";

/**
 * The benchmark runner: predicts every example of the chosen suites with a set of modules, writes
 * predictions files in exactly the `anamnesis score` format (plus what each call cost), scores them by
 * reading those files back — so re-scoring a predictions file reproduces results.json — and writes
 * the reports. Runs resume: lines already in the directory are kept and never requested again.
 */

export type { BenchResults, ProgressEvent };

/** One of n interleaved parts of a run: every n-th example, starting at the index-th. */
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
  /** Suite ids; read back from a folder, they may name suites no longer registered. */
  readonly suites: readonly string[];
  readonly limit: number | null;
  readonly shard: string | null;
  readonly judge: string;
  readonly data_dir: string;
  /** The suites' family's own settings (the consultation suites' patient and limits); absent for the others. */
  readonly suite_settings?: Readonly<Record<string, unknown>>;
}

/** What {@link runBench} runs: suites, dataset, modules, run directory and limits. */
export interface BenchOptions {
  readonly suites: readonly SuiteId[];
  readonly modules: SuiteModules;
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
  /** Where the suites' model-based metrics come from (BERTScore, BLEURT); none when absent. */
  readonly models?: ModelMetricRequest;
  /** Template version and hash per module, e.g. `{ nlu: "nlu.v1#6234834aac46" }`. */
  readonly promptVersions?: Record<string, string>;
  /** Extra protocol facts (retrieval, exemplars, token budget). */
  readonly protocol?: Record<string, unknown>;
  readonly signal?: AbortSignal;
  readonly onProgress?: (event: ProgressEvent) => void;
  /** Where the suite ids are looked up: the suites the runner ships unless given. */
  readonly registry?: SuiteRegistry;
  /** The suites' family's own settings, recorded in run.json and checked when a run resumes. */
  readonly suiteSettings?: Readonly<Record<string, unknown>>;
}

/** `i/n`, e.g. `2/4`. */
const SHARD = /^(\d+)\/(\d+)$/;

/** Parses `i/n` (1 ≤ i ≤ n). */
export function parseShard(text: string): Shard {
  const match = SHARD.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count)
    throw new AnamnesisError("INVALID_ARGUMENT", `--shard must be i/n with 1 ≤ i ≤ n, e.g. 1/4 (got '${text}')`);
  return { index, count };
}

/** The examples a run covers: the first `limit` of the split, then every n-th for shard i/n. */
export function selectExamples<T>(examples: readonly T[], limit?: number, shard?: Shard): T[] {
  const limited = limit !== undefined ? examples.slice(0, limit) : [...examples];
  return shard ? limited.filter((_, index) => index % shard.count === shard.index - 1) : limited;
}

function checkResumable(dir: string, request: RunRequest): void {
  const previous = readJsonFile<RunRequest>(join(dir, "run.json"));
  if (!previous) return;
  const keys = ["backend", "protocol", "split", "limit", "shard", "data_dir", "suite_settings"] as const;
  const changed = keys.filter((key) => JSON.stringify(previous[key]) !== JSON.stringify(request[key]));
  if (changed.length > 0) {
    const what = changed
      .map((key) => `${key} ${JSON.stringify(previous[key])} → ${JSON.stringify(request[key])}`)
      .join(", ");
    throw new AnamnesisError("INVALID_ARGUMENT", `${dir} holds another run (${what}); use another --out or delete it`);
  }
}

/**
 * Writes run.json for the run, after checking that the directory holds no other run. A folder keeps
 * every suite it holds: a run of other suites into it adds to them, never drops them.
 */
function startRun(
  options: BenchOptions,
  judge: AttributeJudge,
  registry: SuiteRegistry,
): { request: RunRequest; durable: Promise<void> } {
  const held = (readJsonFile<RunRequest>(join(options.outDir, "run.json"))?.suites ?? []).filter(
    (id) => registry.get(id) !== undefined && existsSync(predictionsPath(options.outDir, id)),
  );
  const request: RunRequest = {
    backend: options.backend.id,
    ...(options.protocolName ? { protocol: options.protocolName } : {}),
    ...(options.protocol ? { protocol_details: options.protocol } : {}),
    ...(options.backend.parameters ? { backend_parameters: options.backend.parameters } : {}),
    split: options.split,
    suites: [...new Set([...held, ...options.suites])],
    limit: options.limit ?? null,
    shard: options.shard ? `${options.shard.index}/${options.shard.count}` : null,
    judge: judge.id,
    data_dir: options.dataset.dir,
    ...(options.suiteSettings ? { suite_settings: options.suiteSettings } : {}),
  };
  ensureDirectory(options.outDir);
  checkResumable(options.outDir, request);
  const durable = writeFileAtomicSyncedLater(join(options.outDir, "run.json"), `${toJsonText(request, 2)}\n`);
  return { request, durable };
}

/** What results.json records besides the scores: the backend, data, protocol, prompts and when. */
async function runRecord(
  options: BenchOptions,
  request: RunRequest,
  registry: SuiteRegistry,
  started: string,
): Promise<Omit<BenchResults, "suites" | "runs" | "finished">> {
  const source = registry.dataset(registry.dataOf(request.suites));
  return {
    backend: options.backend.id,
    split: options.split,
    ...(source.describeRun
      ? {
          dataset: source.describeRun(
            options.dataset,
            options.split,
            options.limit !== undefined || options.shard !== undefined,
          ),
        }
      : {}),
    protocol: {
      ...Object.fromEntries(request.suites.map((id) => [id, registry.get(id)!.protocol])),
      judge: request.judge,
      ...options.protocol,
    },
    tuned_on_split: tunedOnSplit(options.backend.id, options.dataset, options.split),
    prompt_versions: options.promptVersions ?? {},
    git_revision: await gitRevision(),
    started,
    limit: options.limit ?? null,
    shard: request.shard,
  };
}

/** Runs the benchmark; see the module comment. */
export async function runBench(options: BenchOptions): Promise<BenchResults<SuiteId>> {
  if (options.suites.length === 0) throw new AnamnesisError("INVALID_ARGUMENT", "runBench needs at least one suite");
  const started = new Date().toISOString();
  const judge = options.judge ?? exactJudge;
  const registry = options.registry ?? SUITE_REGISTRY;
  const { request, durable } = startRun(options, judge, registry);
  // Awaited after the predictions; a failure to sync must not go unhandled if a prediction fails first.
  durable.catch(() => undefined);
  const run = {
    outDir: options.outDir,
    modules: options.modules,
    concurrency: options.concurrency ?? 8,
    signal: options.signal,
    onProgress: options.onProgress,
  };
  const resumed: Partial<Record<SuiteId, number>> = {};
  for (const id of options.suites) {
    const suite = registry.get(id)!;
    const examples = selectExamples(
      suite.examples(options.dataset, options.split, options.protocolName),
      options.limit,
      options.shard,
    );
    resumed[id] = await predictSuite(suite, examples, run);
  }
  await durable;
  return scoreRunDirectory({
    dir: options.outDir,
    dataset: options.dataset,
    suites: request.suites,
    registry,
    judge,
    ...(options.models ? { models: options.models } : {}),
    resumed,
    meta: await runRecord(options, request, registry, started),
  });
}
