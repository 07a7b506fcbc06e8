import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "anamnesis-simulate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("anamnesis simulate", () => {
  it("runs whole histories and writes JSONL transcripts, results, a summary and report.html", () => {
    const result = runCli([
      "simulate",
      "--doctor",
      "embedded",
      "--patient",
      "simulated",
      "--cases",
      "uti,meningitis,115",
      "--out",
      dir,
      "--json",
    ]);
    expect(result.status).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ cases: 3, redFlags: { expected: 1, caught: 1 }, contradicted: [] });
    const results = readFileSync(join(dir, "results.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(results.map((entry) => [entry.id, entry.closing])).toEqual([
      ["uti", "right diagnosis"],
      ["meningitis", "honest none"],
      ["115", "right diagnosis"],
    ]);
    const transcript = readFileSync(join(dir, "transcripts", "meningitis.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(transcript.some((line) => line.escalation?.includes("fever_headache_stiff_neck"))).toBe(true);
    const html = readFileSync(join(dir, "report.html"), "utf8");
    expect(html).toContain("<caption>Per case</caption>");
    expect(html).not.toMatch(/<script|https?:\/\//);
    expect(existsSync(join(dir, "summary.json"))).toBe(true);
  });

  it.each([
    [["--patient", "openai:gpt-4o"], /--patient must be one of simulated/],
    [["--cases", "nope"], /--cases: no case nope/],
    [["--max-turns", "0"], /--max-turns must be a positive integer/],
  ])("refuses %j with one line and exit code 2", (args, message) => {
    const result = runCli(["simulate", ...args]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});
