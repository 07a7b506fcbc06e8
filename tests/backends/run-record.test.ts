import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { UsageRecorder, gitRevision } from "../../src/backends/run-record.ts";
import { tempDirForTest } from "./helpers.ts";

describe("run records", () => {
  it("gitRevision is the HEAD commit inside a checkout and null outside", async () => {
    expect(await gitRevision(fileURLToPath(new URL("../..", import.meta.url)))).toMatch(/^[0-9a-f]{40}$/);
    expect(await gitRevision(tempDirForTest())).toBeNull();
  });

  it("gitRevision reads what git rev-parse HEAD says: loose and packed refs, a detached HEAD, a worktree, a subfolder", async () => {
    const repo = tempDirForTest();
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
        cwd: repo,
        encoding: "utf8",
      }).trim();
    // Each answer is compared with git's own, read with git off the PATH: from the files, not by asking git.
    const asGitSays = async (dir: string) => {
      const expected = execFileSync("git", ["rev-parse", "HEAD"], { cwd: dir, encoding: "utf8" }).trim();
      const path = process.env.PATH;
      process.env.PATH = "";
      try {
        expect(await gitRevision(dir)).toBe(expected);
      } finally {
        process.env.PATH = path;
      }
    };
    git("init", "-q", "-b", "main");
    writeFileSync(join(repo, "a.txt"), "1");
    git("add", "a.txt");
    git("commit", "-qm", "one");
    mkdirSync(join(repo, "sub"));
    await asGitSays(repo);
    await asGitSays(join(repo, "sub"));
    git("pack-refs", "--all");
    await asGitSays(repo);
    writeFileSync(join(repo, "a.txt"), "2");
    git("commit", "-qam", "two");
    git("worktree", "add", "-q", join(repo, "wt"), "HEAD~1");
    await asGitSays(join(repo, "wt"));
    git("worktree", "add", "-q", "-b", "side", join(repo, "wt-side"));
    await asGitSays(join(repo, "wt-side"));
    git("checkout", "-q", "--detach", "HEAD~1");
    await asGitSays(repo);
  });

  it("UsageRecorder sums requests and computes the format-error rate", () => {
    const seen: string[] = [];
    const recorder = new UsageRecorder({ onRecord: (record) => seen.push(record.operation) });
    const base = { backendId: "openai:m", inputTokens: 10, outputTokens: 5, latencyMs: 100, attempts: 1 };
    recorder.record({ ...base, operation: "object", cached: false });
    recorder.record({ ...base, operation: "repair", cached: true, attempts: 0 });
    recorder.recordObject({ repaired: true, formatError: true });
    recorder.recordObject({ repaired: false, formatError: false });
    expect(recorder.summary()).toEqual({
      requests: 2,
      cachedRequests: 1,
      inputTokens: 20,
      outputTokens: 10,
      latencyMs: 200,
      objects: 2,
      repaired: 1,
      formatErrors: 1,
      formatErrorRate: 0.5,
    });
    expect(seen).toEqual(["object", "repair"]);
    recorder.reset();
    expect(recorder.summary().requests).toBe(0);
  });
});
