import type { Command } from "commander";
import { AnamnesisError } from "../../src/foundation/errors.ts";
import { scoreCorpus, type TextPair } from "../../src/metrics/pair-metrics.ts";
import { writePairLines } from "../../src/metrics/pair-lines.ts";
import { printJson } from "../shared/output.ts";
import { readJsonLines } from "../../src/data/json-lines.ts";
import { inputName } from "../../src/data/input-file.ts";
import { toJsonText } from "../../src/data/json-lines.ts";
import { numpyMean } from "../../src/metrics/numpy-sum.ts";
import { bertScoreOf, bleurtOf, type ModelMetricRecord } from "../../src/metrics/model-metrics/model-metrics.ts";
import { compareBertScore, compareBleurt } from "../../src/metrics/model-metrics/compare-with-reference.ts";
import { defaultPython } from "../../src/metrics/model-metrics/reference-bridge.ts";
import {
  addBertScoreSettingOptions,
  addModelMetricOptions,
  bertScoreSettingsFrom,
  bleurtCheckpointFrom,
  modelMetricRequest,
  type BertScoreSettingFlags,
  type ModelMetricFlags,
} from "../shared/model-metric-options.ts";

/** One input line: `{"id", "prediction", "reference"}`; `id` is echoed back as given. */
interface InputPair extends TextPair {
  rawId: string | number;
}

/**
 * Reads a JSONL file of pairs. Every line is validated before anything is scored, so a bad line fails
 * the whole command (exit 2) instead of leaving partial output. Blank lines are skipped.
 */
export function readPairsFile(path: string): InputPair[] {
  const source = inputName(path);
  return readJsonLines(path, "input file").map(({ line, value: json }) => {
    if (json === null || typeof json !== "object" || Array.isArray(json)) {
      throw new AnamnesisError(
        "INVALID_ARGUMENT",
        `${source}:${line}: expected an object {"id", "prediction", "reference"}`,
      );
    }
    const record = json as Record<string, unknown>;
    const id = record.id;
    if (typeof id !== "string" && typeof id !== "number") {
      throw new AnamnesisError("INVALID_ARGUMENT", `${source}:${line}: "id" must be a string or a number`);
    }
    for (const field of ["prediction", "reference"] as const) {
      if (typeof record[field] !== "string") {
        throw new AnamnesisError("INVALID_ARGUMENT", `${source}:${line}: "${field}" must be a string`);
      }
    }
    return {
      rawId: id,
      id: String(id),
      prediction: record.prediction as string,
      reference: record.reference as string,
    };
  });
}

/** The flags of `metrics pairs|corpus`: the input, and where BERTScore and BLEURT come from. */
type MetricsFlags = { input: string } & ModelMetricFlags & BertScoreSettingFlags;

/** Per-pair BERTScore and BLEURT when their sources were given, and how each was produced. */
interface PairModelMetrics {
  readonly bertscore?: {
    precision: readonly number[];
    recall: readonly number[];
    f1: readonly number[];
    f1Mean: number;
  };
  readonly bleurt?: readonly number[];
  readonly records: { bertscore?: ModelMetricRecord; bleurt?: ModelMetricRecord };
}

async function pairModelMetrics(pairs: readonly InputPair[], flags: MetricsFlags): Promise<PairModelMetrics> {
  const request = modelMetricRequest(flags);
  const candidates = pairs.map((pair) => pair.prediction);
  const references = pairs.map((pair) => pair.reference);
  const bertscore = request.bertscore
    ? await bertScoreOf(request.bertscore, candidates, references, bertScoreSettingsFrom(flags))
    : undefined;
  const checkpoint = bleurtCheckpointFrom(flags);
  const bleurt = request.bleurt
    ? await bleurtOf({ ...request, bleurt: request.bleurt }, candidates, references, checkpoint)
    : undefined;
  return {
    ...(bertscore ? { bertscore } : {}),
    ...(bleurt ? { bleurt: bleurt.scores } : {}),
    records: { ...(bertscore ? { bertscore: bertscore.record } : {}), ...(bleurt ? { bleurt: bleurt.record } : {}) },
  };
}

/** The `metrics pairs` lines with each pair's BERTScore and BLEURT added. */
function withModelMetrics(lines: string, offset: number, metrics: PairModelMetrics): string {
  return lines
    .split("\n")
    .filter((line) => line !== "")
    .map((line, k) => {
      const i = offset + k;
      const { bertscore, bleurt } = metrics;
      return toJsonText({
        ...(JSON.parse(line) as object),
        ...(bertscore
          ? { bertscore: { precision: bertscore.precision[i], recall: bertscore.recall[i], f1: bertscore.f1[i] } }
          : {}),
        ...(bleurt ? { bleurt: bleurt[i] } : {}),
      });
    })
    .map((line) => `${line}\n`)
    .join("");
}

function addPairsCommand(metrics: Command): void {
  const command = metrics
    .command("pairs")
    .description(
      "Every metric for each pair: JSONL in ({id, prediction, reference}), JSONL out ({id, ...metrics}); BERTScore and BLEURT given a source.",
    )
    .requiredOption(
      "--input <file>",
      'JSONL, one pair per line: {"id", "prediction", "reference"}; - reads standard input',
    );
  addBertScoreSettingOptions(addModelMetricOptions(command, ["bertscore", "bleurt"])).action(
    async (flags: MetricsFlags) => {
      const pairs = readPairsFile(flags.input);
      const models = await pairModelMetrics(pairs, flags);
      let written = 0;
      await writePairLines(pairs, (text) => {
        const count = text.split("\n").filter((line) => line !== "").length;
        process.stdout.write(
          models.records.bertscore || models.records.bleurt ? withModelMetrics(text, written, models) : text,
        );
        written += count;
      });
      for (const [name, record] of Object.entries(models.records))
        if (record.status !== "unavailable") process.stderr.write(`${name}: ${record.label}, ${record.settings}\n`);
    },
  );
}

function addCorpusCommand(metrics: Command): void {
  const command = metrics
    .command("corpus")
    .description(
      "Corpus-level values over all pairs of the file (no bootstrap): one JSON object; BERTScore and BLEURT means given a source.",
    )
    .requiredOption(
      "--input <file>",
      'JSONL, one pair per line: {"id", "prediction", "reference"}; - reads standard input',
    );
  addBertScoreSettingOptions(addModelMetricOptions(command, ["bertscore", "bleurt"])).action(
    async (flags: MetricsFlags) => {
      const pairs = readPairsFile(flags.input);
      const models = await pairModelMetrics(pairs, flags);
      const { bertscore, bleurt, records } = models;
      printJson({
        ...scoreCorpus(pairs),
        ...(bertscore
          ? {
              bertscore: {
                precision_mean: numpyMean(bertscore.precision),
                recall_mean: numpyMean(bertscore.recall),
                f1_mean: bertscore.f1Mean,
                record: records.bertscore,
              },
            }
          : {}),
        ...(bleurt ? { bleurt: { mean: numpyMean(bleurt), record: records.bleurt } } : {}),
      });
    },
  );
}

/** `metrics compare`: the native path against the reference on the same pairs, recorded. */
function addCompareCommand(metrics: Command): void {
  const command = metrics
    .command("compare")
    .description(
      "Score the pairs natively and with the reference (through Python), print the largest difference and record the comparison; exit 1 when they differ beyond --tolerance.",
    )
    .requiredOption("--input <file>", 'JSONL, one pair per line: {"id", "prediction", "reference"}')
    .option("--tolerance <x>", "the largest difference that counts as the same figures", "1e-5");
  addBertScoreSettingOptions(addModelMetricOptions(command, ["bertscore", "bleurt"])).action(
    async (flags: MetricsFlags & { tolerance: string }) => {
      const modelDir = flags.bertscoreModel ?? flags.bleurtModel;
      const tolerance = Number(flags.tolerance);
      if (!modelDir || (flags.bertscoreModel && flags.bleurtModel) || !(tolerance >= 0))
        throw new AnamnesisError(
          "INVALID_ARGUMENT",
          "metrics compare needs one of --bertscore-model DIR or --bleurt-model DIR, and a --tolerance ≥ 0",
        );
      const pairs = readPairsFile(flags.input);
      const candidates = pairs.map((pair) => pair.prediction);
      const references = pairs.map((pair) => pair.reference);
      const request = {
        modelDir,
        python: flags.python ?? defaultPython(),
        tolerance,
        ...(flags.parityRecord ? { parityFile: flags.parityRecord } : {}),
      };
      const outcome = flags.bertscoreModel
        ? await compareBertScore(request, candidates, references, bertScoreSettingsFrom(flags))
        : await compareBleurt(request, candidates, references, bleurtCheckpointFrom(flags));
      printJson({ ...outcome.entry, record_file: outcome.file });
      if (!outcome.entry.agrees) process.exitCode = 1;
    },
  );
}

/** Adds `anamnesis metrics pairs|corpus|compare`: BLEU / ROUGE / lm-eval values with parity to the Python references, BERTScore and BLEURT. */
export function registerMetricsCommands(program: Command): void {
  const metrics = program
    .command("metrics")
    .description(
      "Text-generation metrics (HF/sacrebleu/nltk BLEU, rouge_score, lm-eval, MediTOD; BERTScore, BLEURT) for prediction/reference pairs.",
    );

  addPairsCommand(metrics);
  addCorpusCommand(metrics);
  addCompareCommand(metrics);
}
