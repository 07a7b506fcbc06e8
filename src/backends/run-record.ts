/**
 * Run-record support: per-request usage and latency, the per-run format-error rate, and the header
 * that identifies the backend and code revision. Nothing here ever holds an API key: backends expose
 * only non-secret `parameters`, and base URLs are stripped of credentials before they get there.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import type { ChatBackend } from "./spec.ts";
import { importExternal } from "../foundation/external-import.ts";

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

/** A commit id, SHA-1 or SHA-256: `4f1c…` (40 or 64 hex digits). */
const COMMIT_ID = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/;
/** A symbolic HEAD: `ref: refs/heads/main`. */
const SYMBOLIC_REF = /^ref: (refs\/\S+)$/;
/** A `.git` file that points elsewhere (worktrees, submodules): `gitdir: /repo/.git/worktrees/wt`. */
const GITDIR_POINTER = /^gitdir: (.+)$/;

/** The git directory of the checkout holding `dir`, looked for upwards, as git does; null outside one. */
function findGitDirectory(dir: string): string | null {
  for (let current = resolve(dir); ; current = dirname(current)) {
    const candidate = join(current, ".git");
    if (existsSync(candidate)) {
      if (statSync(candidate).isDirectory()) return candidate;
      const pointer = GITDIR_POINTER.exec(readFileSync(candidate, "utf8").trim());
      return pointer ? resolve(current, pointer[1]!) : null;
    }
    if (dirname(current) === current) return null;
  }
}

/** A ref's commit: its loose file (in the worktree's own directory, then the shared one), else packed-refs. */
function readRef(gitDir: string, commonDir: string, ref: string): string | undefined {
  for (const dir of gitDir === commonDir ? [gitDir] : [gitDir, commonDir]) {
    const loose = join(dir, ref);
    if (existsSync(loose)) return readFileSync(loose, "utf8").trim();
  }
  const packed = join(commonDir, "packed-refs");
  if (!existsSync(packed)) return undefined;
  for (const line of readFileSync(packed, "utf8").split("\n")) {
    const [id, name] = line.split(" ");
    if (name === ref) return id;
  }
  return undefined;
}

/**
 * HEAD's commit read from the git directory's files, without starting git (a child process was the
 * largest single cost of `npm run bench`'s start). Null outside a checkout; undefined for a layout
 * this does not read (GIT_DIR set, a reftable repository, a ref it cannot find): then git is asked.
 */
function revisionFromFiles(cwd: string): string | null | undefined {
  if (process.env.GIT_DIR !== undefined) return undefined;
  const gitDir = findGitDirectory(cwd);
  if (gitDir === null) return null;
  const commonFile = join(gitDir, "commondir");
  const commonDir = existsSync(commonFile) ? resolve(gitDir, readFileSync(commonFile, "utf8").trim()) : gitDir;
  const head = readFileSync(join(gitDir, "HEAD"), "utf8").trim();
  const symbolic = SYMBOLIC_REF.exec(head);
  const id = symbolic ? readRef(gitDir, commonDir, symbolic[1]!) : head;
  return id !== undefined && COMMIT_ID.test(id) ? id : undefined;
}

/** The HEAD commit of the checkout holding `cwd` (default: the current directory), or null outside one. */
export async function gitRevision(cwd: string = process.cwd()): Promise<string | null> {
  try {
    const fromFiles = revisionFromFiles(cwd);
    if (fromFiles !== undefined) return fromFiles;
  } catch {
    // An unreadable git directory: git itself decides below.
  }
  try {
    // Loaded only here, so library code that never asks git does not start child_process (and net).
    const { execFile } = await importExternal<typeof import("node:child_process")>("node:child_process");
    const { stdout } = await promisify(execFile)("git", ["rev-parse", "HEAD"], { cwd, timeout: 5_000 });
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
