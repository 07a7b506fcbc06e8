import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadMtsDialog } from "../../src/data/mts-dialog.ts";
import { noteSplit } from "../../src/data/note-dataset.ts";
import { lmEvalProcessResults } from "../../src/metrics/lm-eval.ts";
import { tokenize13a } from "../../src/metrics/tokenize-13a.ts";
import { LM_EVAL_DESCRIPTIONS } from "../../eval/suites/clinical-notes/lm-eval-descriptions.ts";
import type { ChatCall, Reply } from "../../test-support/fake-llm-server.ts";
import { fakeServerForTest } from "../backends/helpers.ts";
import { runCli } from "../cli/helpers.ts";
import { tempDirForFile } from "../temp-dirs.ts";

/**
 * lm-evaluation-harness's clinical-note suites end to end through the real `anamnesis` bin: the
 * embedded baselines offline, and an LLM through the real OpenAI client against a local server that
 * answers every prompt with the gold note.
 */

const scratch = tempDirForFile("anamnesis-bench-notes-");

const valid = noteSplit(loadMtsDialog(), "valid");
const lines = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, any>);

/** A small file in MedText's format (Prompt, Completion), written for the tests. */
const medtextFile = join(scratch, "medtext.csv");
const medtextRows = [
  [
    "A 45-year-old man with crushing chest pain radiating to the left arm, sweating and nausea for one hour.",
    "The likely diagnosis is acute myocardial infarction. Treatment: aspirin, nitroglycerin, oxygen and urgent reperfusion.",
  ],
  [
    "A 6-year-old with an itchy vesicular rash on the trunk and a mild fever after a classmate was ill.",
    "The likely diagnosis is chickenpox (varicella). Treatment is supportive: antihistamines, calamine lotion and fluids.",
  ],
  [
    "A 30-year-old woman with burning on urination and urinary frequency for two days, no fever.",
    "The likely diagnosis is an uncomplicated urinary tract infection. Treatment: nitrofurantoin for five days and fluids.",
  ],
  [
    "A 52-year-old man with chest pain on exertion relieved by rest, a smoker with hypertension.",
    "The likely diagnosis is stable angina. Treatment: aspirin, a beta-blocker, sublingual nitroglycerin and risk-factor control.",
  ],
];
writeFileSync(
  medtextFile,
  `Prompt,Completion\r\n${medtextRows.map((row) => row.map((cell) => `"${cell.replace(/"/g, '""')}"`).join(",")).join("\r\n")}\r\n`,
);

describe("anamnesis bench: clinical-note suites on the embedded engine", () => {
  it("runs mts-dialog and its perplexity variant with --limit; re-scoring reproduces results.json; a rerun resumes", async () => {
    const out = join(scratch, "mts-embedded");
    const args = [
      "bench",
      "--suite",
      "mts-dialog",
      "mts-dialog-perplexity",
      "--split",
      "valid",
      "--limit",
      "5",
      "--out",
      out,
      "--json",
    ];
    const run = await runCli(args);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.status).toBe(0);
    const results = JSON.parse(run.stdout);
    expect(results.backend).toBe("embedded");
    expect(results.split).toBe("valid");
    expect(results.dataset).toMatchObject({ split: "valid", documents: 100, comparable_with_lm_eval: false });
    expect(results.dataset.note).toMatch(/not comparable with lm-eval's/);
    const generation = results.suites["mts-dialog"];
    expect(generation).toMatchObject({
      samples: 5,
      bleurt: null,
      bert_score: null,
      model_metrics: {
        bleurt: {
          status: "unavailable",
          reason: expect.stringMatching(/^BLEURT \(bleurt-base-512\) needs the checkpoint/),
        },
        bert_score: {
          status: "unavailable",
          reason: expect.stringMatching(
            /^BERTScore \(roberta-large_L17_no-idf\) needs the model: pass --bertscore python/,
          ),
        },
      },
    });
    expect(generation.unavailable).toMatch(/^BLEURT .*; BERTScore .*null, never 0$/);
    for (const key of ["bleu", "rouge1", "rouge2", "rougeL"]) expect(generation[key]).toBeGreaterThan(0);
    expect(generation.nan_counts).toEqual({ bleu: 0, rouge1: 0, rouge2: 0, rougeL: 0, length_gate: 0 });
    const perplexity = results.suites["mts-dialog-perplexity"];
    expect(perplexity.samples).toBe(5);
    expect(perplexity.bits_per_byte).toBeCloseTo(Math.log2(perplexity.byte_perplexity), 12);
    expect(perplexity.word_perplexity).toBeGreaterThan(perplexity.byte_perplexity);

    const predictions = lines(join(out, "predictions-mts-dialog.jsonl"));
    expect(predictions.map((line) => line.id)).toEqual(["valid-0", "valid-1", "valid-2", "valid-3", "valid-4"]);
    expect(Object.keys(predictions[0]!).slice(0, 2)).toEqual(["id", "prediction"]);
    expect(
      lines(join(out, "predictions-mts-dialog-perplexity.jsonl")).every(
        (line) => typeof line.prediction === "number" && line.prediction < 0,
      ),
    ).toBe(true);

    for (const suite of ["mts-dialog", "mts-dialog-perplexity"]) {
      const rescored = await runCli([
        "score",
        suite,
        "--predictions",
        join(out, `predictions-${suite}.jsonl`),
        "--json",
      ]);
      expect(rescored.status).toBe(0);
      expect(JSON.parse(rescored.stdout)).toEqual(results.suites[suite]);
    }
    const report = readFileSync(join(out, "report.md"), "utf8");
    expect(report).toContain("**Not comparable with lm-evaluation-harness's numbers.**");
    expect(report).toContain("### MTS-Dialog by section header");
    expect(report).not.toContain("paper");

    const again = JSON.parse((await runCli(args)).stdout);
    expect(again.runs["mts-dialog"]).toMatchObject({ predicted: 5, resumed: 5 });
    expect(again.suites).toEqual(results.suites);
  });

  it("splits a run into shards that merge into the same scores", async () => {
    const base = ["bench", "--suite", "mts-dialog", "--split", "valid", "--limit", "6"];
    const whole = JSON.parse((await runCli([...base, "--out", join(scratch, "whole"), "--json"])).stdout);
    for (const shard of ["1/2", "2/2"])
      expect((await runCli([...base, "--shard", shard, "--out", join(scratch, `shard-${shard[0]}`)])).status).toBe(0);
    const merged = await runCli([
      "merge",
      join(scratch, "shard-1"),
      join(scratch, "shard-2"),
      "--out",
      join(scratch, "merged"),
      "--json",
    ]);
    expect(merged.status).toBe(0);
    expect(JSON.parse(merged.stdout).suites).toEqual(whole.suites);
  });

  it("runs medtext from a user's file, never showing a document its own row", async () => {
    const out = join(scratch, "medtext-embedded");
    const run = await runCli([
      "bench",
      "--suite",
      "medtext",
      "medtext-perplexity",
      "--data",
      medtextFile,
      "--out",
      out,
      "--json",
    ]);
    expect(run.status).toBe(0);
    const results = JSON.parse(run.stdout);
    expect(results.split).toBe("all");
    expect(results.suites.medtext.samples).toBe(4);
    expect(results.suites["medtext-perplexity"].samples).toBe(4);
    expect(results.protocol.self_exclusion).toMatch(/^4 evaluated documents are training rows too/);
    const predictions = lines(join(out, "predictions-medtext.jsonl"));
    predictions.forEach((line, index) => expect(line.prediction).not.toBe(medtextRows[index]![1]));
    // The chest-pain presentations retrieve each other's notes.
    expect(predictions[0]!.prediction).toBe(medtextRows[3]![1]);
    const rescored = await runCli([
      "score",
      "medtext",
      "--predictions",
      join(out, "predictions-medtext.jsonl"),
      "--data",
      medtextFile,
      "--json",
    ]);
    expect(JSON.parse(rescored.stdout)).toEqual(results.suites.medtext);
  });

  it("scores a user's copy of the har1 mirror (four-field notes) on all its rows", async () => {
    const note = (symptoms: string) =>
      `Symptoms: ${symptoms}\nDiagnosis: N/A\nHistory of Patient: N/A\nPlan of Action: N/A`;
    const rows = [
      {
        ID: 0,
        section_header: "CC",
        section_text: note("cough, fever"),
        dialogue: "Doctor: What brings you in?\nPatient: A cough and a fever.",
      },
      {
        ID: 1,
        section_header: "CC",
        section_text: note("rash"),
        dialogue: "Doctor: What brings you in?\nPatient: This rash on my arm.",
      },
      {
        ID: 0,
        section_header: "CC",
        section_text: note("cough"),
        dialogue: "Doctor: What is wrong?\nPatient: I keep coughing.",
      },
    ];
    const file = join(scratch, "har1.jsonl");
    writeFileSync(file, `${rows.map((row) => JSON.stringify(row)).join("\n")}\n`);
    const run = await runCli([
      "bench",
      "--suite",
      "mts-dialog",
      "--data",
      file,
      "--out",
      join(scratch, "har1"),
      "--json",
    ]);
    expect(run.status).toBe(0);
    const results = JSON.parse(run.stdout);
    expect(results.split).toBe("all");
    expect(results.dataset).toMatchObject({
      documents: 3,
      comparable_with_lm_eval: false,
      target: expect.stringMatching(/^four-field note/),
    });
    expect(results.protocol.trained_on).toBe("train (2 documents)");
    // The valid row is not a training row: it may copy the training note of the cough dialogue.
    expect(lines(join(scratch, "har1", "predictions-mts-dialog.jsonl"))[2]!.prediction).toBe(note("cough, fever"));
  });

  it("explains on one line, exit code 2, that MedText needs a file", async () => {
    for (const args of [
      ["bench", "--suite", "medtext", "--out", join(scratch, "no-medtext")],
      ["score", "medtext", "--predictions", join(scratch, "none.jsonl")],
    ]) {
      const run = await runCli(args);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(
        /^anamnesis: medtext needs the MedText data, which is not bundled: .*--data FILE.*\n$/,
      );
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
    }
  });

  it("rejects mixing datasets in one run and unknown splits, on one line", async () => {
    const mixed = await runCli(["bench", "--suite", "mts-dialog", "meditod-nlg", "--out", join(scratch, "mixed")]);
    expect(mixed.status).toBe(2);
    expect(mixed.stderr).toMatch(/^anamnesis: run suites on different data separately/);
    const split = await runCli(["bench", "--suite", "mts-dialog", "--split", "test", "--out", join(scratch, "split")]);
    expect(split.status).toBe(2);
    expect(split.stderr).toBe(
      "anamnesis: MTS-Dialog (bundled abachaa/MTS-Dialog, CC BY 4.0) has no split 'test' (available: train, valid, test1, test2)\n",
    );
  });
});

describe("anamnesis bench: clinical-note suites against an OpenAI-protocol server", () => {
  const gold = new Map(valid.map((document) => [document.input, document.target]));
  /** Answers with the gold note of the dialogue in the prompt, then a blank line and more text, which must be cut. */
  const goldNote = (call: ChatCall): Reply => ({
    content: `${gold.get(call.messages.at(-1)!.content) ?? "unknown dialogue"}\n\nFollow-up in two weeks.`,
  });

  it("sends lm-eval's zero-shot prompt with stop \\n\\n, scores the gold notes as gold, and re-scoring reproduces results.json", async () => {
    const server = await fakeServerForTest("openai", { respond: goldNote });
    const out = join(scratch, "mts-openai");
    const env = { OPENAI_API_KEY: "", OPENAI_BASE_URL: "", ANAMNESIS_CACHE_DIR: join(scratch, "cache") };
    const run = await runCli(
      [
        "bench",
        "--suite",
        "mts-dialog",
        "--split",
        "valid",
        "--limit",
        "10",
        "--backend",
        "openai:gpt-4o-mini",
        "--base-url",
        server.baseUrl,
        "--out",
        out,
        "--no-cache",
        "--json",
      ],
      { env },
    );
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.status).toBe(0);
    const results = JSON.parse(run.stdout);

    expect(server.calls).toHaveLength(10);
    for (const call of server.calls) {
      expect(call.messages).toEqual([
        { role: "system", content: LM_EVAL_DESCRIPTIONS.mts_dialog },
        { role: "user", content: expect.any(String) },
      ]);
      expect(gold.has(call.messages[1]!.content)).toBe(true);
      expect(call.body.stop).toEqual(["\n\n"]);
      expect(call.body.temperature).toBe(0);
      expect(call.body.max_tokens ?? call.body.max_completion_tokens).toBe(256);
    }
    expect(
      LM_EVAL_DESCRIPTIONS.mts_dialog.startsWith(
        "Instructions: The following text is from a collection of medical dialogs",
      ),
    ).toBe(true);
    expect(results.prompt_versions.note).toMatch(/^lm-eval:mts_dialog#[0-9a-f]{12}$/);

    // Every prediction is the gold note, cut at the blank line; its scores are gold's.
    const predictions = lines(join(out, "predictions-mts-dialog.jsonl"));
    predictions.forEach((line, index) => {
      expect(line.prediction).toBe(valid[index]!.target);
      expect(line.raw).toBe(`${valid[index]!.target}\n\nFollow-up in two weeks.`);
      const scores = lmEvalProcessResults("mts_dialog", line.prediction, valid[index]!.target);
      if (tokenize13a(valid[index]!.target).length >= 4) expect(scores.bleu).toBe(1);
      expect(scores.rouge1).toBe(1);
      expect(scores.rougeL).toBe(1);
    });
    expect(results.suites["mts-dialog"].rouge1).toBe(1);
    expect(results.suites["mts-dialog"].rougeL).toBe(1);
    // "Accutane." (valid-3) has fewer than 4 tokens: BLEU 0, nudged to 1e-5, pulls the mean below 1.
    const expectedBleu = (9 + 1e-5) / 10;
    expect(results.suites["mts-dialog"].bleu).toBeCloseTo(expectedBleu, 12);

    const rescored = await runCli([
      "score",
      "mts-dialog",
      "--predictions",
      join(out, "predictions-mts-dialog.jsonl"),
      "--json",
    ]);
    expect(rescored.status).toBe(0);
    expect(JSON.parse(rescored.stdout)).toEqual(results.suites["mts-dialog"]);
  });

  it("refuses the perplexity suites on a backend that cannot score a text, before any request", async () => {
    const server = await fakeServerForTest("openai", { respond: goldNote });
    const run = await runCli(
      [
        "bench",
        "--suite",
        "mts-dialog-perplexity",
        "--backend",
        "openai:gpt-4o-mini",
        "--base-url",
        server.baseUrl,
        "--out",
        join(scratch, "ppl-openai"),
      ],
      {
        env: { OPENAI_API_KEY: "", OPENAI_BASE_URL: "" },
      },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      "anamnesis: backend openai:gpt-4o-mini cannot score the log-likelihood of a given text, which the perplexity suites need (lm-eval's loglikelihood_rolling); use --backend llamacpp:<file.gguf>, or --backend embedded for the offline n-gram model\n",
    );
    expect(server.calls).toHaveLength(0);
  });
});
