import { spawnSync } from "node:child_process";
import { PACKAGE_ROOT } from "../../src/foundation/package-paths.ts";

/**
 * vitest global setup: brings the build (dist/) up to date before any test runs, so tests that spawn
 * `bin/anamnesis.js` run the code as it is now, not a stale build. It runs `npm run build` itself, so
 * the build has one definition: incremental tsc for the declarations, then esbuild's bundle (well
 * under a second). With nothing changed this takes a few seconds.
 */
export default function buildOnce(): void {
  // Under `npm test`, npm says where its own CLI is; otherwise `npm` from the PATH.
  const npm = process.env.npm_execpath;
  const [command, args] =
    npm && npm.endsWith(".js")
      ? [process.execPath, [npm, "run", "--silent", "build"]]
      : ["npm", ["run", "--silent", "build"]];
  const result = spawnSync(command, args, { cwd: PACKAGE_ROOT, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`the build (npm run build) failed:\n${result.stdout}${result.stderr}`);
}
