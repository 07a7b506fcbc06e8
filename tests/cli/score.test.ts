import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./helpers.ts";

const scratch = mkdtempSync(join(tmpdir(), "anamnesis-cli-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface OfficialCase {
  task: "nlu" | "pol";
  name: string;
  lines: unknown[];
  official: Record<string, number>;
}
const cases = (
  JSON.parse(readFileSync(new URL("../fixtures/meditod-official-scores.json", import.meta.url), "utf8")) as {
    cases: OfficialCase[];
  }
).cases;

function writeRaw(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

function writeJsonl(name: string, lines: readonly unknown[]): string {
  const path = join(scratch, name);
  writeFileSync(path, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
  return path;
}

describe("anamnesis data stats", () => {
  it("prints the split counts as JSON", async () => {
    const result = await runCli(["data", "stats", "--json"]);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      meditod: {
        train: { dialogues: 1, utterances: 103, patient_turns: 51, doctor_turns: 52 },
        valid: { dialogues: 1, utterances: 107, patient_turns: 53, doctor_turns: 54 },
        test: { dialogues: 1, utterances: 149, patient_turns: 74, doctor_turns: 75 },
      },
    });
  });
});

describe("anamnesis score meditod-nlu / meditod-pol", () => {
  it("prints the official figures for perturbed NLU predictions", async () => {
    const testCase = cases.find((c) => c.task === "nlu" && c.name === "all-malformed-0.4")!;
    const result = await runCli([
      "score",
      "meditod-nlu",
      "--predictions",
      writeJsonl("nlu.jsonl", testCase.lines),
      "--json",
    ]);
    expect(result.stderr).toBe("");
    const scores = JSON.parse(result.stdout);
    expect(Object.keys(scores)).toEqual([
      "samples",
      "joint_accuracy",
      "format_errors",
      "overall",
      "medical",
      "non_medical",
    ]);
    expect(scores.samples).toBe(testCase.official.samples);
    expect(scores.format_errors).toBeCloseTo(testCase.official.format_errors!, 12);
    expect(scores.overall.f1).toBeCloseTo(testCase.official.f1!, 12);
    expect(scores.medical.f1).toBeCloseTo(testCase.official.canon_f1!, 12);
    expect(scores.non_medical.f1).toBeCloseTo(testCase.official.noncanon_f1!, 12);
  });

  it("prints F1 and Precision@K for policy predictions", async () => {
    const testCase = cases.find((c) => c.task === "pol" && c.name === "test-shifted-0.4")!;
    const result = await runCli([
      "score",
      "meditod-pol",
      "--predictions",
      writeJsonl("pol.jsonl", testCase.lines),
      "--json",
    ]);
    const scores = JSON.parse(result.stdout);
    expect(Object.keys(scores.precision_at)).toEqual(["1", "2", "4", "6", "8", "10", "inf"]);
    expect(scores.precision_at["1"]).toBeCloseTo(testCase.official["precision@1"]!, 12);
    expect(scores.precision_at["4"]).toBeCloseTo(testCase.official["precision@4"]!, 12);
    expect(scores.overall.f1).toBeCloseTo(testCase.official.f1!, 12);
  });

  it("prints a readable table without --json", async () => {
    const testCase = cases.find((c) => c.task === "pol" && c.name === "test-perturbed-0.15")!;
    const result = await runCli([
      "score",
      "meditod-pol",
      "--predictions",
      writeJsonl("pol-table.jsonl", testCase.lines),
    ]);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/MediTOD POL: 74 turns/);
    expect(result.stdout).toMatch(/P@inf/);
  });

  const errorCases: Array<[string, () => string[], RegExp]> = [
    [
      "a missing file",
      () => ["score", "meditod-nlu", "--predictions", join(scratch, "nope.jsonl")],
      /predictions file not found: .*nope\.jsonl/,
    ],
    [
      "a bad JSON line, with its number",
      () => [
        "score",
        "meditod-nlu",
        "--predictions",
        writeJsonl("bad.jsonl", [{ dialogue_id: "407", turn: 1, prediction: [] }, "{oops"]),
      ],
      /bad\.jsonl:2: /,
    ],
    [
      "an unknown dialogue",
      () => [
        "score",
        "meditod-nlu",
        "--predictions",
        writeJsonl("dialogue.jsonl", [{ dialogue_id: "999", turn: 1, prediction: [] }]),
      ],
      /dialogue\.jsonl:1: unknown dialogue '999'/,
    ],
    [
      "a turn of the wrong speaker",
      () => [
        "score",
        "meditod-nlu",
        "--predictions",
        writeJsonl("turn.jsonl", [{ dialogue_id: "407", turn: 2, prediction: [] }]),
      ],
      /turn\.jsonl:1: dialogue 407 turn 2 is not a patient turn/,
    ],
    [
      "the unscored opening doctor turn",
      () => [
        "score",
        "meditod-pol",
        "--predictions",
        writeJsonl("opening.jsonl", [{ dialogue_id: "407", turn: 0, prediction: [] }]),
      ],
      /opening doctor turn/,
    ],
    [
      "a turn past the end",
      () => [
        "score",
        "meditod-pol",
        "--predictions",
        writeJsonl("end.jsonl", [{ dialogue_id: "407", turn: 500, prediction: [] }]),
      ],
      /turn 500 .*does not exist/,
    ],
    [
      "a missing data directory",
      () => ["data", "stats", "--data", join(scratch, "no-data"), "--json"],
      /MediTOD data directory not found/,
    ],
    [
      "a directory given as the predictions file",
      () => ["score", "meditod-nlu", "--predictions", scratch],
      /predictions file .* is a directory, not a file/,
    ],
    [
      "an empty predictions file",
      () => ["score", "meditod-nlg", "--predictions", writeRaw("empty.jsonl", "\n\n")],
      /empty\.jsonl is empty: no JSON lines/,
    ],
    [
      "a duplicate turn, at the line it appears",
      () => [
        "score",
        "meditod-nlu",
        "--predictions",
        writeJsonl("twice.jsonl", [
          { dialogue_id: "407", turn: 1, prediction: [] },
          { dialogue_id: "407", turn: 1, prediction: [] },
          "{oops",
        ]),
      ],
      /twice\.jsonl:2: dialogue 407 turn 1 was already predicted on line 1/,
    ],
    [
      "a pairs file that is a directory",
      () => ["metrics", "corpus", "--input", scratch],
      /input file .* is a directory, not a file/,
    ],
    [
      "an empty pairs file",
      () => ["metrics", "pairs", "--input", writeRaw("empty-pairs.jsonl", "")],
      /empty-pairs\.jsonl is empty/,
    ],
    [
      "a file given as --out",
      () => ["bench", "--suite", "meditod-nlu", "--out", writeRaw("not-a-folder", "x")],
      /--out .*not-a-folder is a file, not a directory/,
    ],
    [
      "a file given as merge --out",
      () => ["merge", scratch, "--out", writeRaw("not-a-folder-2", "x")],
      /is not a run directory|--out .* is a file, not a directory/,
    ],
    [
      "a bad line after a byte-order mark, the mark not in the message",
      () => ["score", "meditod-nlu", "--predictions", writeRaw("bom-bad.jsonl", "\ufeff{oops\n")],
      /bom-bad\.jsonl:1: not valid JSON/,
    ],
  ];
  it("accepts a UTF-8 byte-order mark and CRLF line ends", async () => {
    const testCase = cases.find((c) => c.task === "nlu")!;
    const text = testCase.lines.map((line: unknown) => JSON.stringify(line)).join("\r\n");
    const plain = await runCli([
      "score",
      "meditod-nlu",
      "--json",
      "--predictions",
      writeJsonl("plain.jsonl", testCase.lines),
    ]);
    const marked = await runCli([
      "score",
      "meditod-nlu",
      "--json",
      "--predictions",
      writeRaw("bom.jsonl", `\ufeff${text}\r\n`),
    ]);
    expect(marked.stderr).toBe("");
    expect(marked.status).toBe(0);
    expect(JSON.parse(marked.stdout)).toEqual(JSON.parse(plain.stdout));
  });

  for (const [what, args, message] of errorCases) {
    it(`reports ${what} on one line with exit code 2`, async () => {
      const result = await runCli(args());
      expect(result.status).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    });
  }
});
