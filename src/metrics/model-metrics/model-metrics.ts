/**
 * The model-based metrics a scorer may be given: BERTScore and BLEURT, each from the reference Python
 * implementation through the bridge (exact by construction) or from the native path over a local ONNX
 * model directory (labelled "native" until a comparison with the reference is recorded), or absent —
 * then the figure is null with a one-line reason, never 0. Every outcome carries the record of how it
 * was produced, for results.json.
 */
import { numpyMean } from "../numpy-sum.ts";
import { describeBertScoreSettings, type BertScoreSettings } from "../bertscore/bertscore-settings.ts";
import { nativeBertScore, type NativeBertScoreRecord } from "../bertscore/native-bertscore.ts";
import { nativeBleurt, type NativeBleurtRecord } from "../bleurt/native-bleurt.ts";
import { defaultParityFile, findAgreement, nativeLabel, type ParityEntry } from "./parity-record.ts";
import { referenceBertScore, referenceBleurt, type MedconInstallation } from "./reference-bridge.ts";

/** Where a model metric comes from, as the user asked (`--bertscore python`, `--bertscore-model DIR`, …). */
export type ModelMetricSource =
  | { readonly kind: "python"; readonly python: string }
  | { readonly kind: "native"; readonly dir: string; readonly parityFile?: string };

/** The model metrics a scorer may compute, and for BLEURT through Python, the checkpoint to load. */
export interface ModelMetricRequest {
  readonly bertscore?: ModelMetricSource;
  readonly bleurt?: ModelMetricSource;
  /** `--bleurt-checkpoint`: a BLEURT checkpoint directory for the reference (default: the consumer's by name, through evaluate). */
  readonly bleurtCheckpoint?: string;
  /** `--medcon python --quickumls DIR --umls-semantic-groups FILE`: ACI-Bench's MEDCON through the user's QuickUMLS. */
  readonly medcon?: MedconInstallation;
}

/** How a model metric's figures were produced, or why there are none. */
export type ModelMetricRecord =
  | { readonly status: "unavailable"; readonly reason: string }
  | {
      readonly status: "reference";
      readonly label: string;
      readonly settings: string;
      /** bert-score's hash code, or the BLEURT checkpoint. */
      readonly identity: string;
      readonly versions: Readonly<Record<string, string | null>>;
    }
  | {
      readonly status: "native";
      readonly label: string;
      readonly settings: string;
      readonly native: NativeBertScoreRecord | NativeBleurtRecord;
      /** The comparison with the reference that vouches for these figures, if one is recorded. */
      readonly comparison: ParityEntry | null;
    };

/** Per-pair BERTScore, the mean of F1 as the reference reports it, and the record. */
export interface BertScoreOutcome {
  readonly precision: readonly number[];
  readonly recall: readonly number[];
  readonly f1: readonly number[];
  /** The reference's `F1.mean()` (torch, float32); the native path's numpy-order mean. NaN with no pairs. */
  readonly f1Mean: number;
  readonly record: ModelMetricRecord;
}

/** Per-pair BLEURT and the record. */
export interface BleurtOutcome {
  readonly scores: readonly number[];
  readonly record: ModelMetricRecord;
}

/** The one-line reason a BERTScore is null when no source was given. */
export function bertScoreUnavailable(settings: BertScoreSettings): ModelMetricRecord {
  return {
    status: "unavailable",
    reason: `BERTScore (${describeBertScoreSettings(settings)}) needs the model: pass --bertscore python (bert-score installed) or --bertscore-model DIR (an ONNX export); null, never 0`,
  };
}

/** The one-line reason a BLEURT is null when no source was given. */
export function bleurtUnavailable(checkpoint: string): ModelMetricRecord {
  return {
    status: "unavailable",
    reason: `BLEURT (${checkpoint}) needs the checkpoint: pass --bleurt python (BLEURT installed) or --bleurt-model DIR (an ONNX export); null, never 0`,
  };
}

/** BERTScore of the pairs with the consumer's settings, from the requested source. */
export async function bertScoreOf(
  source: ModelMetricSource,
  candidates: readonly string[],
  references: readonly string[],
  settings: BertScoreSettings,
): Promise<BertScoreOutcome> {
  const described = describeBertScoreSettings(settings);
  if (source.kind === "python") {
    const reference = await referenceBertScore(candidates, references, settings, source.python);
    return {
      ...reference,
      f1Mean: reference.f1_mean ?? NaN,
      record: {
        status: "reference",
        label: `reference (bert-score ${reference.hashcode})`,
        settings: described,
        identity: reference.hashcode,
        versions: reference.versions,
      },
    };
  }
  const native = await nativeBertScore(source.dir, candidates, references, settings);
  const comparison = findAgreement(source.parityFile ?? defaultParityFile(native.record.model_directory), {
    metric: "bertscore",
    settings: described,
    model_fingerprint: native.record.model_fingerprint,
    prefix_space: native.record.prefix_space,
  });
  return {
    ...native,
    f1Mean: native.f1.length > 0 ? numpyMean(native.f1) : NaN,
    record: {
      status: "native",
      label: nativeLabel(comparison),
      settings: described,
      native: native.record,
      comparison: comparison ?? null,
    },
  };
}

/** BLEURT of the pairs with the consumer's checkpoint (by name), from the requested source. */
export async function bleurtOf(
  request: ModelMetricRequest & { readonly bleurt: ModelMetricSource },
  candidates: readonly string[],
  references: readonly string[],
  checkpoint: string,
): Promise<BleurtOutcome> {
  const source = request.bleurt;
  if (source.kind === "python") {
    const reference = await referenceBleurt(
      candidates,
      references,
      request.bleurtCheckpoint ?? checkpoint,
      source.python,
    );
    return {
      scores: reference.scores,
      record: {
        status: "reference",
        label: `reference (BLEURT ${reference.checkpoint})`,
        settings: checkpoint,
        identity: reference.checkpoint,
        versions: reference.versions,
      },
    };
  }
  const native = await nativeBleurt(source.dir, candidates, references);
  const comparison = findAgreement(source.parityFile ?? defaultParityFile(native.record.model_directory), {
    metric: "bleurt",
    settings: checkpoint,
    model_fingerprint: native.record.model_fingerprint,
  });
  return {
    scores: native.scores,
    record: {
      status: "native",
      label: nativeLabel(comparison),
      settings: checkpoint,
      native: native.record,
      comparison: comparison ?? null,
    },
  };
}
