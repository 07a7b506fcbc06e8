/**
 * `anamnesis metrics pairs` against the Python reference implementations it ports (sacrebleu,
 * rouge_score, nltk), measured side by side: both score the same `--pairs` MTS-Dialog pairs as whole
 * processes, alternating run by run so that a busy machine slows both alike, and the ratio is of the
 * two medians of this run. The Python side (`bench/metrics-reference.py`) computes a subset of what
 * ours does (see its header), so the ratio does not flatter us. The scores of the last run of each
 * are compared field by field, so the timing is known to be of the same work.
 *
 *   npx tsx bench/metrics-python.ts [--runs 5] [--pairs 5000] [--python python3] [--python-refs DIR] [--json]
 *
 * `--python-refs DIR` goes before PYTHONPATH: a folder holding the `sacrebleu` and `rouge_score`
 * packages (nltk may come from the interpreter's own packages, e.g. Debian's python3-nltk). When a
 * reference cannot be imported, ours is timed alone and the reason is printed instead of a ratio.
 */
import { scriptArgs } from "./script-args.ts";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { bundledPath } from "../src/foundation/package-paths.ts";
import { benchOutput } from "./json-output.ts";
import { mtsDialogPairs } from "./mts-dialog-pairs.ts";
import { describeTimings, runTimed, summarise, type TimedRun } from "./process-timing.ts";

const { values } = scriptArgs({
  options: {
    runs: { type: "string", default: "5" },
    pairs: { type: "string", default: "5000" },
    python: { type: "string", default: process.env.PYTHON ?? "python3" },
    "python-refs": { type: "string" },
    json: { type: "boolean", default: false },
  },
});
const runs = Number(values.runs);
const pairs = Number(values.pairs);
const out = benchOutput();
const bin = bundledPath("bin", "anamnesis.js");
const reference = bundledPath("bench", "metrics-reference.py");
const pythonPath = [values["python-refs"], process.env.PYTHONPATH]
  .filter((part) => part !== undefined && part !== "")
  .join(delimiter);
const pythonEnv = { ...process.env, PYTHONPATH: pythonPath };

/** The fields both sides compute, read from one line of each output. */
interface Comparable {
  readonly sacrebleu: number;
  readonly bleu2: number;
  readonly bleu4: number;
  readonly rouge: readonly number[];
}

const ROUGE_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"] as const;
type RougeF = Record<(typeof ROUGE_TYPES)[number], { fmeasure: number }>;

function ours(line: string): Comparable {
  const x = JSON.parse(line) as {
    sacrebleu_sentence: { score: number };
    nltk_bleu2: number;
    nltk_bleu4: number;
    rouge: { nostem: RougeF; stem: RougeF };
  };
  const rouge = [
    ...ROUGE_TYPES.map((type) => x.rouge.nostem[type].fmeasure),
    ...ROUGE_TYPES.map((type) => x.rouge.stem[type].fmeasure),
  ];
  return { sacrebleu: x.sacrebleu_sentence.score, bleu2: x.nltk_bleu2, bleu4: x.nltk_bleu4, rouge };
}

function theirs(line: string): Comparable {
  const x = JSON.parse(line) as {
    sacrebleu_sentence: number;
    nltk_bleu2: number;
    nltk_bleu4: number;
    rouge_nostem: Record<string, number>;
    rouge_stem: Record<string, number>;
  };
  const rouge = [
    ...ROUGE_TYPES.map((type) => x.rouge_nostem[type]!),
    ...ROUGE_TYPES.map((type) => x.rouge_stem[type]!),
  ];
  return { sacrebleu: x.sacrebleu_sentence, bleu2: x.nltk_bleu2, bleu4: x.nltk_bleu4, rouge };
}

/** How many pairs agree in every compared value bit for bit, and the largest relative difference. */
function agreement(
  ourOutput: string,
  theirOutput: string,
): { pairs: number; identical: number; maxRelativeDifference: number } {
  const a = ourOutput.trim().split("\n").map(ours);
  const b = theirOutput.trim().split("\n").map(theirs);
  if (a.length !== b.length)
    throw new Error(`metrics pairs wrote ${a.length} lines, the Python references ${b.length}`);
  let identical = 0;
  let maxRelativeDifference = 0;
  a.forEach((x, index) => {
    const y = b[index]!;
    const xs = [x.sacrebleu, x.bleu2, x.bleu4, ...x.rouge];
    const ys = [y.sacrebleu, y.bleu2, y.bleu4, ...y.rouge];
    if (xs.every((value, i) => value === ys[i])) identical += 1;
    for (const [i, value] of xs.entries()) {
      const difference = Math.abs(value - ys[i]!) / Math.max(Math.abs(value), Math.abs(ys[i]!), Number.MIN_VALUE);
      maxRelativeDifference = Math.max(maxRelativeDifference, difference);
    }
  });
  return { pairs: a.length, identical, maxRelativeDifference };
}

/** One run of each side; throws when ours fails, returns the Python run as it ended. */
function runOurs(file: string): TimedRun {
  const run = runTimed(process.execPath, [bin, "metrics", "pairs", "--input", file]);
  if (run.status !== 0) throw new Error(`anamnesis metrics pairs failed: ${run.stderr}`);
  return run;
}

const scratch = mkdtempSync(join(tmpdir(), "anamnesis-metrics-python-"));
try {
  const file = join(scratch, "pairs.jsonl");
  writeFileSync(file, mtsDialogPairs(pairs));
  // A two-pair probe: are the references there at all?
  const probeFile = join(scratch, "probe.jsonl");
  writeFileSync(probeFile, mtsDialogPairs(2));
  const probe = runTimed(values.python, [reference, "--input", probeFile], pythonEnv);
  const missing = probe.status === 0 ? undefined : (probe.stderr.trim().split("\n").at(-1) ?? `exit ${probe.status}`);
  const ourRuns: TimedRun[] = [];
  const theirRuns: TimedRun[] = [];
  for (let run = 0; run < runs; run += 1) {
    ourRuns.push(runOurs(file));
    if (!missing) theirRuns.push(runTimed(values.python, [reference, "--input", file], pythonEnv));
  }
  const oursSummary = summarise(ourRuns);
  out.line(describeTimings(`anamnesis metrics pairs, ${pairs} MTS-Dialog pairs`, oursSummary));
  if (missing) {
    out.line(
      `no ratio: the Python references did not run (${values.python}, PYTHONPATH=${pythonPath || "(unset)"}): ${missing}`,
    );
    out.result({ runs, pairs, ours: oursSummary, python: null, reason: missing });
  } else {
    const failed = theirRuns.find((run) => run.status !== 0);
    if (failed) throw new Error(`the Python references failed: ${failed.stderr}`);
    const pythonSummary = summarise(theirRuns);
    const ratio = pythonSummary.medianWall / oursSummary.medianWall;
    const parity = agreement(ourRuns.at(-1)!.stdout, theirRuns.at(-1)!.stdout);
    out.line(describeTimings(`Python references (sacrebleu, rouge_score, nltk), same pairs`, pythonSummary));
    out.line(`  → Python / ours ${ratio.toFixed(1)}× (medians of ${runs} alternated runs each)`);
    out.line(
      `  → ${parity.identical} of ${parity.pairs} pairs identical in all 11 compared values; largest relative difference ${parity.maxRelativeDifference.toExponential(1)}`,
    );
    out.result({ runs, pairs, ours: oursSummary, python: pythonSummary, ratio, parity, interpreter: values.python });
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
