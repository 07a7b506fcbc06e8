/**
 * A stand-in for `python3` in tests of the reference bridge (src/metrics/model-metrics/
 * reference-bridge.ts): an executable that, asked to run `reference_metrics.py`, answers in the format
 * that program writes when the user's bert-score, BLEURT or QuickUMLS runs (the hash code, versions and
 * float32 scores; MEDCON's with salt 0.4), or behaves as a broken installation does. The tests put it first on PATH or pass it with
 * `--python`.
 *
 * Its scores are a simple function of the texts (shared with the tests through {@link standInScore}),
 * so a test knows what the bridge must report. Modes: `ok`, `missing` (exit 3 with the program's line
 * for an absent bert-score), `garbage` (prints what is not the program's output), `crash` (a Python
 * traceback and exit 1). Each run appends its arguments to a log file when one is given.
 */
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The stand-in's score of a pair: the Dice overlap of their lower-cased word sets, rounded to float32. */
export function standInScore(prediction: string, reference: string, salt = 0): number {
  const words = (text: string) => new Set(text.toLowerCase().split(/\s+/).filter(Boolean));
  const a = words(prediction);
  const b = words(reference);
  const shared = [...a].filter((word) => b.has(word)).length;
  const dice = a.size + b.size === 0 ? 0 : (2 * shared) / (a.size + b.size);
  return Math.fround(0.5 + dice / 2 - salt);
}

const SCRIPT = String.raw`
const { appendFileSync, readFileSync } = require("node:fs");
const args = process.argv.slice(2);
if (log) appendFileSync(log, JSON.stringify(args) + "\n");
if (!args[0] || !args[0].endsWith("reference_metrics.py")) { console.error("stand-in: unexpected " + args[0]); process.exit(2); }
if (mode === "missing") {
  console.error("bert-score is not installed for /usr/bin/python3 (No module named 'bert_score'); install it with pip install bert-score");
  process.exit(3);
}
if (mode === "garbage") { console.log("Some weights of RobertaModel were not initialized"); process.exit(0); }
if (mode === "crash") { console.error("Traceback (most recent call last):\nRuntimeError: CUDA out of memory"); process.exit(1); }
const pairs = readFileSync(0, "utf8").split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
const words = (text) => new Set(text.toLowerCase().split(/\s+/).filter(Boolean));
const score = (p, r, salt) => {
  const a = words(p), b = words(r);
  const shared = [...a].filter((w) => b.has(w)).length;
  const dice = a.size + b.size === 0 ? 0 : (2 * shared) / (a.size + b.size);
  return Math.fround(0.5 + dice / 2 - salt);
};
const option = (name) => args[args.indexOf(name) + 1];
if (args[1] === "bertscore") {
  const f1 = pairs.map((pair) => score(pair.prediction, pair.reference, 0));
  console.log(JSON.stringify({
    metric: "bertscore",
    hashcode: option("--model-type") + "_L" + option("--num-layers") + "_no-idf_version=0.3.12(hug_trans=4.41.2)",
    versions: { bert_score: "0.3.12", bert_score_distribution: "0.3.13", transformers: "4.41.2", torch: "2.3.1", python: "3.11.7" },
    precision: pairs.map((pair) => score(pair.prediction, pair.reference, 0.01)),
    recall: pairs.map((pair) => score(pair.prediction, pair.reference, 0.02)),
    f1,
    f1_mean: f1.length ? Math.fround(f1.reduce((a, b) => a + b, 0) / f1.length) : null,
  }));
} else if (args[1] === "medcon") {
  console.log(JSON.stringify({
    metric: "medcon",
    versions: { quickumls: "1.4.0", python: "3.11.7" },
    scores: pairs.map((pair) => score(pair.prediction, pair.reference, 0.4)),
  }));
} else {
  console.log(JSON.stringify({
    metric: "bleurt",
    checkpoint: option("--checkpoint"),
    versions: { bleurt: "0.0.2", tensorflow: "2.15.0", python: "3.11.7", evaluate: "0.4.0" },
    scores: pairs.map((pair) => score(pair.prediction, pair.reference, 0.3)),
  }));
}
`;

/** How a stand-in behaves, and where it is written. */
export interface StandInOptions {
  readonly mode?: "ok" | "missing" | "garbage" | "crash";
  /** A file each run appends its arguments to, as a JSON line. */
  readonly log?: string;
  /** Its file name (default `python3`, so that a directory of it can go first on PATH). */
  readonly name?: string;
}

/** Writes the stand-in as an executable `<dir>/<name>` and returns its path. */
export function writeStandInPython(dir: string, options: StandInOptions = {}): string {
  const path = join(dir, options.name ?? "python3");
  const header = `#!/usr/bin/env node\nconst mode = ${JSON.stringify(options.mode ?? "ok")};\nconst log = ${JSON.stringify(options.log ?? "")};`;
  writeFileSync(path, header + SCRIPT);
  chmodSync(path, 0o755);
  return path;
}
