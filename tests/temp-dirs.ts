/**
 * Temporary directories for tests, each removed by whoever owns its lifetime: the caller
 * ({@link tempDir}), the current test ({@link tempDirForTest}) or the test file ({@link tempDirForFile}),
 * whether the tests pass or fail.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, onTestFinished } from "vitest";

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(prefix = "anamnesis-test-"): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A fresh temporary directory, removed when the current test finishes. Call it inside a test. */
export function tempDirForTest(prefix?: string): string {
  const dir = tempDir(prefix);
  onTestFinished(dir.remove);
  return dir.path;
}

/** A fresh temporary directory, removed after the last test of the file (or suite) it is created in. */
export function tempDirForFile(prefix?: string): string {
  const dir = tempDir(prefix);
  afterAll(dir.remove);
  return dir.path;
}
