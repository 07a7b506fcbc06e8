/**
 * Native BERTScore and BLEURT throughput, in notes per second, over a local ONNX model directory:
 *
 *   npx tsx bench/model-metrics.ts [--bertscore-model DIR] [--bleurt-model DIR] [--notes 40]
 *                                  [--layer 17] [--batch 16] [--tiny] [--json]
 *
 * The notes are the first `--notes` targets of MTS-Dialog's bundled valid split, each scored against
 * the next one (real note lengths, unrelated content). BERTScore uses lm-eval's settings (layer
 * `--layer`, no idf, one call per note) and runs `--batch` sentences per forward pass; loading (the
 * runtime, tokenizer and session) is timed apart from scoring. The model directories may also come
 * from ANAMNESIS_BERTSCORE_MODEL and ANAMNESIS_BLEURT_MODEL. With none, nothing is loaded and nothing
 * measured (the script says so): weights cannot be fetched here. `--tiny` measures the tests' tiny
 * random 17-layer encoder instead, to show the chain works (its figures say nothing of a real model).
 */
import { scriptArgs } from "./script-args.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { loadMtsDialog } from "../src/data/mts-dialog.ts";
import { noteSplit } from "../src/data/note-dataset.ts";
import { LM_EVAL_BERTSCORE } from "../src/metrics/bertscore/bertscore-settings.ts";
import { computeBertScore } from "../src/metrics/bertscore/bertscore.ts";
import { openNativeBertScore } from "../src/metrics/bertscore/native-bertscore.ts";
import { nativeBleurt } from "../src/metrics/bleurt/native-bleurt.ts";
import { writeTinyEncoder } from "../test-support/tiny-encoder.ts";
import { benchOutput } from "./json-output.ts";

const { values } = scriptArgs({
  options: {
    "bertscore-model": { type: "string", default: process.env.ANAMNESIS_BERTSCORE_MODEL },
    "bleurt-model": { type: "string", default: process.env.ANAMNESIS_BLEURT_MODEL },
    notes: { type: "string", default: "40" },
    layer: { type: "string", default: String(LM_EVAL_BERTSCORE.layer) },
    batch: { type: "string", default: "16" },
    tiny: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  },
});
const out = benchOutput();
const notes = noteSplit(loadMtsDialog(), "valid")
  .slice(0, Number(values.notes) + 1)
  .map((document) => document.target);
const candidates = notes.slice(0, -1);
const references = notes.slice(1);

/** One metric's timing. */
interface Throughput {
  readonly metric: string;
  readonly model: string;
  readonly notes: number;
  readonly loadSeconds?: number;
  readonly scoreSeconds: number;
  readonly notesPerSecond: number;
}

async function timeBertScore(dir: string): Promise<Throughput> {
  const settings = { ...LM_EVAL_BERTSCORE, layer: Number(values.layer) };
  const loadStart = performance.now();
  const { encoder, record } = await openNativeBertScore(dir, settings);
  const loaded = performance.now();
  await computeBertScore(candidates, references, settings, encoder, { sentencesPerBatch: Number(values.batch) });
  const scoreSeconds = (performance.now() - loaded) / 1000;
  return {
    metric: "BERTScore",
    model: `${record.model_name} (${record.layer_output})`,
    notes: candidates.length,
    loadSeconds: (loaded - loadStart) / 1000,
    scoreSeconds,
    notesPerSecond: candidates.length / scoreSeconds,
  };
}

async function timeBleurt(dir: string): Promise<Throughput> {
  const start = performance.now();
  const { record } = await nativeBleurt(dir, candidates, references, { pairsPerBatch: Number(values.batch) });
  const scoreSeconds = (performance.now() - start) / 1000;
  return {
    metric: "BLEURT (load included)",
    model: record.model_name,
    notes: candidates.length,
    scoreSeconds,
    notesPerSecond: candidates.length / scoreSeconds,
  };
}

const scratch = values.tiny ? mkdtempSync(join(tmpdir(), "anamnesis-bench-model-")) : undefined;
try {
  const bertscoreDir = scratch
    ? writeTinyEncoder(join(scratch, "tiny-17"), { layers: 17 }).dir
    : values["bertscore-model"];
  const bleurtDir = scratch
    ? writeTinyEncoder(join(scratch, "tiny-bleurt"), { head: "regression", name: "tiny-bleurt" }).dir
    : values["bleurt-model"];
  const rows: Throughput[] = [];
  if (bertscoreDir) rows.push(await timeBertScore(bertscoreDir));
  if (bleurtDir) rows.push(await timeBleurt(bleurtDir));
  const reason =
    rows.length === 0
      ? "no model directory given (--bertscore-model, --bleurt-model): nothing loaded, nothing measured"
      : undefined;
  if (reason) out.line(reason);
  for (const row of rows)
    out.line(
      `${row.metric}, ${row.model}: ${row.notes} notes in ${row.scoreSeconds.toFixed(2)} s = ${row.notesPerSecond.toFixed(2)} notes/s${row.loadSeconds !== undefined ? ` (load ${row.loadSeconds.toFixed(2)} s)` : ""}`,
    );
  out.result({ tiny: values.tiny, batch: Number(values.batch), rows, ...(reason ? { reason } : {}) });
} finally {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}
