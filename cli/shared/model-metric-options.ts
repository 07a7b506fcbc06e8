import type { Command } from "commander";
import { AnamnesisError } from "../../src/foundation/errors.ts";
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
