import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { PACKAGE_ROOT } from "../../src/package-paths.ts";

/**
 * vitest global setup: brings the compiled build (dist/) up to date before any test runs, so tests that
 * spawn `bin/anamnesis.js` run the code as it is now, not a stale build. tsc is incremental: with
 * nothing changed this takes a couple of seconds.
 */
export default function buildOnce(): void {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: PACKAGE_ROOT, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`the build (npm run build) failed:\n${result.stdout}${result.stderr}`);
}
