import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bundledPath } from "../../src/foundation/package-paths.ts";
import { exactJudge } from "../../src/metrics/attribute-judge.ts";
import { resolveSuites, SUITE_REGISTRY, SUITES } from "../../eval/registry.ts";
import type { BenchDataset } from "../../eval/shared/bench-dataset.ts";
import type { Suite } from "../../eval/shared/suite.ts";
import { runCli } from "../cli/helpers.ts";

/**
 * The suite registry drives every command: each registered suite, given a small predictions file,
 * scores through its `anamnesis score` subcommand and shows its row and its report section; `--suite`
 * words and unknown ids are answered from the registry.
 */

const scratch = mkdtempSync(join(tmpdir(), "anamnesis-registry-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A MedText file (MedText is not bundled): three rows, as a user gives them. */
const MEDTEXT_CSV =
  'Prompt,Completion\n"A 30-year-old with fever and cough.","Pneumonia; amoxicillin."\n"A child with an itchy rash.","Eczema; emollients."\n"Crushing chest pain.","Acute coronary syndrome; ECG."\n';
const medtextFile = join(scratch, "medtext.csv");
writeFileSync(medtextFile, MEDTEXT_CSV);

/** `--data` for a suite: the bundled data, or the MedText file written above. */
const dataFor = (suite: Suite): string | undefined => (suite.data === "medtext" ? medtextFile : undefined);

/** A prediction each module can give, scored as written. */
const PREDICTION: Record<Suite["module"], unknown> = {
  nlu: [],
  policy: [],
  nlg: "And how long has it been?",
  note: "Fever and cough for three days.",
  likelihood: -42.5,
  classifier: "GENHX",
  consult: Object.fromEntries(
    ["floor", "doctor", "ceiling"].map((arm) => [
      arm,
      {
        answer: "A",
        ending: "answered",
        timeout: false,
        questions: 1,
        requests: 0,
        turns: [
          { speaker: "doctor", text: "How old are you?", move: "question" },
          { speaker: "patient", text: "I'm not sure.", revealed: [] },
          { speaker: "doctor", text: "ANSWER: A", move: "answer" },
        ],
      },
    ]),
  ),
};

/** The suite's data, loaded once per data set. */
const loaded = new Map<string, BenchDataset>();
function datasetOf(suite: Suite): BenchDataset {
  const dataset = loaded.get(suite.data) ?? SUITE_REGISTRY.dataset(suite.data).load(dataFor(suite));
  loaded.set(suite.data, dataset);
  return dataset;
}

/** The first three examples of the suite's default split as a predictions file. */
function predictionsFile(suite: Suite): string {
  const dataset = datasetOf(suite);
  const examples = suite.examples(dataset, SUITE_REGISTRY.dataset(suite.data).defaultSplit(dataset)).slice(0, 3);
  const path = join(scratch, `predictions-${suite.id}.jsonl`);
  writeFileSync(
    path,
    examples
      .map((example) => `${JSON.stringify({ ...example.fields, prediction: PREDICTION[suite.module] })}\n`)
      .join(""),
  );
  return path;
}

describe("the suite registry (eval/registry.ts)", () => {
  it("lists every suite once, in the order `anamnesis score --help` and `bench --help` give them", async () => {
    const ids = SUITE_REGISTRY.suites.map((suite) => suite.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.keys(SUITES)).toEqual(ids);
    const help = (await runCli(["score", "--help"])).stdout;
    const listed = [...help.matchAll(/^ {2}([\w-]+) \[options\]/gm)].map((match) => match[1]);
    expect(listed).toEqual(ids);
    const benchHelp = (await runCli(["bench", "--help"])).stdout.replace(/\s+/g, " ");
    for (const id of ids) expect(benchHelp).toContain(` ${id}`);
  });

  for (const suite of SUITE_REGISTRY.suites as readonly Suite[]) {
    it(`${suite.id}: scores through its score subcommand, and has its row and its report section`, async () => {
      const predictions = predictionsFile(suite);
      const data = dataFor(suite);
      const scores = await suite.scoreCommand.run({
        predictions,
        ...(data ? { data } : {}),
        judge: async () => exactJudge,
      });
      const cli = await runCli(["score", suite.id, "--predictions", predictions, ...(data ? ["--data", data] : [])]);
      expect(cli.stderr).toBe("");
      expect(cli.stdout).toBe(suite.scoreCommand.print(scores));
      // --json prints the same scores: checked on the first suite (each check spawns the CLI, and the printing is shared).
      if (suite === SUITE_REGISTRY.suites[0]) {
        const json = await runCli([
          "score",
          suite.id,
          "--predictions",
          predictions,
          ...(data ? ["--data", data] : []),
          "--json",
        ]);
        expect(JSON.parse(json.stdout)).toEqual(JSON.parse(JSON.stringify(scores)));
      }
      // Its row counts the three lines; its report section opens with a table of ours.
      expect(suite.resultCells(scores)[0]).toBe("3");
      const section = suite.reportSection({
        scores,
        dataset: datasetOf(suite),
        dir: scratch,
        ourLabel: "**this run**",
        chartLabel: "this run",
      });
      expect(section.tables[0]!.title).toMatch(/\(3 /);
      expect(section.tables[0]!.rows[section.tables[0]!.ours ?? 0]![0]).toBe("**this run**");
      expect(suite.family.datasets).toContain(SUITE_REGISTRY.dataset(suite.data));
    });
  }

  it("shows the paper's baselines for every suite the paper reports, and for no other", () => {
    const {
      source: _source,
      test_set: _testSet,
      ...bySuite
    } = JSON.parse(readFileSync(bundledPath("eval", "paper-baselines.json"), "utf8")) as Record<string, unknown>;
    for (const suite of SUITE_REGISTRY.suites) expect(suite.baselines).toEqual(bySuite[suite.id] ?? []);
    expect(Object.keys(bySuite).every((id) => SUITE_REGISTRY.get(id) !== undefined)).toBe(true);
  });

  it("expands a family's word, drops repeats, and refuses suites on different data", () => {
    expect(resolveSuites(["meditod-nlg", "meditod", "meditod-nlu"])).toEqual([
      "meditod-nlg",
      "meditod-nlu",
      "meditod-pol",
    ]);
    expect(() => SUITE_REGISTRY.dataOf(["meditod-nlu", "mts-dialog"])).toThrow(
      "run suites on different data separately (meditod-nlu, mts-dialog read meditod and mts-dialog)",
    );
    expect(SUITE_REGISTRY.inTableOrder(["meditod-nlg", "meditod-nlu"]).map((suite) => suite.id)).toEqual([
      "meditod-nlu",
      "meditod-nlg",
    ]);
    expect(SUITE_REGISTRY.inTableOrder(["medtext-perplexity", "medtext"]).map((suite) => suite.id)).toEqual([
      "medtext-perplexity",
      "medtext",
    ]);
  });

  it("answers an unknown suite with one line naming the known ones, exit 2", async () => {
    const known = ["meditod", ...SUITE_REGISTRY.suites.map((suite) => suite.id)].join(", ");
    const bench = await runCli(["bench", "--suite", "meditod-nlu,nope", "--out", join(scratch, "never")]);
    expect(bench.status).toBe(2);
    expect(bench.stdout).toBe("");
    expect(bench.stderr).toBe(`anamnesis: unknown suite 'nope' (available: ${known})\n`);
    const score = await runCli(["score", "nope", "--predictions", "x.jsonl"]);
    expect(score.status).toBe(2);
    expect(score.stderr).toBe("error: unknown command 'nope'\n");
  });
});
