/**
 * The package's start-up figures, each as a user meets it (whole processes, start-up included):
 * - `anamnesis --help` cold start, median of N runs, beside `node -e 0` (Node's own start);
 * - `npm run bench` wall time (the three MediTOD suites on the embedded engine), median of N runs,
 *   through npm as the README's quick start runs it, and the same command (with the script's Node
 *   flags) without npm;
 * - `anamnesis metrics pairs` on `--pairs` MTS-Dialog pairs as one process (the comparison with the
 *   Python references is `bench/metrics-python.ts`, which runs both);
 * - with `--against DIR` (another built checkout, e.g. a clean clone of an earlier commit), the bench
 *   command of both, each with its own script's Node flags, alternating run by run, so that a busy host
 *   slows both alike, and their ratio;
 * - with `--npm-test`, the wall time of `npm test` (once; it takes minutes).
 *
 *   npx tsx bench/startup.ts [--runs 11] [--pairs 5000] [--npm-test] [--against DIR] [--json]
 *
 * Run `npm run build` first: the CLI runs the compiled build.
 */
import { scriptArgs } from "./script-args.ts";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundledPath } from "../src/foundation/package-paths.ts";
import { benchOutput } from "./json-output.ts";
import { mtsDialogPairs } from "./mts-dialog-pairs.ts";
import {
  alternate,
  describeTimings,
  summarise,
  timeProcess,
  type Timing,
  type TimingSummary,
} from "./process-timing.ts";

const { values } = scriptArgs({
  options: {
    runs: { type: "string", default: "11" },
    pairs: { type: "string", default: "5000" },
    "npm-test": { type: "boolean", default: false },
    against: { type: "string" },
    json: { type: "boolean", default: false },
  },
});
const runs = Number(values.runs);
const pairs = Number(values.pairs);
const bin = bundledPath("bin", "anamnesis.js");
const out = benchOutput();

/** `npm run bench`'s script: `node <flags> bin/anamnesis.js <arguments>`. */
const BENCH_SCRIPT = /^node((?: --\S+)*) bin\/anamnesis\.js /;

/** The Node flags `npm run bench` gives the command in the checkout at `dir`. */
function benchNodeFlags(dir: string): string[] {
  const { scripts } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { scripts: { bench: string } };
  const flags = BENCH_SCRIPT.exec(scripts.bench);
  if (!flags) throw new Error(`${dir}: the bench script is not 'node <flags> bin/anamnesis.js …': ${scripts.bench}`);
  return flags[1]!.trim().split(" ").filter(Boolean);
}

/** `runs` timings of one process, summarised and printed. */
function measure(label: string, run: () => Timing): TimingSummary {
  const summary = summarise(Array.from({ length: runs }, run));
  out.line(describeTimings(label, summary));
  return summary;
}

const node = measure("node -e 0", () => timeProcess(process.execPath, ["-e", "0"]));
const help = measure("anamnesis --help", () => timeProcess(process.execPath, [bin, "--help"]));
out.line(`  → --help costs ${((help.medianWall - node.medianWall) * 1000).toFixed(0)} ms above Node's own start`);

const scratch = mkdtempSync(join(tmpdir(), "anamnesis-startup-"));
try {
  const benchArgs = ["bench", "--suite", "meditod", "--split", "test", "--out", join(scratch, "run"), "--restart"];
  const ourFlags = benchNodeFlags(bundledPath());
  const benchCommand = measure("anamnesis bench with npm run bench's Node flags, without npm", () =>
    timeProcess(process.execPath, [...ourFlags, bin, ...benchArgs]),
  );
  const npmRunBench = measure("npm run bench", () => timeProcess("npm", ["run", "--silent", "bench"]));

  const pairsFile = join(scratch, "pairs.jsonl");
  writeFileSync(pairsFile, mtsDialogPairs(pairs));
  const metricsPairs = measure(`anamnesis metrics pairs, ${pairs} MTS-Dialog pairs`, () =>
    timeProcess(process.execPath, [bin, "metrics", "pairs", "--input", pairsFile]),
  );
  out.line(`  → ${(pairs / metricsPairs.medianWall).toFixed(0)} pairs/s as a whole process`);

  let against: { dir: string; ours: TimingSummary; theirs: TimingSummary; ratio: number } | undefined;
  if (values.against) {
    const theirs = join(values.against, "bin", "anamnesis.js");
    const theirFlags = benchNodeFlags(values.against);
    const pair = alternate(
      runs,
      () => timeProcess(process.execPath, [...ourFlags, bin, ...benchArgs]),
      () => timeProcess(process.execPath, [...theirFlags, theirs, ...benchArgs]),
    );
    against = {
      dir: values.against,
      ours: pair.first,
      theirs: pair.second,
      ratio: pair.second.medianWall / pair.first.medianWall,
    };
    out.line(
      `anamnesis bench, alternating ${runs} runs each: ${describeTimings("this checkout", pair.first)}; ${describeTimings(values.against, pair.second)}; theirs / ours ${against.ratio.toFixed(2)}`,
    );
  }

  let npmTest: number | undefined;
  if (values["npm-test"]) {
    npmTest = timeProcess("npm", ["test", "--silent"]).wall;
    out.line(`npm test: ${npmTest.toFixed(1)} s wall`);
  }
  out.result({ runs, pairs, node, help, benchCommand, npmRunBench, metricsPairs, against, npmTest });
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
