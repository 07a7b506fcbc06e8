import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/helpers.ts";

/** The embedded engine's figures on dialogues it was shaped on say so beside them, in every output. */

const scratch = mkdtempSync(join(tmpdir(), "anamnesis-tuned-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("tuned-on-this-split label", () => {
  it("marks the valid split (dialogue 317) in results.json, the terminal table, report.md and the report's chart", async () => {
    const out = join(scratch, "valid");
    const run = await runCli(["bench", "--split", "valid", "--out", out]);
    expect(run.status).toBe(0);
    for (const suite of ["meditod-nlu", "meditod-pol", "meditod-nlg"])
      expect(run.stdout).toMatch(new RegExp(`^${suite} .*\\(tuned on this split\\)$`, "m"));
    const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
    expect(results.tuned_on_split).toBe(
      "tuned on this split: the lexicon, the plan and the wording were shaped while reading dialogue 317",
    );
    expect(readFileSync(join(out, "report.md"), "utf8")).toContain("| **this run** (embedded, tuned on this split) |");
    expect(readFileSync(join(out, "report.html"), "utf8")).toMatch(
      /<svg[^]*this run \(embedded, tuned on this split\)[^]*<\/svg>/,
    );
  });

  it("leaves the test split unmarked", async () => {
    const run = await runCli(["bench", "--suite", "meditod-nlu", "--out", join(scratch, "test"), "--json"]);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).tuned_on_split).toBeNull();
  });
});
