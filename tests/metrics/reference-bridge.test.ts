/**
 * The bridge to the reference model metrics, with a stand-in `python3` (test-support/stand-in-python.ts)
 * that answers as `python/reference_metrics.py` does over a user's bert-score or BLEURT, or fails as a
 * broken installation does. Also: the shipped program's own argument and input handling, run by the
 * machine's Python when there is one (bert-score itself is not installed here, so it exits 3).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LM_EVAL_BERTSCORE, MEDITOD_BERTSCORE } from "../../src/metrics/bertscore/bertscore-settings.ts";
import { bundledPath } from "../../src/foundation/package-paths.ts";
import { referenceBertScore, referenceBleurt } from "../../src/metrics/model-metrics/reference-bridge.ts";
import { standInScore, writeStandInPython } from "../../test-support/stand-in-python.ts";
import { tempDirForFile } from "../temp-dirs.ts";

const CANDIDATES = ["the patient has a headache", "no fever", ""];
const REFERENCES = ["headache for two days", "she has no fever", "denies cough"];

describe("reference bridge with a stand-in python3", () => {
  const dir = tempDirForFile();
  const log = join(dir, "calls.jsonl");
  const python = writeStandInPython(dir, { log });

  it("passes the consumer's settings and returns the reference's scores, hash code and versions", async () => {
    const result = await referenceBertScore(CANDIDATES, REFERENCES, LM_EVAL_BERTSCORE, python);
    expect(result.f1).toEqual(CANDIDATES.map((c, i) => standInScore(c, REFERENCES[i]!)));
    expect(result.precision).toEqual(CANDIDATES.map((c, i) => standInScore(c, REFERENCES[i]!, 0.01)));
    expect(result.hashcode).toBe("roberta-large_L17_no-idf_version=0.3.12(hug_trans=4.41.2)");
    expect(result.versions).toMatchObject({ bert_score: "0.3.12", transformers: "4.41.2" });
    await referenceBertScore(CANDIDATES, REFERENCES, MEDITOD_BERTSCORE, python);
    const calls = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as string[]);
    expect(calls[0]).toEqual([
      bundledPath("python", "reference_metrics.py"),
      "bertscore",
      ...["--model-type", "roberta-large", "--num-layers", "17", "--batch-size", "64", "--calls", "each"],
    ]);
    expect(calls[1]).toContain("one");
  });

  it("returns BLEURT's scores for the checkpoint", async () => {
    const result = await referenceBleurt(CANDIDATES, REFERENCES, "bleurt-base-512", python);
    expect(result.checkpoint).toBe("bleurt-base-512");
    expect(result.scores).toEqual(CANDIDATES.map((c, i) => standInScore(c, REFERENCES[i]!, 0.3)));
  });

  it.each([
    [
      "missing",
      /^BERTScore \(reference\): bert-score is not installed for .*; install it with pip install bert-score$/,
    ],
    [
      "garbage",
      /^BERTScore \(reference\): .*python-garbage printed "Some weights of RobertaModel were not initialized", not the bridge's result$/,
    ],
    ["crash", /^BERTScore \(reference\): .*python-crash exited with 1: RuntimeError: CUDA out of memory$/],
  ] as const)("explains a %s reference in one line", async (mode, message) => {
    const broken = writeStandInPython(dir, { mode, name: `python-${mode}` });
    const error = await referenceBertScore(CANDIDATES, REFERENCES, LM_EVAL_BERTSCORE, broken).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain("\n");
  });

  it("says when the interpreter does not exist", async () => {
    await expect(referenceBertScore(["a"], ["b"], LM_EVAL_BERTSCORE, join(dir, "no-python"))).rejects.toThrow(
      /^BERTScore needs Python: .*no-python was not found \(install Python 3 with the reference package, or name the interpreter with --python\)$/,
    );
  });
});

const python3 = spawnSync("python3", ["--version"]).status === 0;

describe.runIf(python3)("python/reference_metrics.py under the machine's Python", () => {
  const program = bundledPath("python", "reference_metrics.py");
  const dir = tempDirForFile();
  const run = (args: string[], input: string) => spawnSync("python3", [program, ...args], { input, encoding: "utf8" });

  it("names a missing bert-score and how to install it, exit 3", () => {
    const result = run(
      ["bertscore", "--model-type", "roberta-large", "--num-layers", "17"],
      '{"prediction":"a","reference":"b"}\n',
    );
    expect(result.status).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim()).toMatch(
      /^bert-score is not installed for .*; install it with pip install bert-score$/,
    );
  });

  it("refuses input that is not JSON lines of pairs, exit 4, naming the line", () => {
    const result = run(["bleurt", "--checkpoint", "bleurt-base-512"], '{"prediction":"a","reference":"b"}\nnot json\n');
    expect(result.status).toBe(4);
    expect(result.stderr.trim()).toBe('standard input line 2: expected {"prediction", "reference"}');
  });
  it("names a missing QuickUMLS for MEDCON, exit 3", () => {
    const result = run(["medcon", "--quickumls", "/nowhere", "--semantic-groups", "/nowhere.txt"], "");
    expect(result.status).toBe(3);
    expect(result.stderr.trim()).toMatch(/^QuickUMLS is not installed for .*; install it with pip install quickumls/);
  });

  it("computes MEDCON as UMLS_evaluation.py over a stand-in QuickUMLS: the groups kept, terms counted once, 0 where undefined", () => {
    const modules = join(dir, "python-modules");
    mkdirSync(join(modules, "quickumls"), { recursive: true });
    // A stand-in QuickUMLS: each known word is a term with its own concept, if its type is accepted.
    writeFileSync(
      join(modules, "quickumls", "__init__.py"),
      [
        'TYPES = {"pain": "T184", "fever": "T184", "ibuprofen": "T121", "walking": "T056"}',
        "class QuickUMLS:",
        "    def __init__(self, path, window, threshold, accepted_semtypes):",
        "        assert (window, threshold) == (5, 1), (window, threshold)",
        "        self.accepted = set(accepted_semtypes)",
        "    def match(self, text, ignore_syntax=False):",
        "        assert ignore_syntax",
        '        words = text.lower().replace(",", " ").split()',
        '        return [[{"term": w, "cui": "C-" + w}] for w in words if TYPES.get(w) in self.accepted]',
        "",
      ].join("\n"),
    );
    const groups = join(dir, "SemGroups.txt");
    writeFileSync(
      groups,
      "DISO|Disorders|T184|Sign or Symptom\nACTI|Activities & Behaviors|T056|Daily or Recreational Activity\nCHEM|Chemicals & Drugs|T121|Pharmacologic Substance\n",
    );
    const pairs = [
      { prediction: "pain and fever, walking", reference: "pain with ibuprofen walking" },
      { prediction: "nothing here", reference: "pain" },
      { prediction: "pain pain", reference: "pain" },
    ];
    const result = spawnSync("python3", [program, "medcon", "--quickumls", dir, "--semantic-groups", groups], {
      input: pairs.map((pair) => JSON.stringify(pair)).join("\n"),
      encoding: "utf8",
      env: { ...process.env, PYTHONPATH: modules, PYTHONDONTWRITEBYTECODE: "1" },
    });
    expect(result.stderr).toBe("");
    const output = JSON.parse(result.stdout);
    // walking is an activity (an excluded group): P = R = 1/2. No concept in the prediction: 0. Repeats count once.
    expect(output).toMatchObject({ metric: "medcon", scores: [0.5, 0, 1] });
  });
});
