import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { bundledPath } from "../../src/foundation/package-paths.ts";

/** Runs a bench script as its usage says (`npx tsx bench/<script>`), through tsx's loader. */
function runScript(script: string, args: readonly string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", bundledPath("bench", script), ...args], {
    encoding: "utf8",
    cwd: bundledPath(),
  });
}

describe("the bench scripts' arguments", () => {
  it("--help prints the script's usage and exits 0", () => {
    const result = runScript("measurements.ts", ["--help"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("npx tsx bench/measurements.ts [--only NAME,…]");
    expect(result.stderr).toBe("");
  });

  it("an unknown option is one line and exit 2, not a stack trace", () => {
    const result = runScript("nlu-latency.ts", ["--bogus"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe("nlu-latency.ts: Unknown option '--bogus' (--help for usage)\n");
  });
});
