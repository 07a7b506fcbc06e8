import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "anamnesis-simulate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("anamnesis simulate", () => {
  it("runs whole histories and writes JSONL transcripts, results, a summary and report.html", async () => {
    const result = await runCli([
      "simulate",
      "--doctor",
      "embedded",
      "--cases",
      "uti,thunderclap-headache,115",
      "--out",
      dir,
      "--json",
    ]);
    expect(result.status).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({
      cases: 3,
      patients: { script: 2, profile: 1 },
      meanChecklistCoverage: expect.any(Number),
      redFlags: { expected: 1, caught: 1, falseAlarms: 0 },
      misnamed: [],
    });
    const results = readFileSync(join(dir, "results.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    // The library's thunderclap headache expects a subarachnoid haemorrhage: naming nothing is a missed diagnosis.
    expect(results.map((entry) => [entry.id, entry.patient, entry.expectedDiagnosis, entry.closing])).toEqual([
      ["uti", "script", "urinary tract infection", "right diagnosis"],
      ["thunderclap-headache", "script", "subarachnoid hemorrhage", "missed diagnosis"],
      ["115", "profile", "chronic bronchitis", "right diagnosis"],
    ]);
    const transcript = readFileSync(join(dir, "transcripts", "thunderclap-headache.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(transcript.some((line) => line.escalation?.includes("thunderclap_headache"))).toBe(true);
    expect(transcript[1]).toMatchObject({ speaker: "patient", revealed: expect.arrayContaining(["symptom:headache"]) });
    const html = readFileSync(join(dir, "report.html"), "utf8");
    expect(html).toContain("<caption>Per case</caption>");
    expect(html).toMatch(/mean OSCE checklist coverage of the doctor&#39;s questions<\/td><td>\d+\.\d %/);
    expect(html).not.toMatch(/<script|https?:\/\//);
    expect(existsSync(join(dir, "summary.json"))).toBe(true);
  });

  it("lets every case answer from its profile with --patient profile", async () => {
    const result = await runCli(["simulate", "--patient", "profile", "--cases", "uti", "--json"]);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      cases: 1,
      patients: { script: 0, profile: 1 },
      meanFactRecall: null,
    });
  });

  it.each([
    [["--patient", "openai:gpt-4o"], /--patient must be one of script, profile/],
    [["--cases", "nope"], /--cases: no case nope/],
    [["--max-turns", "0"], /--max-turns must be a positive integer/],
  ])("refuses %j with one line and exit code 2", async (args, message) => {
    const result = await runCli(["simulate", ...args]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});
