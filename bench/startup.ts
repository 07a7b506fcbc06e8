/**
 * The package's start-up figures, each as a user meets it (whole processes, start-up included):
 * - `anamnesis --help` cold start, median of N runs, beside `node -e 0` (Node's own start);
 * - `npm run bench` wall time (the three MediTOD suites on the embedded engine), median of N runs,
 *   through npm as the README's quick start runs it, and the same command without npm;
 * - `anamnesis metrics pairs` on 5,000 MTS-Dialog pairs as one process, against the Python reference
 *   implementations' ~280 pairs/s (our research notes), as a ratio;
 * - with `--npm-test`, the wall time of `npm test` (once; it takes minutes).
 *
 * - with `--against DIR` (another built checkout, e.g. a clean clone of an earlier commit), the bench
 *   command of both, alternating run by run, so that a busy host slows both alike.
 *
 *   npx tsx bench/startup.ts [--runs 11] [--npm-test] [--against DIR]
 *
 * Run `npm run build` first: the CLI runs the compiled build.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadMtsDialog } from "../src/data/mts-dialog.ts";
import { PACKAGE_ROOT, bundledPath } from "../src/foundation/package-paths.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "11" }, "npm-test": { type: "boolean", default: false }, against: { type: "string" } } });
const runs = Number(values.runs);
const bin = bundledPath("bin", "anamnesis.js");
/** The Python references' throughput on text pairs, from our research notes. */
const PYTHON_PAIRS_PER_SECOND = 280;
const PAIRS = 5000;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * GNU time, when installed, reports the CPU seconds (user + system, all threads) a process used: a
 * figure that other jobs on a busy machine inflate far less than the wall time.
 */
const GNU_TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;

interface Timing {
  readonly wall: number;
  readonly cpu?: number;
}

/** Wall seconds one process takes, from spawn to exit, and its CPU seconds; throws when it fails. */
function timeProcess(command: string, args: readonly string[]): Timing {
  const [file, fullArgs] = GNU_TIME ? [GNU_TIME, ["-f", "cpu %U %S", command, ...args]] : [command, args];
  const started = performance.now();
  const result = spawnSync(file, fullArgs, { cwd: PACKAGE_ROOT, encoding: "utf8", maxBuffer: 1 << 28 });
  const wall = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${result.stderr}`);
  const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(result.stderr);
  return cpu ? { wall, cpu: Number(cpu[1]) + Number(cpu[2]) } : { wall };
}

function medianOf(label: string, run: () => Timing): number {
  const timings = Array.from({ length: runs }, run);
  const walls = timings.map((timing) => timing.wall);
  const cpus = timings.flatMap((timing) => (timing.cpu === undefined ? [] : [timing.cpu]));
  const value = median(walls);
  const cpu = cpus.length > 0 ? `; CPU median ${median(cpus).toFixed(3)} s` : "";
  console.log(`${label}: median ${value.toFixed(3)} s (min ${Math.min(...walls).toFixed(3)}, max ${Math.max(...walls).toFixed(3)}, ${runs} runs${cpu})`);
  return value;
}

/**
 * MTS-Dialog pairs: each note section (reference) against another dialogue's note section
 * (prediction), as a retrieval baseline answers: real clinical text on both sides; deterministic.
 */
function mtsDialogPairs(count: number): string {
  const documents = Object.values(loadMtsDialog().splits).flat();
  const lines: string[] = [];
  for (let index = 0; lines.length < count; index++) {
    const reference = documents[index % documents.length]!.target;
    const prediction = documents[(index * 7 + 3) % documents.length]!.target;
    lines.push(JSON.stringify({ id: index, prediction, reference }));
  }
  return `${lines.join("\n")}\n`;
}

const nodeStart = medianOf("node -e 0", () => timeProcess(process.execPath, ["-e", "0"]));
const help = medianOf("anamnesis --help", () => timeProcess(process.execPath, [bin, "--help"]));
console.log(`  → --help costs ${((help - nodeStart) * 1000).toFixed(0)} ms above Node's own start (target ≤ 0.25 s in all)`);

const scratch = mkdtempSync(join(tmpdir(), "anamnesis-startup-"));
try {
  const out = join(scratch, "run");
  const benchArgs = ["bench", "--suite", "meditod", "--split", "test", "--out", out, "--restart"];
  medianOf("anamnesis bench (what npm run bench runs)", () => timeProcess(process.execPath, [bin, ...benchArgs]));
  medianOf("npm run bench", () => timeProcess("npm", ["run", "--silent", "bench"]));

  const pairsFile = join(scratch, "pairs.jsonl");
  writeFileSync(pairsFile, mtsDialogPairs(PAIRS));
  const metrics = medianOf(`anamnesis metrics pairs, ${PAIRS} MTS-Dialog pairs`, () => timeProcess(process.execPath, [bin, "metrics", "pairs", "--input", pairsFile]));
  const python = PAIRS / PYTHON_PAIRS_PER_SECOND;
  console.log(`  → ${(PAIRS / metrics).toFixed(0)} pairs/s as a whole process; Python references ≈ ${python.toFixed(1)} s on the same pairs: ${(python / metrics).toFixed(1)}× (target ≥ 20×)`);

  if (values.against) {
    const theirs = join(values.against, "bin", "anamnesis.js");
    const ours: Timing[] = [];
    const other: Timing[] = [];
    for (let run = 0; run < runs; run += 1) {
      ours.push(timeProcess(process.execPath, [bin, ...benchArgs]));
      other.push(timeProcess(process.execPath, [theirs, ...benchArgs]));
    }
    const describe = (timings: Timing[]) => `median ${median(timings.map((t) => t.wall)).toFixed(3)} s (min ${Math.min(...timings.map((t) => t.wall)).toFixed(3)})`;
    console.log(`anamnesis bench, alternating ${runs} runs each: this checkout ${describe(ours)}; ${values.against} ${describe(other)}`);
  }

  if (values["npm-test"]) {
    const { wall } = timeProcess("npm", ["test", "--silent"]);
    console.log(`npm test: ${wall.toFixed(1)} s wall (target ≤ 90 s on a quiet 2-core machine)`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
