import {
  closeSync,
  existsSync,
  fsync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { AnamnesisError } from "../../src/foundation/errors.ts";
import { checkInputFile, forEachLine } from "../../src/data/input-file.ts";
import { visible } from "../../src/data/json-lines.ts";
import { MEDITOD_LINES, type PredictionLine, type PredictionsFormat } from "./predictions-file.ts";

/**
 * A run directory: `run.json` (what was asked), `predictions-<suite>.jsonl` (one line per finished
 * example, appended as soon as it is done, so a killed run loses at most the lines in flight),
 * `requests-<suite>.jsonl` (the exact request behind each line, when the modules report it), `results.json`,
 * `report.md`, `report.html`.
 */

export function predictionsPath(dir: string, suite: string): string {
  return join(dir, `predictions-${suite}.jsonl`);
}

/** The exact request of every prediction (messages and parameters), beside the predictions file. */
export function requestsPath(dir: string, suite: string): string {
  return join(dir, `requests-${suite}.jsonl`);
}

/**
 * Rewrites a requests file in the given key order, keeping one line per key that `order` has (the
 * last written: a resumed example may have been requested twice) and dropping a torn last line.
 */
export function rewriteRequestsFile(
  path: string,
  order: ReadonlyMap<string, number>,
  key: (line: Record<string, unknown>) => string,
): void {
  if (!existsSync(path)) return;
  const latest = new Map<string, string>();
  for (const row of readFileSync(path, "utf8").split("\n")) {
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(row) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (order.has(key(line))) latest.set(key(line), row);
  }
  const sorted = [...latest.entries()].sort(([a], [b]) => order.get(a)! - order.get(b)!);
  writeFileAtomic(path, sorted.map(([, row]) => `${row}\n`).join(""));
}

/**
 * Writes a file atomically (temp file, fsync, rename), so readers never see half of it, even after a crash.
 * `durable: false` skips the fsync for a file derived from others that a rerun rewrites (the scores and
 * reports): the rename still keeps a killed process from leaving half a file, and forcing each of them to
 * disk cost a third of the write time of `npm run bench`.
 */
export function writeFileAtomic(path: string, content: string, options: { durable?: boolean } = {}): void {
  const temporary = `${path}.${process.pid}.tmp`;
  const file = openSync(temporary, "w");
  try {
    writeFileSync(file, content);
    if (options.durable !== false) fsyncSync(file);
  } finally {
    closeSync(file);
  }
  renameSync(temporary, path);
}

/**
 * Writes a file atomically at once, as {@link writeFileAtomic}, but forces it to disk in the background:
 * the returned promise settles when it is durable. A run's `run.json` is written this way, so the
 * fsync (tens of milliseconds on a disk busy with other writes) overlaps the predictions instead of
 * delaying them; the run awaits it before it reports.
 */
export function writeFileAtomicSyncedLater(path: string, content: string): Promise<void> {
  writeFileAtomic(path, content, { durable: false });
  // Opened for writing ("r+", nothing truncated): Windows flushes a file only through a handle that may write.
  const file = openSync(path, "r+");
  return new Promise((resolve, reject) =>
    fsync(file, (error) => {
      closeSync(file);
      if (error) reject(error);
      else resolve();
    }),
  );
}

/** Where a suite's per-example transcripts go (the consultation suites'): `transcripts/<suite>/`. */
export function transcriptsPath(dir: string, suite: string): string {
  return join(dir, "transcripts", suite);
}

/** The files a run writes; `--restart` removes exactly these (and the transcripts folder), nothing else the directory may hold. */
export function clearRunDirectory(dir: string): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (
      /^(?:predictions|requests)-[a-z0-9-]+\.jsonl$/.test(name) ||
      ["run.json", "results.json", "report.md", "report.html"].includes(name)
    )
      rmSync(join(dir, name));
  }
  rmSync(join(dir, "transcripts"), { recursive: true, force: true });
}

export function ensureDirectory(dir: string): void {
  mkdirSync(dir, { recursive: true });
}

/**
 * The finished lines of an interrupted run. A torn last line (the process died mid-write) is dropped
 * and the file rewritten without it; any other malformed line is an error, since it means the file
 * was edited by hand.
 */
export function readFinishedLines(path: string): PredictionLine[];
export function readFinishedLines<T extends { prediction: unknown }>(
  path: string,
  format: PredictionsFormat<T>,
): Array<T & { line: number }>;
export function readFinishedLines(
  path: string,
  format: PredictionsFormat = MEDITOD_LINES,
): Array<{ prediction: unknown; line: number }> {
  if (!existsSync(path)) return [];
  const lines: Array<{ prediction: unknown; line: number }> = [];
  // Read as a stream (a run's file may be larger than one string can hold); a bad line is only
  // forgiven if nothing but blank lines follows it.
  let bad: number | null = null;
  forEachLine(path, "predictions file", (row, line) => {
    if (row.trim() === "") return;
    if (bad !== null)
      throw new AnamnesisError(
        "INVALID_JSON",
        `${path}:${bad}: not a predictions line; fix or delete the file to resume`,
      );
    let parsed;
    try {
      parsed = format.schema.safeParse(JSON.parse(row));
    } catch {
      parsed = undefined;
    }
    if (parsed?.success) lines.push({ ...parsed.data, line });
    else bad = line;
  });
  if (bad !== null) writeFileAtomic(path, lines.map((line) => `${JSON.stringify(withoutLineNumber(line))}\n`).join(""));
  return lines;
}

/** Whether the file at `path` holds exactly `content` (read only when the sizes agree). */
export function fileHolds(path: string, content: string): boolean {
  return (
    existsSync(path) && statSync(path).size === Buffer.byteLength(content) && readFileSync(path, "utf8") === content
  );
}

export function withoutLineNumber<L extends { line: number }>(line: L): Omit<L, "line"> {
  const { line: _line, ...rest } = line;
  return rest;
}

export function readJsonFile<T>(path: string): T | undefined {
  if (!existsSync(path)) return undefined;
  checkInputFile(path, "file");
  try {
    return JSON.parse(readFileSync(path, "utf8").replace(/^\ufeff/, "")) as T;
  } catch (error) {
    throw new AnamnesisError("INVALID_JSON", `${path} is not valid JSON (${visible((error as Error).message)})`);
  }
}
