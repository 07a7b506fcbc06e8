/**
 * BERTScore and BLEURT on the command line: `anamnesis score` for the note suites and MediTOD NLG, and
 * `anamnesis metrics pairs|corpus|compare`, through the reference bridge (a stand-in `python3` first on
 * PATH, test-support/stand-in-python.ts) and the native path (a tiny random 17-layer encoder, so that
 * lm-eval's layer 17 is its last). Bad sources are one line and exit code 2.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BUNDLED_ACI_BENCH_DIR, loadAciBench } from "../../src/data/aci-bench.ts";
import { readOfficialPredictions } from "../../src/data/aci-bench-predictions.ts";
import { loadMtsDialog } from "../../src/data/mts-dialog.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import { nlgExamples } from "../../src/data/meditod-views.ts";
import { LM_EVAL_BERTSCORE } from "../../src/metrics/bertscore/bertscore-settings.ts";
import { nativeBertScore } from "../../src/metrics/bertscore/native-bertscore.ts";
import { lmEvalNanmean } from "../../src/metrics/lm-eval.ts";
import { meditodPreprocess } from "../../src/metrics/tokenize-meditod.ts";
import { standInScore, writeStandInPython } from "../../test-support/stand-in-python.ts";
import { writeTinyEncoder } from "../../test-support/tiny-encoder.ts";
import { tempDirForFile } from "../temp-dirs.ts";
import { runCli } from "./helpers.ts";

const root = tempDirForFile();
const standIns = join(root, "bin");
const onPath = { PATH: `${standIns}${delimiter}${process.env.PATH ?? ""}` };
const mts = loadMtsDialog();
const documents = ["valid-0", "valid-1", "valid-2", "valid-3"].map((id) => mts.documents.get(id)!);
const notes = [
  "The patient has a cough.",
  "abc",
  "No known allergies, takes ibuprofen daily.",
  "She reports chest pain",
];
const notesFile = join(root, "mts.jsonl");

function expectOneLineError(result: { status: number | null; stderr: string }, message: RegExp) {
  expect(result.status).toBe(2);
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  expect(result.stderr).toMatch(message);
}

beforeAll(() => {
  mkdirSync(standIns);
  writeStandInPython(standIns);
  writeStandInPython(standIns, { mode: "garbage", name: "python-garbage" });
  writeFileSync(notesFile, documents.map((doc, i) => JSON.stringify({ id: doc.id, prediction: notes[i] })).join("\n"));
});

describe("anamnesis score with the reference bridge", () => {
  it("scores mts-dialog's BERTScore and BLEURT per document (length gate, nanmean) and records the reference", async () => {
    const result = await runCli(
      ["score", "mts-dialog", "--predictions", notesFile, "--bertscore", "python", "--bleurt", "python", "--json"],
      { env: onPath },
    );
    expect(result.stderr).toBe("");
    const scores = JSON.parse(result.stdout);
    // "abc" is shorter than mts_dialog's 5 characters: NaN, left out of the means.
    const perDocument = (salt: number) =>
      documents.map((doc, i) => (notes[i]!.length < 5 ? NaN : standInScore(notes[i]!, doc.target, salt)));
    expect(scores.bert_score).toBe(lmEvalNanmean(perDocument(0)));
    expect(scores.bleurt).toBe(lmEvalNanmean(perDocument(0.3)));
    expect(scores.model_metrics.bert_score).toMatchObject({
      status: "reference",
      identity: "roberta-large_L17_no-idf_version=0.3.12(hug_trans=4.41.2)",
      settings: "roberta-large_L17_no-idf",
    });
    expect(scores.model_metrics.bleurt).toMatchObject({ status: "reference", identity: "bleurt-base-512" });
    expect(scores.unavailable).toBe("");
  });

  it("scores MediTOD NLG's BERTScore on the preprocessed texts, as the reference's F1.mean()", async () => {
    const examples = nlgExamples(loadMeditod(), "test").slice(0, 3);
    const predictions = ["Hello, how can I help you?", "Do you have FEVER?", "Any cough."];
    const file = join(root, "nlg.jsonl");
    writeFileSync(
      file,
      examples
        .map((e, i) => JSON.stringify({ dialogue_id: e.dialogueId, turn: e.turn, prediction: predictions[i] }))
        .join("\n"),
    );
    const result = await runCli(["score", "meditod-nlg", "--predictions", file, "--bertscore", "python", "--json"], {
      env: onPath,
    });
    expect(result.status).toBe(0);
    const f1 = examples.map((e, i) => standInScore(meditodPreprocess(predictions[i]!), meditodPreprocess(e.gold)));
    expect(JSON.parse(result.stdout).bertscore).toBe(Math.fround(f1.reduce((a, b) => a + b, 0) / f1.length));
  });

  it("explains garbage from the interpreter and a missing interpreter on one line, exit 2", async () => {
    expectOneLineError(
      await runCli([
        "score",
        "mts-dialog",
        "--predictions",
        notesFile,
        "--bertscore",
        "python",
        "--python",
        join(standIns, "python-garbage"),
      ]),
      /BERTScore \(reference\): .*python-garbage printed "Some weights of RobertaModel were not initialized", not the bridge's result/,
    );
    expectOneLineError(
      await runCli([
        "score",
        "mts-dialog",
        "--predictions",
        notesFile,
        "--bleurt",
        "python",
        "--python",
        join(root, "nothing"),
      ]),
      /BLEURT needs Python: .*nothing was not found/,
    );
    expectOneLineError(
      await runCli(["score", "mts-dialog", "--predictions", notesFile, "--bertscore", "native"]),
      /--bertscore takes python \(the reference through Python\); for the native path give --bertscore-model DIR/,
    );
  });
});

describe("anamnesis score aci-bench with the model metrics", () => {
  const led = join(BUNDLED_ACI_BENCH_DIR, "predictions", "LED_clinicalnlp_taskC_test2_division_combined.csv");

  it("scores the official CSV's BERTScore and BLEURT per cohort through the reference, beside ROUGE", async () => {
    const result = await runCli(
      ["score", "aci-bench", "--predictions", led, "--bertscore", "python", "--bleurt", "python", "--json"],
      {
        env: onPath,
      },
    );
    expect(result.stderr).toBe("");
    const scores = JSON.parse(result.stdout);
    expect(Object.keys(scores.bertscore)).toEqual(Object.keys(scores.rouge));
    // The full notes are the first 40 of the script's 200 pairs: ALL is their mean.
    const dataset = loadAciBench();
    const notes = readOfficialPredictions(led).notes;
    const full = dataset.splits.test2.map((encounter, i) => standInScore(notes[i]!, encounter.target, 0.3));
    expect(scores.bleurt.ALL.bleurt).toBeCloseTo(full.reduce((a, b) => a + b, 0) / full.length, 12);
    expect(scores.model_metrics.bertscore.identity).toBe(
      "microsoft/deberta-xlarge-mnli_L40_no-idf_version=0.3.12(hug_trans=4.41.2)",
    );
    expect(scores.medcon).toBeNull();
    expect(scores.unavailable).toMatch(/^MEDCON .*QuickUMLS/);
    const printed = await runCli(["score", "aci-bench", "--predictions", led, "--bertscore", "python"], {
      env: onPath,
    });
    expect(printed.stdout).toMatch(/ROUGE-L \(sentence\)\s+BERTScore F1\n/);
    expect(printed.stdout).toMatch(/^BLEURT: BLEURT \(BLEURT-20\) needs the checkpoint/m);
    const medcon = await runCli(
      [
        "score",
        "aci-bench",
        "--predictions",
        led,
        "--medcon",
        "python",
        "--quickumls",
        root,
        "--umls-semantic-groups",
        notesFile,
      ],
      { env: onPath },
    );
    expect(medcon.stderr).toBe("");
    expect(medcon.stdout).toMatch(/BLEURT\s+MEDCON\n|ROUGE-L \(sentence\)\s+MEDCON\n/);
    expect(medcon.stdout).toMatch(/^MEDCON: reference \(QuickUMLS/m);
  });

  it("refuses a directory that is not a model on one line, exit 2", async () => {
    expectOneLineError(
      await runCli(["score", "aci-bench", "--predictions", led, "--bertscore-model", root]),
      /is not a model directory for BERTScore/,
    );
    expectOneLineError(
      await runCli(["score", "aci-bench", "--predictions", led, "--medcon", "python"]),
      /^anamnesis: --medcon python needs --quickumls DIR \(your QuickUMLS index\) and --umls-semantic-groups FILE/,
    );
    expectOneLineError(
      await runCli([
        "score",
        "aci-bench",
        "--predictions",
        led,
        "--medcon",
        "python",
        "--quickumls",
        join(root, "none"),
        "--umls-semantic-groups",
        notesFile,
      ]),
      /--quickumls .*none is not a directory/,
    );
  });
});

describe("anamnesis bench with a model metric", () => {
  it("scores the run's notes with the reference, and refuses a missing model directory before running", async () => {
    const out = join(root, "run");
    const run = await runCli(
      [
        "bench",
        "--suite",
        "mts-dialog",
        "--split",
        "valid",
        "--limit",
        "2",
        "--out",
        out,
        "--bertscore",
        "python",
        "--json",
      ],
      { env: onPath },
    );
    expect(run.status).toBe(0);
    const generation = JSON.parse(run.stdout).suites["mts-dialog"];
    expect(generation.bert_score).toBeGreaterThan(0);
    expect(generation.model_metrics.bert_score.status).toBe("reference");
    expectOneLineError(
      await runCli([
        "bench",
        "--suite",
        "mts-dialog",
        "--limit",
        "2",
        "--out",
        join(root, "run-2"),
        "--bleurt-model",
        join(root, "absent"),
      ]),
      /^anamnesis: BLEURT model directory not found: .*absent\n$/,
    );
  });

  it("scores an aci-bench run's notes per cohort with the reference", async () => {
    const out = join(root, "run-aci");
    const run = await runCli(
      [
        "bench",
        "--suite",
        "aci-bench",
        "--split",
        "test1",
        "--limit",
        "2",
        "--out",
        out,
        "--bertscore",
        "python",
        "--json",
      ],
      { env: onPath },
    );
    expect(run.status).toBe(0);
    const scores = JSON.parse(run.stdout).suites["aci-bench"];
    expect(Object.keys(scores.bertscore)).toEqual(Object.keys(scores.rouge));
    expect(scores.bertscore.ALL["bertscore-f1"]).toBeGreaterThan(0);
    expect(scores.model_metrics.bertscore.settings).toBe("microsoft/deberta-xlarge-mnli_L40_no-idf");
    expect(scores.bleurt).toBeNull();
  });
});

describe("anamnesis score and metrics with a native model", () => {
  const modelDir = join(root, "tiny-17");
  beforeAll(() => {
    writeTinyEncoder(modelDir, { layers: 17, name: "tiny-roberta-large-stand-in" });
  });

  it("scores mts-dialog natively, labelled native, equal to the library's per-document values", async () => {
    const result = await runCli([
      "score",
      "mts-dialog",
      "--predictions",
      notesFile,
      "--bertscore-model",
      modelDir,
      "--json",
    ]);
    expect(result.stderr).toBe("");
    const scores = JSON.parse(result.stdout);
    const kept = [0, 2, 3];
    const native = await nativeBertScore(
      modelDir,
      kept.map((i) => notes[i]!),
      kept.map((i) => documents[i]!.target),
      LM_EVAL_BERTSCORE,
    );
    expect(scores.bert_score).toBe(lmEvalNanmean([native.f1[0]!, NaN, native.f1[1]!, native.f1[2]!]));
    expect(scores.model_metrics.bert_score).toMatchObject({
      status: "native",
      label: "native",
      settings: "roberta-large_L17_no-idf",
    });
    expect(scores.bleurt).toBeNull();
    expect(scores.model_metrics.bleurt.reason).toMatch(/^BLEURT \(bleurt-base-512\) needs the checkpoint/);
  });

  it("records a comparison with the reference, which then names the native figures' evidence", async () => {
    const pairs = join(root, "pairs.jsonl");
    writeFileSync(
      pairs,
      notes.map((note, i) => JSON.stringify({ id: i, prediction: note, reference: documents[i]!.target })).join("\n"),
    );
    const strict = await runCli(["metrics", "compare", "--input", pairs, "--bertscore-model", modelDir], {
      env: onPath,
    });
    expect(strict.status).toBe(1);
    expect(JSON.parse(strict.stdout)).toMatchObject({ metric: "bertscore", agrees: false, pairs: 4, tolerance: 1e-5 });
    const loose = await runCli(
      ["metrics", "compare", "--input", pairs, "--bertscore-model", modelDir, "--tolerance", "1"],
      {
        env: onPath,
      },
    );
    expect(loose.status).toBe(0);
    const entry = JSON.parse(loose.stdout);
    expect(entry).toMatchObject({
      agrees: true,
      settings: "roberta-large_L17_no-idf",
      record_file: join(modelDir, "anamnesis-parity.json"),
    });
    const corpus = await runCli(["metrics", "corpus", "--input", pairs, "--bertscore-model", modelDir]);
    expect(corpus.status).toBe(0);
    expect(JSON.parse(corpus.stdout).bertscore.record.label).toMatch(
      /^native, matches the reference \(roberta-large_L17_no-idf_version=0\.3\.12\(hug_trans=4\.41\.2\)\) on 4 pairs to /,
    );
    const lines = await runCli(["metrics", "pairs", "--input", pairs, "--bertscore-model", modelDir]);
    const first = JSON.parse(lines.stdout.split("\n")[0]!);
    expect(Object.keys(first.bertscore)).toEqual(["precision", "recall", "f1"]);
    expect(lines.stderr).toMatch(/^bertscore: native, matches the reference/);
  });

  it("refuses a directory that is not a model, and a model without the layer, on one line, exit 2", async () => {
    expectOneLineError(
      await runCli(["score", "mts-dialog", "--predictions", notesFile, "--bertscore-model", root]),
      /is not a model directory for BERTScore: it has no config\.json, tokenizer\.json, onnx\/model\.onnx/,
    );
    const shallow = join(root, "tiny-2");
    writeTinyEncoder(shallow);
    expectOneLineError(
      await runCli(["score", "mts-dialog", "--predictions", notesFile, "--bertscore-model", shallow]),
      /gives the hidden state after its 2 layers only, and this BERTScore uses layer 17/,
    );
    expectOneLineError(
      await runCli(["score", "mts-dialog", "--predictions", notesFile, "--bleurt-model", shallow]),
      /is not a BLEURT model/,
    );
  });
});
