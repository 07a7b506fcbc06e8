import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, startCli } from "../cli/helpers.ts";
import { tempDirForFile } from "../temp-dirs.ts";

/**
 * A consultation run killed mid-way resumes where it stopped and ends with the same results as one never
 * stopped; run in shards, it merges into the same results, with every case's transcripts.
 */

const scratch = tempDirForFile("anamnesis-consult-resume-");
const args = (out: string) => ["bench", "--suite", "consult-mediq", "--limit", "8", "--out", out, "--json"];

/** The predictions lines on disk. */
const saved = (out: string) => {
  const path = join(out, "predictions-consult-mediq.jsonl");
  return existsSync(path)
    ? readFileSync(path, "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "").length
    : 0;
};

describe("resuming a killed consultation run", () => {
  it("keeps the finished cases, plays the rest, and scores exactly as an uninterrupted run", async () => {
    const whole = await runCli(args(join(scratch, "whole")));
    expect(whole.status).toBe(0);

    const out = join(scratch, "killed");
    const first = startCli([...args(out), "--concurrency", "1"]);
    const deadline = Date.now() + 120_000;
    while (saved(out) < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    first.kill();
    expect((await first.done).status).not.toBe(0);
    const before = saved(out);
    expect(before).toBeGreaterThanOrEqual(3);
    expect(before).toBeLessThan(8);

    const second = await runCli(args(out));
    expect(second.status).toBe(0);
    const resumed = JSON.parse(second.stdout);
    expect(resumed.runs["consult-mediq"]).toMatchObject({ predicted: 8, resumed: before });
    expect(resumed.suites).toEqual(JSON.parse(whole.stdout).suites);
    // The predictions files are the same, line for line, once the resumed run has put them in order.
    const lines = (dir: string) =>
      readFileSync(join(dir, "predictions-consult-mediq.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).prediction);
    expect(lines(out)).toEqual(lines(join(scratch, "whole")));
  });

  it("runs in shards that merge into the same scores, with every case's transcripts", async () => {
    const whole = join(scratch, "whole");
    if (!existsSync(join(whole, "results.json"))) expect((await runCli(args(whole))).status).toBe(0);
    for (const shard of ["1/2", "2/2"])
      expect((await runCli([...args(join(scratch, `shard-${shard[0]}`)), "--shard", shard])).status).toBe(0);
    const merged = join(scratch, "merged");
    const merge = await runCli([
      "merge",
      join(scratch, "shard-1"),
      join(scratch, "shard-2"),
      "--out",
      merged,
      "--json",
    ]);
    expect(merge.status).toBe(0);
    expect(JSON.parse(merge.stdout).suites).toEqual(
      JSON.parse(readFileSync(join(whole, "results.json"), "utf8")).suites,
    );
    for (const arm of ["floor", "doctor", "ceiling"])
      expect(readdirSync(join(merged, "transcripts", "consult-mediq", arm))).toHaveLength(8);
  });
});
