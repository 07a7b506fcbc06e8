import type { Command } from "commander";
import { AnamnesisError } from "../../src/foundation/errors.ts";
import { DEFAULT_LAYERS, type BertScoreSettings } from "../../src/metrics/bertscore/bertscore-settings.ts";
import type { ModelMetricRequest, ModelMetricSource } from "../../src/metrics/model-metrics/model-metrics.ts";
import { defaultPython } from "../../src/metrics/model-metrics/reference-bridge.ts";

/** The model-based metrics' flags, as commander parses them. */
export interface ModelMetricFlags {
  bertscore?: string;
  bertscoreModel?: string;
  bleurt?: string;
  bleurtModel?: string;
  bleurtCheckpoint?: string;
  python?: string;
  parityRecord?: string;
}

/** Which metrics' flags a command offers. */
export type ModelMetricChoice = "bertscore" | "bleurt";

/**
 * Adds the flags that say where BERTScore and BLEURT come from: the reference Python implementations
 * through the bridge (`--bertscore python`, `--bleurt python`, `--python`), or the native path over a
 * local ONNX model directory (`--bertscore-model DIR`, `--bleurt-model DIR`, `--parity-record FILE`).
 */
export function addModelMetricOptions(command: Command, metrics: readonly ModelMetricChoice[]): Command {
  if (metrics.includes("bertscore"))
    command
      .option("--bertscore <source>", "BERTScore from the reference: python (your bert-score, through --python)")
      .option("--bertscore-model <dir>", "BERTScore natively from a local ONNX export of the model (docs/metrics.md)");
  if (metrics.includes("bleurt"))
    command
      .option("--bleurt <source>", "BLEURT from the reference: python (your BLEURT, through --python)")
      .option("--bleurt-model <dir>", "BLEURT natively from a local ONNX export of the checkpoint with its head")
      .option(
        "--bleurt-checkpoint <dir>",
        "with --bleurt python: a BLEURT checkpoint directory (default: evaluate's, by name)",
      );
  if (metrics.length === 0) return command;
  return command
    .option("--python <exe>", "the Python interpreter of --bertscore/--bleurt python (default: $PYTHON or python3)")
    .option(
      "--parity-record <file>",
      "native metrics: the comparison records (default: anamnesis-parity.json in the model directory)",
    );
}

/** One metric's source from its two flags, or an error when both or a wrong value are given. */
function sourceOf(
  name: string,
  reference: string | undefined,
  modelDir: string | undefined,
  flags: ModelMetricFlags,
): ModelMetricSource | undefined {
  if (reference !== undefined && reference !== "python")
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `--${name} takes python (the reference through Python); for the native path give --${name}-model DIR`,
    );
  if (reference !== undefined && modelDir !== undefined)
    throw new AnamnesisError("INVALID_ARGUMENT", `give --${name} python or --${name}-model DIR, not both`);
  if (reference !== undefined) return { kind: "python", python: flags.python ?? defaultPython() };
  if (modelDir !== undefined)
    return { kind: "native", dir: modelDir, ...(flags.parityRecord ? { parityFile: flags.parityRecord } : {}) };
  return undefined;
}

/** The request the flags make (empty when none was given: the metrics are then null with their reason). */
export function modelMetricRequest(flags: ModelMetricFlags): ModelMetricRequest {
  const bertscore = sourceOf("bertscore", flags.bertscore, flags.bertscoreModel, flags);
  const bleurt = sourceOf("bleurt", flags.bleurt, flags.bleurtModel, flags);
  return {
    ...(bertscore ? { bertscore } : {}),
    ...(bleurt ? { bleurt } : {}),
    ...(flags.bleurtCheckpoint ? { bleurtCheckpoint: flags.bleurtCheckpoint } : {}),
  };
}

/** The flags that choose BERTScore's settings where no consumer fixes them (`anamnesis metrics`). */
export interface BertScoreSettingFlags {
  bertscoreModelType: string;
  bertscoreLayer?: string;
  bertscoreIdf?: boolean;
  bertscoreBaseline?: string;
  bertscoreCalls: string;
  bleurtCheckpoint?: string;
}

/** Adds the settings flags; the defaults are `bert_score.score(cands, refs, lang="en")`'s. */
export function addBertScoreSettingOptions(command: Command): Command {
  return command
    .option("--bertscore-model-type <name>", "bert-score's model_type", "roberta-large")
    .option(
      "--bertscore-layer <n>",
      "the layer (default: bert-score's for the model: roberta-large 17, microsoft/deberta-xlarge-mnli 40)",
    )
    .option("--bertscore-idf", "idf weights from the references (+1 smoothing)")
    .option(
      "--bertscore-baseline <file>",
      "rescale with this bert-score baseline file (rescale_baseline/en/<model>.tsv)",
    )
    .option(
      "--bertscore-calls <how>",
      "one (every pair in one bert-score call) or each (a call per pair, as lm-eval)",
      "one",
    );
}

/** BERTScore's settings from the flags, or a one-line error. */
export function bertScoreSettingsFrom(flags: BertScoreSettingFlags): BertScoreSettings {
  const layer =
    flags.bertscoreLayer !== undefined ? Number(flags.bertscoreLayer) : DEFAULT_LAYERS[flags.bertscoreModelType];
  if (layer === undefined || !Number.isInteger(layer) || layer < 0)
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `--bertscore-layer must be a layer number${flags.bertscoreLayer === undefined ? ` (no default for ${flags.bertscoreModelType})` : ""}`,
    );
  if (flags.bertscoreCalls !== "one" && flags.bertscoreCalls !== "each")
    throw new AnamnesisError("INVALID_ARGUMENT", "--bertscore-calls is one or each");
  return {
    model: flags.bertscoreModelType,
    layer,
    idf: flags.bertscoreIdf === true,
    rescaleWithBaseline: flags.bertscoreBaseline !== undefined,
    ...(flags.bertscoreBaseline !== undefined ? { baselinePath: flags.bertscoreBaseline } : {}),
    batchSize: 64,
    calls: flags.bertscoreCalls === "one" ? "one call" : "one call per pair",
  };
}
