import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadMtsDialog } from "../../src/data/mts-dialog.ts";
import { loadPromptTemplate } from "../../src/modules/prompting/prompt-template.ts";
import { Bm25Index } from "../../src/retrieval/bm25.ts";
import { scoreTaskA } from "../../eval/suites/mediqa-chat/task-a-scores.ts";
import type { ChatCall, Reply } from "../../test-support/fake-llm-server.ts";
import { fakeServerForTest } from "../backends/helpers.ts";
import { runCli } from "../cli/helpers.ts";
import { tempDirForFile } from "../temp-dirs.ts";

/**
 * MEDIQA-Chat 2023 task A (the section header of a short dialogue, by accuracy) through the real
 * `anamnesis` bin: the embedded nearest-label baseline offline, an LLM through the real OpenAI client
 * against a local server, the scorer alone, and bad predictions files.
 */

const scratch = tempDirForFile("anamnesis-mediqa-a-");
const dataset = loadMtsDialog();
const training = dataset.splits.train!;
const lines = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, any>);

describe("task A's accuracy", () => {
  it("compares headers ignoring case and surrounding spaces, counts a null answer wrong, and scores the floor on the same dialogues", () => {
    const scores = scoreTaskA(
      [
        { gold: "GENHX", predicted: " genhx " },
        { gold: "FAM/SOCHX", predicted: "FAM/SOCHX" },
        { gold: "ROS", predicted: null },
        { gold: "GENHX", predicted: "GENHX." },
      ],
      "valid",
      100,
      "GENHX",
    );
    expect(scores).toMatchObject({ dialogues: 4, correct: 2, accuracy: 0.5, format_errors: 1, split_dialogues: 100 });
    expect(scores.majority_floor).toEqual({ header: "GENHX", correct: 2, accuracy: 0.5 });
    expect(scores.by_header).toEqual({
      GENHX: { dialogues: 2, correct: 1 },
      "FAM/SOCHX": { dialogues: 1, correct: 1 },
      ROS: { dialogues: 1, correct: 0 },
    });
    expect(Object.keys(scores.by_header)[0]).toBe("GENHX");
  });
});

describe("anamnesis bench --suite mediqa-chat-a, embedded", () => {
  it("names the header of the nearest training dialogue, scores it beside the floor, and rescores the same", async () => {
    const out = join(scratch, "embedded-test1");
    const run = await runCli([
      "bench",
      "--suite",
      "mediqa-chat-a",
      "--split",
      "test1",
      "--limit",
      "8",
      "--out",
      out,
      "--json",
    ]);
    expect(run.status, run.stderr).toBe(0);
    const scores = JSON.parse(run.stdout).suites["mediqa-chat-a"];

    // Each prediction is the header of the training dialogue nearest by BM25, computed here independently.
    const index = new Bm25Index(training.map((document) => document.input));
    const test1 = dataset.splits.test1!.slice(0, 8);
    const expected = test1.map((document) => training[index.search(document.input, 1)[0]!.index]!.header);
    const predictions = lines(join(out, "predictions-mediqa-chat-a.jsonl"));
    expect(predictions.map((line) => line.prediction)).toEqual(expected);
    const correct = test1.filter((document, row) => expected[row] === document.header).length;
    const floor = test1.filter((document) => document.header === "FAM/SOCHX").length;
    expect(scores).toMatchObject({
      dialogues: 8,
      split: "test1",
      split_dialogues: 200,
      correct,
      accuracy: correct / 8,
    });
    expect(scores.majority_floor).toEqual({ header: "FAM/SOCHX", correct: floor, accuracy: floor / 8 });

    const rescored = await runCli([
      "score",
      "mediqa-chat-a",
      "--predictions",
      join(out, "predictions-mediqa-chat-a.jsonl"),
      "--json",
    ]);
    expect(JSON.parse(rescored.stdout)).toEqual(scores);
    const report = readFileSync(join(out, "report.md"), "utf8");
    expect(report).toContain("MEDIQA-Chat 2023 task A under its official settings");
    expect(report).toContain("not lm-eval's mts_dialog settings");
    expect(report).toContain("| floor: always FAM/SOCHX (the most common training header) |");
  });
});

describe("anamnesis bench --suite mediqa-chat-a against an OpenAI-protocol server", () => {
  const template = loadPromptTemplate("mediqa-chat-a.v1");
  const headerOf = new Map(
    [...dataset.documents.values()].map((document) => [template.user({ dialogue: document.input }), document]),
  );
  const first = dataset.splits.valid![0]!;
  /** The gold header, decorated as models write it; a sentence naming none for the first dialogue. */
  const answer = (call: ChatCall): Reply => {
    const document = headerOf.get(call.messages.at(-1)!.content)!;
    return { content: document.id === first.id ? "I cannot tell from this." : `**${document.header}**.` };
  };

  it("sends our few-shot prompt (the nearest training dialogues, labelled), reads decorated answers, and counts the rest as format errors", async () => {
    const server = await fakeServerForTest("openai", { respond: answer });
    const out = join(scratch, "openai-valid");
    const env = { OPENAI_API_KEY: "", OPENAI_BASE_URL: "", ANAMNESIS_CACHE_DIR: join(scratch, "cache") };
    const args = ["bench", "--suite", "mediqa-chat-a", "--split", "valid", "--limit", "4"];
    const run = await runCli(
      [...args, "--backend", "openai:gpt-4o-mini", "--base-url", server.baseUrl, "--out", out, "--no-cache", "--json"],
      { env },
    );
    expect(run.status, run.stderr).toBe(0);
    const results = JSON.parse(run.stdout);
    expect(results.prompt_versions.classifier).toMatch(/^mediqa-chat-a\.v1#[0-9a-f]{12}$/);
    expect(results.suites["mediqa-chat-a"]).toMatchObject({
      dialogues: 4,
      correct: 3,
      accuracy: 0.75,
      format_errors: 1,
    });

    const index = new Bm25Index(training.map((document) => document.input));
    expect(server.calls).toHaveLength(4);
    for (const call of server.calls) {
      const [system, ...rest] = call.messages;
      expect(system).toEqual({ role: "system", content: template.system });
      const document = headerOf.get(rest.at(-1)!.content)!;
      const nearest = index.search(document.input, 5).map((hit) => training[hit.index]!);
      expect(rest.slice(0, -1)).toEqual(
        nearest.flatMap((exemplar) => [
          { role: "user", content: template.user({ dialogue: exemplar.input }) },
          { role: "assistant", content: exemplar.header },
        ]),
      );
      expect(call.body.max_tokens ?? call.body.max_completion_tokens).toBe(16);
      expect(call.body.temperature).toBe(0);
    }
    const predictions = lines(join(out, "predictions-mediqa-chat-a.jsonl"));
    const failed = predictions.find((line) => line.id === first.id)!;
    expect(failed.prediction).toBeNull();
    expect(failed.format_error).toMatch(/names none of the 20 labels/);
    const report = readFileSync(join(out, "report.md"), "utf8");
    expect(report).toContain("names none of the 20 labels");
  });
});

/** A task A run file as the challenge took them: TestID, SystemOutput1 (header), SystemOutput2 (text). */
const runFile = (name: string, rows: ReadonlyArray<readonly [string, string]>) => {
  const path = join(scratch, name);
  const quote = (cell: string) => `"${cell.replace(/"/g, '""')}"`;
  const body = rows.map(([id, header]) => [id, header, "Some text, with a comma."].map(quote).join(","));
  writeFileSync(path, ["TestID,SystemOutput1,SystemOutput2", ...body].join("\n") + "\n");
  return path;
};

describe("anamnesis score mediqa-chat-a", () => {
  it("scores the challenge's run file against test1 by default: headers in any case, an empty cell wrong", async () => {
    const test1 = dataset.splits.test1!;
    // The gold header, lower-cased on every third row, empty on row 0, another header on row 1; rows shuffled.
    const rows = test1.map((document, row): readonly [string, string] => [
      document.id.replace("test1-", ""),
      row === 0
        ? ""
        : row === 1
          ? document.header === "ROS"
            ? "CC"
            : "ROS"
          : row % 3 === 0
            ? document.header!.toLowerCase()
            : document.header!,
    ]);
    const path = runFile("taskA_team_run1.csv", [...rows.slice(100), ...rows.slice(0, 100)]);
    const run = await runCli(["score", "mediqa-chat-a", "--predictions", path, "--json"]);
    expect(run.status, run.stderr).toBe(0);
    const floor = test1.filter((document) => document.header === "FAM/SOCHX").length;
    expect(JSON.parse(run.stdout)).toMatchObject({
      split: "test1",
      dialogues: 200,
      correct: 198,
      accuracy: 198 / 200,
      format_errors: 0,
      majority_floor: { header: "FAM/SOCHX", correct: floor },
    });
    // The same file read as the test2 split's answers (MEDIQA-Sum's test set) is scored against test2's headers.
    const test2 = await runCli(["score", "mediqa-chat-a", "--predictions", path, "--split", "test2", "--json"]);
    expect(JSON.parse(test2.stdout).split).toBe("test2");
  });
});

describe("anamnesis score mediqa-chat-a, bad input", () => {
  it("refuses a run file on one line with exit code 2: wrong columns, a row count that is not the gold's, an unknown or repeated TestID", async () => {
    const wrong = join(scratch, "wrong-columns.csv");
    writeFileSync(wrong, "TestID,header\n0,GENHX\n");
    const ids = dataset.splits.test1!.map((document) => document.id.replace("test1-", ""));
    const cases: Array<[string, RegExp]> = [
      [wrong, /no 'SystemOutput1' column \(found: TestID, header\)/],
      [runFile("short.csv", [["0", "GENHX"]]), /has 1 rows; the gold test1 split has 200 dialogues/],
      [
        runFile(
          "unknown.csv",
          ids.map((id, row) => [row === 5 ? "9999" : id, "GENHX"]),
        ),
        /row 6 has TestID '9999', not a dialogue of the test1 split/,
      ],
      [
        runFile(
          "twice.csv",
          ids.map((id, row) => [row === 5 ? ids[0]! : id, "GENHX"]),
        ),
        /row 6 has TestID '0', answered twice/,
      ],
    ];
    for (const [path, message] of cases) {
      const run = await runCli(["score", "mediqa-chat-a", "--predictions", path]);
      expect(run.status, path).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
    }
  });

  it("refuses, on one line with exit code 2: an unknown dialogue, a prediction that is not a header, splits mixed", async () => {
    const write = (name: string, rows: object[]) => {
      const path = join(scratch, name);
      writeFileSync(path, rows.map((row) => `${JSON.stringify(row)}\n`).join(""));
      return path;
    };
    const cases: Array<[string, RegExp]> = [
      [write("unknown.jsonl", [{ id: "test1-9999", prediction: "GENHX" }]), /has no dialogue 'test1-9999'/],
      [write("number.jsonl", [{ id: "test1-0", prediction: 3 }]), /prediction must be a section header/],
      [
        write("mixed.jsonl", [
          { id: "test1-0", prediction: "GENHX" },
          { id: "valid-0", prediction: "GENHX" },
        ]),
        /mix splits \(test1, valid\)/,
      ],
    ];
    for (const [path, message] of cases) {
      const run = await runCli(["score", "mediqa-chat-a", "--predictions", path]);
      expect(run.status, path).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});
