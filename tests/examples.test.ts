import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT, bundledPath } from "../src/foundation/package-paths.ts";

describe("examples/mock-provider", () => {
  it("passes the backend contract of anamnesis/testing", () => {
    const result = spawnSync(process.execPath, [bundledPath("examples", "mock-provider", "check.mjs")], {
      cwd: PACKAGE_ROOT,
      encoding: "utf8",
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines.filter((line) => line.startsWith("FAIL"))).toEqual([]);
    // Every check runs but logprobs, which the mock does not offer.
    expect(lines.filter((line) => line.startsWith("ok"))).toHaveLength(11);
    expect(lines.filter((line) => line.startsWith("skip"))).toEqual([
      "skip  returns token logprobs when it has the capability (no logprobs capability)",
    ]);
  });
});
