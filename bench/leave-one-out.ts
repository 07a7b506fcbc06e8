/**
 * How well the embedded engine generalises to a doctor and patient it has never seen, measured without
 * touching the test split: leave-one-dialogue-out over the train and valid dialogues (plus the
 * development dialogues of `data/meditod-dev/` when they are there). For each held-out dialogue the
 * engine is built from all the others and the three MediTOD suites score the held-out one, exactly as
 * `anamnesis bench --split valid` does.
 *
 *   npx tsx bench/leave-one-out.ts [--data DIR]... [--keep DIR] [--json]
 *
 * `--keep DIR` keeps each fold's run directory (predictions, report) under DIR/<held-out id>.
 *
 * The test split is never read: its dialogues are excluded before any fold is made.
 */
import { scriptArgs } from "./script-args.ts";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUNDLED_MEDITOD_DIR, loadMeditod, type Dialogue } from "../src/data/meditod.ts";
import { BUNDLED } from "../src/foundation/package-paths.ts";

/** The figures read from one fold's results.json. */
interface FoldSuites {
  "meditod-nlu": { overall: { f1: number } };
  "meditod-pol": { overall: { f1: number }; precision_at: { "1": number } };
  "meditod-nlg": { bleu4: number; rougeL: number };
}

const DEVELOPMENT_DIR = BUNDLED.meditodDev;
const { values } = scriptArgs({
  options: {
    data: { type: "string", multiple: true },
    json: { type: "boolean", default: false },
    keep: { type: "string" },
  },
});
const dataDirs = values.data ?? [
  BUNDLED_MEDITOD_DIR,
  ...(existsSync(join(DEVELOPMENT_DIR, "dialogs.json")) ? [DEVELOPMENT_DIR] : []),
];
const bin = fileURLToPath(new URL("../bin/anamnesis.js", import.meta.url));

const dialogues = new Map<string, Dialogue>();
for (const dir of dataDirs) {
  const dataset = loadMeditod(dir);
  const heldBack = new Set([...(dataset.splits.test ?? []), ...(dataset.splits.ood ?? [])]);
  for (const [id, dialogue] of dataset.dialogues) if (!heldBack.has(id)) dialogues.set(id, dialogue);
}
const ids = [...dialogues.keys()];
if (ids.length < 2) throw new Error(`leave-one-out needs at least two non-test dialogues (found ${ids.length})`);

interface FoldScores {
  heldOut: string;
  nluF1: number;
  polF1: number;
  polP1: number;
  bleu4: number;
  rougeL: number;
}

const folds: FoldScores[] = [];
for (const heldOut of ids) {
  const dir = mkdtempSync(join(tmpdir(), "anamnesis-loo-"));
  try {
    writeFileSync(
      join(dir, "dialogs.json"),
      JSON.stringify(
        Object.fromEntries([...dialogues].map(([id, dialogue]) => [id, { utterances: dialogue.utterances }])),
      ),
    );
    writeFileSync(join(dir, "train_ids.json"), JSON.stringify(ids.filter((id) => id !== heldOut)));
    writeFileSync(join(dir, "valid_ids.json"), JSON.stringify([heldOut]));
    writeFileSync(join(dir, "test_ids.json"), "[]");
    const result = spawnSync(
      process.execPath,
      [
        bin,
        "bench",
        "--suite",
        "meditod",
        "--split",
        "valid",
        "--data",
        dir,
        "--out",
        values.keep ? join(values.keep, heldOut) : join(dir, "run"),
        "--restart",
        "--json",
      ],
      { encoding: "utf8" },
    );
    if (result.status !== 0) throw new Error(`bench failed on fold ${heldOut}: ${result.stderr}`);
    const suites = (JSON.parse(result.stdout) as { suites: FoldSuites }).suites;
    folds.push({
      heldOut,
      nluF1: suites["meditod-nlu"].overall.f1,
      polF1: suites["meditod-pol"].overall.f1,
      polP1: suites["meditod-pol"].precision_at["1"],
      bleu4: suites["meditod-nlg"].bleu4,
      rougeL: suites["meditod-nlg"].rougeL,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const mean = (pick: (fold: FoldScores) => number) => folds.reduce((sum, fold) => sum + pick(fold), 0) / folds.length;
const summary = {
  nluF1: mean((f) => f.nluF1),
  polF1: mean((f) => f.polF1),
  polP1: mean((f) => f.polP1),
  bleu4: mean((f) => f.bleu4),
  rougeL: mean((f) => f.rougeL),
};
if (values.json) {
  console.log(JSON.stringify({ folds, mean: summary }, null, 2));
} else {
  const row = (name: string, s: Omit<FoldScores, "heldOut">) =>
    `${name.padEnd(12)} ${s.nluF1.toFixed(4).padStart(7)} ${s.polF1.toFixed(4).padStart(7)} ${s.polP1.toFixed(4).padStart(7)} ${s.bleu4.toFixed(2).padStart(7)} ${s.rougeL.toFixed(4).padStart(8)}`;
  console.log(
    `leave-one-dialogue-out over ${ids.length} dialogues (test split excluded), embedded engine, exact judge`,
  );
  console.log(
    `${"held out".padEnd(12)} ${"NLU F1".padStart(7)} ${"POL F1".padStart(7)} ${"P@1".padStart(7)} ${"BLEU-4".padStart(7)} ${"ROUGE-L".padStart(8)}`,
  );
  for (const fold of folds) console.log(row(fold.heldOut, fold));
  console.log(row("mean", summary));
}
