/**
 * Run-record support: per-request usage and latency, the per-run format-error rate, and the header
 * that identifies the backend and code revision. Nothing here ever holds an API key: backends expose
 * only non-secret `parameters`, and base URLs are stripped of credentials before they get there.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { ChatBackend } from "./spec.ts";

export type RequestOperation = "generate" | "object" | "repair" | "embed" | "logprobs" | "loglikelihood";

/** One request to a model (or one cache hit standing in for it). */
export interface RequestRecord {
  readonly backendId: string;
  readonly operation: RequestOperation;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly latencyMs: number;
  readonly cached: boolean;
  /** Attempts made (1 without retries; 0 for a cache hit). */
  readonly attempts: number;
}

export interface UsageSummary {
  readonly requests: number;
  readonly cachedRequests: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly latencyMs: number;
  /** `generateObject` results, those that needed a repair request, and those that ended in a format error. */
  readonly objects: number;
  readonly repaired: number;
  readonly formatErrors: number;
  /** formatErrors / objects (0 when there were none). */
  readonly formatErrorRate: number;
}

/**
 * Collects request records and object outcomes. Every backend has one (`createBackend` option
 * `recorder`); pass a fresh recorder per run to get per-run numbers, or share one across backends.
 */
export class UsageRecorder {
  readonly records: RequestRecord[] = [];
  #objects = 0;
  #repaired = 0;
  #formatErrors = 0;
  readonly #listener: ((record: RequestRecord) => void) | undefined;

  constructor(options: { onRecord?: (record: RequestRecord) => void } = {}) {
    this.#listener = options.onRecord;
  }

  record(record: RequestRecord): void {
    this.records.push(record);
    this.#listener?.(record);
  }

  recordObject(outcome: { repaired: boolean; formatError: boolean }): void {
    this.#objects++;
    if (outcome.repaired) this.#repaired++;
    if (outcome.formatError) this.#formatErrors++;
  }

  summary(): UsageSummary {
    let inputTokens = 0;
    let outputTokens = 0;
    let latencyMs = 0;
    let cachedRequests = 0;
    for (const record of this.records) {
      inputTokens += record.inputTokens;
      outputTokens += record.outputTokens;
      latencyMs += record.latencyMs;
      if (record.cached) cachedRequests++;
    }
    return {
      requests: this.records.length,
      cachedRequests,
      inputTokens,
      outputTokens,
      latencyMs,
      objects: this.#objects,
      repaired: this.#repaired,
      formatErrors: this.#formatErrors,
      formatErrorRate: this.#objects === 0 ? 0 : this.#formatErrors / this.#objects,
    };
  }

  reset(): void {
    this.records.length = 0;
    this.#objects = 0;
    this.#repaired = 0;
    this.#formatErrors = 0;
  }
}

const run = promisify(execFile);

/** `git rev-parse HEAD` of `cwd` (default: the current directory), or null outside a git checkout. */
export async function gitRevision(cwd: string = process.cwd()): Promise<string | null> {
  try {
    const { stdout } = await run("git", ["rev-parse", "HEAD"], { cwd, timeout: 5_000 });
    const revision = stdout.trim();
    return /^[0-9a-f]{7,64}$/.test(revision) ? revision : null;
  } catch {
    return null;
  }
}

export interface RunHeader {
  readonly backend: Pick<
    ChatBackend,
    "specificationVersion" | "id" | "provider" | "model" | "capabilities" | "parameters"
  >;
  readonly gitRevision: string | null;
}

/** The run-record header: backend id, model, parameters (no secrets) and the git revision. */
export async function describeBackend(backend: ChatBackend, options: { cwd?: string } = {}): Promise<RunHeader> {
  return {
    backend: {
      specificationVersion: backend.specificationVersion,
      id: backend.id,
      provider: backend.provider,
      model: backend.model,
      capabilities: backend.capabilities,
      parameters: backend.parameters,
    },
    gitRevision: await gitRevision(options.cwd),
  };
}
