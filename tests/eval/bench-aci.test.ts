import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadAciBench } from "../../src/data/aci-bench.ts";
import type { ChatMessage } from "../../src/backends/spec.ts";
import { countMessageTokens } from "../../src/modules/prompting/token-budget.ts";
import { loadPromptTemplate } from "../../src/modules/prompting/prompt-template.ts";
import { Bm25Index } from "../../src/retrieval/bm25.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import { buildEmbeddedNlu } from "../../src/modules/embedded/nlu.ts";
import { VisitNoteWriter } from "../../src/modules/embedded/notes/visit-note-reader.ts";
import { loadTrainingData } from "../../src/modules/embedded/training-data.ts";
import { scoreAciBench } from "../../eval/suites/aci-bench/aci-bench-scores.ts";
import { SHIPPED_BASELINES, scoreShippedBaseline } from "../../eval/suites/aci-bench/shipped-baselines.ts";
import type { ChatCall, Reply } from "../../test-support/fake-llm-server.ts";
import { fakeServerForTest } from "../backends/helpers.ts";
import { runCli } from "../cli/helpers.ts";
import { tempDirForFile } from "../temp-dirs.ts";

/**
 * The aci-bench suite end to end through the real `anamnesis` bin: the embedded engine's
 * visit note from the tracked state offline, and an LLM through the real OpenAI client against a local
 * server, each scored as evaluate_fullnote.py and reported beside the floor and the shipped baselines.
 */

const scratch = tempDirForFile("anamnesis-bench-aci-");
const dataset = loadAciBench();
const lines = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, any>);

describe("anamnesis bench --suite aci-bench, embedded", () => {
  it("writes the visit note from the tracked state, scores it as the official script, and shows the shipped baselines on the same visits", async () => {
    const out = join(scratch, "embedded-test1");
    const run = await runCli([
      "bench",
      "--suite",
      "aci-bench",
      "--split",
      "test1",
      "--limit",
      "4",
      "--out",
      out,
      "--json",
    ]);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.status).toBe(0);
    const results = JSON.parse(run.stdout);
    const scores = results.suites["aci-bench"];
    expect(scores).toMatchObject({
      notes: 4,
      split: "test1",
      split_notes: 40,
      bertscore: null,
      bleurt: null,
      medcon: null,
    });
    expect(results.protocol.engine).toMatch(/the visit note from the tracked state/);

    // Each prediction is the embedded visit-note writer's note of that visit, written from its conversation alone.
    const writer = new VisitNoteWriter(buildEmbeddedNlu(loadTrainingData(loadMeditod(), "train")));
    const predictions = lines(join(out, "predictions-aci-bench.jsonl"));
    expect(predictions.map((line) => line.id)).toEqual(["D2N088", "D2N089", "D2N090", "D2N091"]);
    for (const [row, line] of predictions.entries()) {
      const { text } = await writer.write({ instructions: "", input: dataset.splits.test1[row]!.input });
      expect(line.prediction).toBe(text);
      expect(text).toMatch(/^CHIEF COMPLAINT\n/);
    }

    // The same figures from the same notes, through the scorer directly and through `anamnesis score`.
    const visits = dataset.splits.test1.slice(0, 4);
    const direct = scoreAciBench(
      dataset,
      "test1",
      visits,
      predictions.map((line) => line.prediction as string),
    );
    expect(scores).toEqual(JSON.parse(JSON.stringify(direct)));
    const rescored = await runCli([
      "score",
      "aci-bench",
      "--predictions",
      join(out, "predictions-aci-bench.jsonl"),
      "--json",
    ]);
    expect(JSON.parse(rescored.stdout)).toEqual(scores);

    // The report: ours labelled as the rules it is, the floor, and the four shipped test-1 outputs on the same four visits.
    const report = readFileSync(join(out, "report.md"), "utf8");
    expect(report).toContain("| **this run** (embedded): the visit note from the tracked state (rules, offline) |");
    expect(report).toContain("4 of 40 notes: not comparable with the paper");
    expect(report).toContain("| floor: the conversation copied as the note |");
    for (const baseline of SHIPPED_BASELINES.filter((candidate) => candidate.split === "test1")) {
      const all = scoreShippedBaseline(dataset, baseline, visits)!.rouge.ALL!;
      const cells = [all.rouge1, all.rouge2, all.rougeLsum].map((value) => (value * 100).toFixed(2)).join(" | ");
      expect(report).toContain(`| ${baseline.model} (shipped output) | ${cells} |`);
    }
  });
});

const template = loadPromptTemplate("aci-bench-note.v1");
const gold = new Map(
  [...dataset.encounters.values()].map((encounter) => [template.user({ dialogue: encounter.input }), encounter.target]),
);
/** Answers with the gold note of the visit in the last user message. */
const goldNote = (call: ChatCall): Reply => ({ content: gold.get(call.messages.at(-1)!.content) ?? "unknown visit" });

describe("anamnesis bench --suite aci-bench against an OpenAI-protocol server", () => {
  it("sends our few-shot prompt (nearest training visits, as many as fit), and a gold note scores 100", async () => {
    const server = await fakeServerForTest("openai", { respond: goldNote });
    const out = join(scratch, "openai-valid");
    const env = { OPENAI_API_KEY: "", OPENAI_BASE_URL: "", ANAMNESIS_CACHE_DIR: join(scratch, "cache") };
    const args = [
      "bench",
      "--suite",
      "aci-bench",
      "--split",
      "valid",
      "--limit",
      "3",
      "--backend",
      "openai:gpt-4o-mini",
    ];
    const run = await runCli([...args, "--base-url", server.baseUrl, "--out", out, "--no-cache", "--json"], { env });
    expect(run.status).toBe(0);
    const results = JSON.parse(run.stdout);
    expect(results.prompt_versions.note).toMatch(/^aci-bench-note\.v1#[0-9a-f]{12}$/);

    expect(server.calls).toHaveLength(3);
    const training = new Map(
      dataset.splits.train.map((encounter) => [template.user({ dialogue: encounter.input }), encounter]),
    );
    const index = new Bm25Index(dataset.splits.train.map((encounter) => encounter.input));
    for (const call of server.calls) {
      // The first worked example, when one fits, is the training visit nearest by BM25.
      const visit = [...dataset.encounters.values()].find(
        (e) => template.user({ dialogue: e.input }) === call.messages.at(-1)!.content,
      )!;
      const [nearest] = index.search(visit.input, 1);
      if (call.messages.length > 2)
        expect(call.messages[1]!.content).toBe(
          template.user({ dialogue: dataset.splits.train[nearest!.index]!.input }),
        );
      const [system, ...rest] = call.messages;
      expect(system).toEqual({ role: "system", content: template.system });
      const examples = rest.slice(0, -1);
      expect(examples.length % 2).toBe(0);
      for (let turn = 0; turn < examples.length; turn += 2) {
        const exemplar = training.get(examples[turn]!.content)!;
        expect(examples[turn + 1]).toEqual({ role: "assistant", content: exemplar.target });
      }
      expect(countMessageTokens(call.messages as ChatMessage[])).toBeLessThanOrEqual(8192 - 2048);
      expect(call.body.max_tokens ?? call.body.max_completion_tokens).toBe(2048);
      expect(call.body.stop).toBeUndefined();
      expect(call.body.temperature).toBe(0);
    }
    expect(server.calls.some((call) => call.messages.length > 2)).toBe(true);
    const predictions = lines(join(out, "predictions-aci-bench.jsonl"));
    expect(predictions.map((line) => line.prediction)).toEqual(dataset.splits.valid.slice(0, 3).map((e) => e.target));
    expect(predictions.every((line) => Array.isArray(line.exemplars))).toBe(true);
    expect(results.suites["aci-bench"].rouge.ALL).toEqual({ rouge1: 1, rouge2: 1, rougeL: 1, rougeLsum: 1 });
  });
});

describe("anamnesis score aci-bench", () => {
  it("takes the official predictions CSV with --split, or reads the split from its encounter_id column", async () => {
    const official = JSON.parse(
      readFileSync(join(dataset.dir, "..", "results", "LED_clinicalnlp_taskC_test2_division_combined.json"), "utf8"),
    );
    const csv = join(dataset.dir, "..", "predictions", "LED_clinicalnlp_taskC_test2_division_combined.csv");
    const run = await runCli(["score", "aci-bench", "--predictions", csv, "--split", "test2", "--json"]);
    expect(run.status).toBe(0);
    const scores = JSON.parse(run.stdout);
    for (const cohort of Object.keys(official))
      for (const type of ["rouge1", "rouge2", "rougeL", "rougeLsum"])
        expect(Math.abs(scores.rouge[cohort][type] - official[cohort][type])).toBeLessThanOrEqual(1e-9);
    const printed = await runCli(["score", "aci-bench", "--predictions", csv]);
    expect(printed.stdout).toMatch(/^aci-bench test2 \(40 notes\)/);
    expect(printed.stdout).toMatch(/\nALL +35\.14 +8\.57 +30\.84 +12\.65\n/);
  });

  it("refuses, on one line with exit code 2: wrong columns, a row count that is not the gold's, an unreadable file", async () => {
    const wrongColumns = join(scratch, "wrong-columns.csv");
    writeFileSync(wrongColumns, "encounter_id,text\nD2N128,a note\n");
    const short = join(scratch, "short.csv");
    writeFileSync(short, "note\nCHIEF COMPLAINT\n");
    const broken = join(scratch, "broken.csv");
    writeFileSync(broken, 'note\n"an unclosed quote\n');
    const cases: Array<[string[], RegExp]> = [
      [["--predictions", wrongColumns, "--split", "test2"], /no 'note' column \(found: encounter_id, text\)/],
      [["--predictions", short, "--split", "test2"], /has 1 rows; the gold test2 split has 40/],
      [["--predictions", short], /give --split \(train, valid, test1, test2, test3\)/],
      [["--predictions", broken, "--split", "test2"], /a quoted field opened on this line is never closed/],
      [["--predictions", join(scratch, "missing.csv"), "--split", "test2"], /predictions file not found/],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(["score", "aci-bench", ...args]);
      expect(run.status, args.join(" ")).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});
