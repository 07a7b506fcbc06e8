/**
 * ACI-Bench's shipped baseline outputs scored by `anamnesis score aci-bench`, as a user runs it: each of
 * the six predictions CSVs wyim/aci-bench ships (bundled in `data/aci-bench/predictions/`) against the
 * gold split it predicts, through the compiled CLI, one process per file. The figures are the official
 * script's (evaluate_fullnote.py): ROUGE-1, ROUGE-2 and rougeLsum — the paper's "ROUGE-L" — over all
 * notes, and the sentence-level ROUGE-L beside them; `tests/metrics/aci-bench-scoring.test.ts` checks
 * them against the paper's tables and the shipped results file.
 *
 *   npx tsx bench/aci-bench-baselines.ts [--json]
 *
 * Run `npm run build` first.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../src/foundation/package-paths.ts";
import { SHIPPED_BASELINES, shippedBaselinePath } from "../eval/suites/aci-bench/shipped-baselines.ts";
import { benchOutput } from "./json-output.ts";

/** One baseline's figures: its file, split and count, and the ROUGE means over all its notes. */
export interface BaselineFigures {
  readonly model: string;
  readonly file: string;
  readonly split: string;
  readonly notes: number;
  readonly rouge1: number;
  readonly rouge2: number;
  readonly rougeLsum: number;
  readonly rougeL: number;
}

const output = benchOutput();
const BIN = join(PACKAGE_ROOT, "bin", "anamnesis.js");

/** Scores one shipped file through the CLI; a failure stops the script with the CLI's own line. */
function scoreThroughCli(baseline: (typeof SHIPPED_BASELINES)[number]): BaselineFigures {
  const args = ["score", "aci-bench", "--predictions", shippedBaselinePath(baseline), "--split", baseline.split];
  const run = spawnSync(process.execPath, [BIN, ...args, "--json"], { cwd: PACKAGE_ROOT, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`anamnesis ${args.join(" ")} failed (exit ${run.status}): ${run.stderr}`);
  const scores = JSON.parse(run.stdout) as {
    notes: number;
    rouge: { ALL: { rouge1: number; rouge2: number; rougeL: number; rougeLsum: number } };
  };
  const all = scores.rouge.ALL;
  return {
    model: baseline.model,
    file: baseline.file,
    split: baseline.split,
    notes: scores.notes,
    rouge1: all.rouge1,
    rouge2: all.rouge2,
    rougeLsum: all.rougeLsum,
    rougeL: all.rougeL,
  };
}

const baselines = SHIPPED_BASELINES.map((baseline) => {
  const figures = scoreThroughCli(baseline);
  const cells = [figures.rouge1, figures.rouge2, figures.rougeLsum].map((value) => (value * 100).toFixed(2));
  output.line(`${figures.split} ${figures.model}: ROUGE-1 / ROUGE-2 / ROUGE-L(sum) ${cells.join(" / ")}`);
  return figures;
});
output.result({ baselines });
