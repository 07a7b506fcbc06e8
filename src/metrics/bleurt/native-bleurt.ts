/**
 * The native BLEURT: a BLEURT checkpoint exported to ONNX with its regression head (a PyTorch port
 * such as `BleurtForSequenceClassification`, exported with its `logits` output), run by onnxruntime-node
 * over transformers.js's tokenizer, with BLEURT's own encoding (`bleurt/encoding.py`
 * `encode_example`): the reference and the candidate tokenized apart, the longer one cut a token at a
 * time from its end until both fit in `max_seq_length − 3` (the candidate when they are as long), then
 * `[CLS] reference [SEP] candidate [SEP]` with segment ids 0 … 0 1 … 1. The score is the head's output,
 * unbounded and not rescaled, as `BleurtScorer.score` returns it.
 */
import { AnamnesisError } from "../../foundation/errors.ts";
import {
  maxSequenceLength,
  openEncoderSession,
  runEncoder,
  type EncoderInput,
  type EncoderSession,
} from "../onnx/encoder-session.ts";

/** What a native BLEURT run records beside its scores. */
export interface NativeBleurtRecord {
  readonly model_directory: string;
  readonly model_name: string;
  readonly model_fingerprint: string;
  readonly max_seq_length: number;
  readonly versions: { readonly transformers_js: string; readonly onnxruntime_node: string };
}

/** BLEURT's `_truncate_seq_pair`: pop from the longer side (the candidate on a tie) until they fit. */
export function truncatePair(reference: number[], candidate: number[], maxLength: number): void {
  while (reference.length + candidate.length > maxLength) {
    if (reference.length > candidate.length) reference.pop();
    else candidate.pop();
  }
}

/** Refuses, in one line, a directory whose model is not a BLEURT regressor. */
function checkBleurtModel(session: EncoderSession, dir: string): void {
  const { config } = session.directory;
  const architectures = Array.isArray(config.architectures) ? config.architectures.map(String) : [];
  const named = String(config.model_type) === "bleurt" || architectures.some((name) => name.includes("Bleurt"));
  if (!named || !session.session.outputNames.includes("logits"))
    throw new AnamnesisError(
      "INVALID_DATA",
      `${dir} is not a BLEURT model (config.json names ${architectures.join(", ") || String(config.model_type)} and its outputs are ${session.session.outputNames.join(", ")}): BLEURT needs a BLEURT checkpoint exported to ONNX with its regression head's logits (docs/metrics.md)`,
    );
}

/** BLEURT's input for one pair. */
function encodePair(session: EncoderSession, reference: string, candidate: string, maxLength: number): EncoderInput {
  const { tokenizer } = session;
  const [cls, sep] = tokenizer.encode("", { add_special_tokens: true }) as [number, number];
  const ref = tokenizer.encode(reference, { add_special_tokens: false });
  const cand = tokenizer.encode(candidate, { add_special_tokens: false });
  truncatePair(ref, cand, maxLength - 3);
  return {
    ids: [cls, ...ref, sep, ...cand, sep],
    types: [...new Array<number>(ref.length + 2).fill(0), ...new Array<number>(cand.length + 1).fill(1)],
  };
}

/** The native BLEURT score of each candidate against its reference, with the record of how. */
export async function nativeBleurt(
  dir: string,
  candidates: readonly string[],
  references: readonly string[],
  options: { readonly pairsPerBatch?: number; readonly onProgress?: (done: number, total: number) => void } = {},
): Promise<{ scores: number[]; record: NativeBleurtRecord }> {
  const session = await openEncoderSession(dir, "BLEURT");
  checkBleurtModel(session, dir);
  const maxLength = maxSequenceLength(session);
  const inputs = candidates.map((candidate, i) => encodePair(session, references[i]!, candidate, maxLength));
  const scores = new Array<number>(inputs.length);
  // Longest first, so that a batch pads little; padding is masked and does not change a score.
  const order = inputs.map((_, i) => i).sort((a, b) => inputs[b]!.ids.length - inputs[a]!.ids.length);
  const perBatch = options.pairsPerBatch ?? 16;
  for (let start = 0; start < order.length; start += perBatch) {
    const batch = order.slice(start, start + perBatch);
    const logits = (
      await runEncoder(
        session,
        batch.map((i) => inputs[i]!),
        ["logits"],
      )
    ).logits!;
    const data = logits.data as Float32Array;
    const width = logits.dims.at(-1) ?? 1;
    batch.forEach((index, row) => (scores[index] = data[row * width]!));
    options.onProgress?.(Math.min(start + perBatch, order.length), order.length);
  }
  return {
    scores,
    record: {
      model_directory: session.directory.dir,
      model_name: session.directory.name,
      model_fingerprint: session.directory.fingerprint,
      max_seq_length: maxLength,
      versions: {
        transformers_js: session.runtime.versions.transformersJs,
        onnxruntime_node: session.runtime.versions.onnxruntimeNode,
      },
    },
  };
}
