import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/helpers.ts";

/**
 * `anamnesis merge` takes only the shards of one run, all of them, unless told a partial merge is
 * wanted — and then every output says so; a run folder keeps the results of every suite it holds.
 */

const scratch = mkdtempSync(join(tmpdir(), "anamnesis-merge-"));
const dir = (name: string) => join(scratch, name);
const bench = async (suite: string, out: string, extra: string[] = []) =>
  await runCli(["bench", "--suite", suite, "--split", "test", "--limit", "6", "--out", dir(out), ...extra]);

beforeAll(async () => {
  for (const [suite, out, extra] of [
    ["meditod-nlu", "nlu-1", ["--shard", "1/2"]],
    ["meditod-nlu", "nlu-2", ["--shard", "2/2"]],
    ["meditod-pol", "pol-2", ["--shard", "2/2"]],
    ["meditod-nlu", "nlu-valid-2", ["--shard", "2/2", "--split", "valid"]],
  ] as const) {
    const args = ["bench", "--suite", suite, "--split", "test", "--limit", "6", "--out", dir(out), ...extra];
    const result = await runCli(args);
    if (result.status !== 0) throw new Error(`${args.join(" ")}: ${result.stderr}`);
  }
  cpSync(dir("nlu-1"), dir("nlu-1-copy"), { recursive: true });
}, 120_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function refused(args: string[], message: RegExp): Promise<void> {
  const result = await runCli(["merge", ...args, "--out", dir("merged")]);
  expect(result.status).toBe(2);
  expect(result.stdout).toBe("");
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  expect(result.stderr).toMatch(message);
}

describe("anamnesis merge", () => {
  it("merges all the shards of one run", async () => {
    const merged = await runCli(["merge", dir("nlu-1"), dir("nlu-2"), "--out", dir("merged-whole"), "--json"]);
    expect(merged.status).toBe(0);
    expect(JSON.parse(merged.stdout).suites["meditod-nlu"].samples).toBeGreaterThan(0);
    expect(JSON.parse(merged.stdout).partial).toBeUndefined();
  });

  it("refuses a missing shard, naming what is missing", async () => {
    await refused(
      [dir("nlu-1")],
      /meditod-nlu: \d+ of \d+ examples are in none of the runs \(shards given: 1\/2 of 2\).*--allow-partial/,
    );
  });

  it("refuses the same shard twice, and the same directory twice", async () => {
    await refused([dir("nlu-1"), dir("nlu-1-copy")], /are the same shard 1\/2/);
    await refused([dir("nlu-1"), dir("nlu-1")], /is given twice/);
  });

  it("refuses shards of different suites or splits", async () => {
    await refused([dir("nlu-1"), dir("pol-2")], /differs .* in suites/);
    await refused([dir("nlu-1"), dir("nlu-valid-2")], /differs .* in split/);
  });

  it("with --allow-partial, merges and says so in every output: terminal, results.json, report.md, report.html", async () => {
    const result = await runCli(["merge", dir("nlu-1"), "--allow-partial", "--out", dir("partial")]);
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/warning: PARTIAL RUN .*shards 1\/2 of 2.*meditod-nlu \d+/);
    expect(result.stdout).toMatch(/^PARTIAL RUN/);
    const results = JSON.parse(readFileSync(join(dir("partial"), "results.json"), "utf8"));
    expect(results.partial).toMatchObject({ shards: ["1/2"], of: 2, missing: { "meditod-nlu": expect.any(Number) } });
    expect(readFileSync(join(dir("partial"), "report.md"), "utf8")).toMatch(/PARTIAL RUN/);
    expect(readFileSync(join(dir("partial"), "report.html"), "utf8")).toMatch(/PARTIAL RUN/);
  });
});

describe("a run folder", () => {
  it("keeps the results of every suite it holds when another suite is run into it", async () => {
    expect((await bench("meditod-nlu", "both")).status).toBe(0);
    const second = await bench("meditod-pol", "both", ["--json"]);
    expect(second.status).toBe(0);
    const results = JSON.parse(readFileSync(join(dir("both"), "results.json"), "utf8"));
    expect(Object.keys(results.suites).sort()).toEqual(["meditod-nlu", "meditod-pol"]);
    expect(JSON.parse(readFileSync(join(dir("both"), "run.json"), "utf8")).suites.sort()).toEqual([
      "meditod-nlu",
      "meditod-pol",
    ]);
  });
});
