import type { Command } from "commander";
import { AnamnesisError } from "../../src/foundation/errors.ts";
import { DEFAULT_LAYERS, type BertScoreSettings } from "../../src/metrics/bertscore/bertscore-settings.ts";
import { CONSUMERS, type ConsumerSettings } from "../../src/metrics/model-metrics/consumers.ts";
import { checkModelDirectory } from "../../src/metrics/onnx/model-directory.ts";
import type { ModelMetricRequest, ModelMetricSource } from "../../src/metrics/model-metrics/model-metrics.ts";
import { defaultPython, type MedconInstallation } from "../../src/metrics/model-metrics/reference-bridge.ts";
import { existsSync, statSync } from "node:fs";

/** The model-based metrics' flags, as commander parses them. */
export interface ModelMetricFlags {
  bertscore?: string;
  bertscoreModel?: string;
  bleurt?: string;
  bleurtModel?: string;
  bleurtCheckpoint?: string;
  python?: string;
  parityRecord?: string;
  medcon?: string;
  quickumls?: string;
  umlsSemanticGroups?: string;
}

/** Which metrics' flags a command offers. */
export type ModelMetricChoice = "bertscore" | "bleurt" | "medcon";

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
  if (metrics.includes("medcon"))
    command
      .option(
        "--medcon <source>",
        "MEDCON (UMLS concept F1) from the reference: python (your QuickUMLS, through --python)",
      )
      .option("--quickumls <dir>", "with --medcon python: your QuickUMLS index, built from your UMLS release")
      .option(
        "--umls-semantic-groups <file>",
        "with --medcon python: NLM's SemGroups.txt (GROUP|Group name|TUI|Type name)",
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
  if (modelDir !== undefined) {
    checkModelDirectory(modelDir, name === "bertscore" ? "BERTScore" : "BLEURT");
    return { kind: "native", dir: modelDir, ...(flags.parityRecord ? { parityFile: flags.parityRecord } : {}) };
  }
  return undefined;
}

/** MEDCON's installation from its flags, or a one-line error naming what is missing. */
function medconOf(flags: ModelMetricFlags): MedconInstallation | undefined {
  if (flags.medcon === undefined) {
    if (flags.quickumls !== undefined || flags.umlsSemanticGroups !== undefined)
      throw new AnamnesisError("INVALID_ARGUMENT", "--quickumls and --umls-semantic-groups go with --medcon python");
    return undefined;
  }
  if (flags.medcon !== "python")
    throw new AnamnesisError("INVALID_ARGUMENT", "--medcon takes python (your QuickUMLS through Python)");
  if (flags.quickumls === undefined || flags.umlsSemanticGroups === undefined)
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      "--medcon python needs --quickumls DIR (your QuickUMLS index) and --umls-semantic-groups FILE (NLM's SemGroups.txt)",
    );
  if (!existsSync(flags.quickumls) || !statSync(flags.quickumls).isDirectory())
    throw new AnamnesisError("INVALID_ARGUMENT", `--quickumls ${flags.quickumls} is not a directory`);
  if (!existsSync(flags.umlsSemanticGroups) || !statSync(flags.umlsSemanticGroups).isFile())
    throw new AnamnesisError("INVALID_ARGUMENT", `--umls-semantic-groups ${flags.umlsSemanticGroups} is not a file`);
  return {
    python: flags.python ?? defaultPython(),
    quickumls: flags.quickumls,
    semanticGroups: flags.umlsSemanticGroups,
  };
}

/** The request the flags make (empty when none was given: the metrics are then null with their reason). */
export function modelMetricRequest(flags: ModelMetricFlags): ModelMetricRequest {
  const bertscore = sourceOf("bertscore", flags.bertscore, flags.bertscoreModel, flags);
  const bleurt = sourceOf("bleurt", flags.bleurt, flags.bleurtModel, flags);
  const medcon = medconOf(flags);
  return {
    ...(medcon ? { medcon } : {}),
    ...(bertscore ? { bertscore } : {}),
    ...(bleurt ? { bleurt } : {}),
    ...(flags.bleurtCheckpoint ? { bleurtCheckpoint: flags.bleurtCheckpoint } : {}),
  };
}

/** The flags that choose BERTScore's settings where no suite fixes them (`anamnesis metrics`). */
export interface BertScoreSettingFlags {
  consumer: string;
  bertscoreModelType?: string;
  bertscoreLayer?: string;
  bertscoreIdf?: boolean;
  bertscoreBaseline?: string;
  bertscoreCalls?: string;
  bleurtCheckpoint?: string;
}

/** Adds the settings flags: a consumer's settings, each of which a flag may change. */
export function addBertScoreSettingOptions(command: Command): Command {
  return command
    .option(
      "--consumer <name>",
      `whose BERTScore and BLEURT settings: ${Object.keys(CONSUMERS).join(", ")} (lm-eval: roberta-large L17, a call per pair, bleurt-base-512; aci-bench: microsoft/deberta-xlarge-mnli L40, BLEURT-20)`,
      "lm-eval",
    )
    .option("--bertscore-model-type <name>", "bert-score's model_type (default: the consumer's)")
    .option("--bertscore-layer <n>", "the layer (default: the consumer's, or bert-score's for the model)")
    .option("--bertscore-idf", "idf weights from the references (+1 smoothing)")
    .option(
      "--bertscore-baseline <file>",
      "rescale with this bert-score baseline file (rescale_baseline/en/<model>.tsv)",
    )
    .option("--bertscore-calls <how>", "one (every pair in one bert-score call) or each (a call per pair)");
}

/** The consumer's settings, or a one-line error naming the known ones. */
export function consumerOf(flags: BertScoreSettingFlags): ConsumerSettings {
  const consumer = CONSUMERS[flags.consumer];
  if (!consumer)
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `--consumer is one of ${Object.keys(CONSUMERS).join(", ")} (got '${flags.consumer}')`,
    );
  return consumer;
}

/** BERTScore's settings: the consumer's, changed by the flags given; or a one-line error. */
export function bertScoreSettingsFrom(flags: BertScoreSettingFlags): BertScoreSettings {
  const base = consumerOf(flags).bertscore;
  const model = flags.bertscoreModelType ?? base.model;
  const layer =
    flags.bertscoreLayer !== undefined
      ? Number(flags.bertscoreLayer)
      : model === base.model
        ? base.layer
        : DEFAULT_LAYERS[model];
  if (layer === undefined || !Number.isInteger(layer) || layer < 0)
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `--bertscore-layer must be a layer number${flags.bertscoreLayer === undefined ? ` (no default for ${model})` : ""}`,
    );
  if (flags.bertscoreCalls !== undefined && flags.bertscoreCalls !== "one" && flags.bertscoreCalls !== "each")
    throw new AnamnesisError("INVALID_ARGUMENT", "--bertscore-calls is one or each");
  const calls =
    flags.bertscoreCalls === undefined ? base.calls : flags.bertscoreCalls === "one" ? "one call" : "one call per pair";
  return {
    ...base,
    model,
    layer,
    idf: flags.bertscoreIdf === true || base.idf,
    rescaleWithBaseline: flags.bertscoreBaseline !== undefined || base.rescaleWithBaseline,
    ...(flags.bertscoreBaseline !== undefined ? { baselinePath: flags.bertscoreBaseline } : {}),
    calls,
  };
}

/** The BLEURT checkpoint: `--bleurt-checkpoint`, else the consumer's. */
export function bleurtCheckpointFrom(flags: BertScoreSettingFlags): string {
  return flags.bleurtCheckpoint ?? consumerOf(flags).bleurtCheckpoint;
}
