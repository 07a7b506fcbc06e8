import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../../src/foundation/package-paths.ts";

/** What the build reads (package.json "build", tsconfig.build.json; the ontology it validates). */
const BUILD_INPUTS = [
  "index.ts",
  "src",
  "eval",
  "server",
  "cli",
  "ontology",
  "package.json",
  "tsconfig.json",
  "tsconfig.build.json",
];
/**
 * esbuild's bundle, which rewrites every file each time, and the validated ontology written after it
 * (the build's last step): newer than every input means a whole build ran after the last change.
 */
const BUILD_OUTPUTS = [
  "dist/bundle/cli.js",
  "dist/bundle/cli.cjs",
  "dist/bundle/anamnesis.js",
  "dist/bundle/testing.js",
  "dist/ontology-validated/manifest.json",
  "dist/nlu-snapshot/manifest.json",
];

/** The newest modification time under `path`: a file, or a folder walked whole. */
function newestModification(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestModification(join(path, entry)));
  return newest;
}

/** True when every output exists and is newer than every input: `npm ci` has just built, or nothing changed since. */
function buildIsCurrent(): boolean {
  const outputs = BUILD_OUTPUTS.map((file) => join(PACKAGE_ROOT, file));
  if (!outputs.every((file) => existsSync(file))) return false;
  const oldestOutput = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  const newestInput = Math.max(...BUILD_INPUTS.map((input) => newestModification(join(PACKAGE_ROOT, input))));
  return newestInput < oldestOutput;
}

/**
 * vitest global setup: brings the build (dist/) up to date before any test runs, so tests that run
 * the compiled CLI run the code as it is now, not a stale build. It runs `npm run build` itself, so
 * the build has one definition (incremental tsc for the declarations, then esbuild's bundle), and
 * skips it when the outputs are newer than every input: tsc's own up-to-date check costs about 7 s
 * of CPU, which every `npm test` after `npm ci` paid for nothing.
 */
export default function buildOnce(): void {
  if (buildIsCurrent()) return;
  // Under `npm test`, npm says where its own CLI is; otherwise `npm` from the PATH.
  const npm = process.env.npm_execpath;
  const [command, args] =
    npm && npm.endsWith(".js")
      ? [process.execPath, [npm, "run", "--silent", "build"]]
      : ["npm", ["run", "--silent", "build"]];
  const result = spawnSync(command, args, { cwd: PACKAGE_ROOT, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`the build (npm run build) failed:\n${result.stdout}${result.stderr}`);
}
