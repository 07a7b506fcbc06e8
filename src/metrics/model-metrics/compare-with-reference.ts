/**
 * `anamnesis metrics compare`: the native path and the reference scored on the same pairs with the
 * same settings, their largest difference, and an entry in the comparison records
 * (parity-record.ts) that, when the two agree within the tolerance, lifts the native label of every
 * later result computed with the same model files and settings.
 */
import { basename } from "node:path";
import { describeBertScoreSettings, type BertScoreSettings } from "../bertscore/bertscore-settings.ts";
import { nativeBertScore } from "../bertscore/native-bertscore.ts";
import { nativeBleurt } from "../bleurt/native-bleurt.ts";
import { appendParityEntry, defaultParityFile, type ParityEntry } from "./parity-record.ts";
import { referenceBertScore, referenceBleurt } from "./reference-bridge.ts";

/** What to compare: the native model directory, the reference's interpreter, the record file. */
export interface ComparisonRequest {
  readonly modelDir: string;
  readonly python: string;
  readonly tolerance: number;
  /** Default: `anamnesis-parity.json` in the model directory. */
  readonly parityFile?: string;
}

/** The entry written, and where. */
export interface ComparisonOutcome {
  readonly entry: ParityEntry;
  readonly file: string;
}

/** The largest |a − b| over paired lists; NaN on both sides counts as equal, NaN on one as infinite. */
export function maxAbsDifference(native: readonly number[], reference: readonly number[]): number {
  let largest = 0;
  native.forEach((value, i) => {
    const other = reference[i]!;
    if (Number.isNaN(value) && Number.isNaN(other)) return;
    const difference = Number.isNaN(value) || Number.isNaN(other) ? Infinity : Math.abs(value - other);
    largest = Math.max(largest, difference);
  });
  return largest;
}

function record(
  request: ComparisonRequest,
  entry: Omit<ParityEntry, "agrees" | "tolerance" | "recorded">,
): ComparisonOutcome {
  const file = request.parityFile ?? defaultParityFile(request.modelDir);
  const full: ParityEntry = {
    ...entry,
    tolerance: request.tolerance,
    agrees: entry.max_abs_difference <= request.tolerance,
    recorded: new Date().toISOString(),
  };
  appendParityEntry(file, full);
  return { entry: full, file };
}

/** Native BERTScore against bert-score on the pairs, recorded. */
export async function compareBertScore(
  request: ComparisonRequest,
  candidates: readonly string[],
  references: readonly string[],
  settings: BertScoreSettings,
): Promise<ComparisonOutcome> {
  const native = await nativeBertScore(request.modelDir, candidates, references, settings);
  const reference = await referenceBertScore(candidates, references, settings, request.python);
  const difference = Math.max(
    maxAbsDifference(native.precision, reference.precision),
    maxAbsDifference(native.recall, reference.recall),
    maxAbsDifference(native.f1, reference.f1),
  );
  return record(request, {
    metric: "bertscore",
    settings: describeBertScoreSettings(settings),
    model_fingerprint: native.record.model_fingerprint,
    prefix_space: native.record.prefix_space,
    reference: { identity: reference.hashcode, versions: reference.versions },
    pairs: candidates.length,
    max_abs_difference: difference,
  });
}

/** Native BLEURT against the reference BLEURT checkpoint (a name evaluate knows, or a directory), recorded. */
export async function compareBleurt(
  request: ComparisonRequest,
  candidates: readonly string[],
  references: readonly string[],
  checkpoint: string,
): Promise<ComparisonOutcome> {
  const native = await nativeBleurt(request.modelDir, candidates, references);
  const reference = await referenceBleurt(candidates, references, checkpoint, request.python);
  return record(request, {
    metric: "bleurt",
    settings: basename(checkpoint),
    model_fingerprint: native.record.model_fingerprint,
    reference: { identity: reference.checkpoint, versions: reference.versions },
    pairs: candidates.length,
    max_abs_difference: maxAbsDifference(native.scores, reference.scores),
  });
}
