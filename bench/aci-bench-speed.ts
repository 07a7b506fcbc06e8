/**
 * How long `anamnesis score aci-bench` takes on the 40 notes of a test split, whole process, as a user
 * meets it: Node's start, reading the gold split and the official predictions CSV, dividing every note
 * into its four divisions and scoring ROUGE-1/2/L/Lsum on the full notes and each division (200 pairs),
 * and printing. The target is 1 s on 2 cores. Runs one after another (`--runs`, default 11) after one
 * warm-up run that is not counted; wall seconds, and CPU seconds where GNU time is installed (less
 * inflated by other jobs on a busy machine).
 *
 *   npx tsx bench/aci-bench-speed.ts [--runs 11] [--json]
 *
 * Run `npm run build` first.
 */
import { scriptArgs } from "./script-args.ts";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../src/foundation/package-paths.ts";
import { SHIPPED_BASELINES, shippedBaselinePath } from "../eval/suites/aci-bench/shipped-baselines.ts";
import { benchOutput } from "./json-output.ts";
import { describeTimings, summarise, timeProcess } from "./process-timing.ts";

/** The limit the issue sets for scoring one test split's 40 notes, whole process. */
const LIMIT_SECONDS = 1;

const { values } = scriptArgs({
  options: { runs: { type: "string", default: "11" }, json: { type: "boolean", default: false } },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`--runs must be a positive whole number, not '${values.runs}'`);
  process.exit(2);
}

const output = benchOutput();
// The test-2 file with divisions: the one whose official results file the reproduction test checks.
const baseline = SHIPPED_BASELINES.find((candidate) => candidate.file.startsWith("LED_clinicalnlp_taskC"))!;
const args = [
  join(PACKAGE_ROOT, "bin", "anamnesis.js"),
  "score",
  "aci-bench",
  "--predictions",
  shippedBaselinePath(baseline),
  "--split",
  baseline.split,
  "--json",
];

timeProcess(process.execPath, args);
const summary = summarise(Array.from({ length: runs }, () => timeProcess(process.execPath, args)));
const within = summary.medianWall <= LIMIT_SECONDS;
output.line(describeTimings(`anamnesis score aci-bench, ${baseline.file} (40 notes)`, summary));
output.line(`${within ? "within" : "OVER"} the ${LIMIT_SECONDS} s limit (median wall)`);
output.result({
  file: baseline.file,
  split: baseline.split,
  notes: 40,
  limitSeconds: LIMIT_SECONDS,
  within,
  ...summary,
});
