/**
 * An ONNX encoder opened from a model directory: its tokenizer (transformers.js) and its session
 * (onnxruntime-node), and one forward pass over a batch of token-id lists, right-padded with the
 * tokenizer's pad id under an attention mask, token types 0 unless given. Shared by the native
 * BERTScore (a layer's hidden states) and BLEURT (the regression head's output).
 */
import { AnamnesisError } from "../../foundation/errors.ts";
import { readModelDirectory, type ModelDirectory } from "./model-directory.ts";
import {
  loadModelRuntime,
  type ModelRuntime,
  type OrtSession,
  type OrtTensor,
  type Tokenizer,
} from "./transformers-runtime.ts";

/** A loaded model: its directory, tokenizer, session and the runtime's versions. */
export interface EncoderSession {
  readonly directory: ModelDirectory;
  readonly tokenizer: Tokenizer;
  readonly session: OrtSession;
  readonly runtime: ModelRuntime;
}

/** One sequence of a batch: its token ids and, for sentence pairs, its token types. */
export interface EncoderInput {
  readonly ids: readonly number[];
  readonly types?: readonly number[];
}

/** Opens a model directory for `purpose` (the metric's name, for messages); every failure is one line. */
export async function openEncoderSession(dir: string, purpose: string): Promise<EncoderSession> {
  const directory = readModelDirectory(dir, purpose);
  const runtime = await loadModelRuntime();
  let tokenizer: Tokenizer;
  try {
    tokenizer = await runtime.loadTokenizer(directory.dir);
  } catch (error) {
    throw new AnamnesisError("INVALID_DATA", `${dir}: transformers.js cannot read its tokenizer (${firstLine(error)})`);
  }
  let session: OrtSession;
  try {
    session = await runtime.createSession(directory.modelFile);
  } catch (error) {
    throw new AnamnesisError(
      "INVALID_DATA",
      `${directory.modelFile}: onnxruntime cannot load it (${firstLine(error)})`,
    );
  }
  const known = new Set(["input_ids", "attention_mask", "token_type_ids"]);
  const unknown = session.inputNames.filter((name) => !known.has(name));
  if (unknown.length > 0 || !session.inputNames.includes("input_ids"))
    throw new AnamnesisError(
      "INVALID_DATA",
      `${directory.modelFile}: not a text encoder this metric can run (its inputs are ${session.inputNames.join(", ")}; expected input_ids, attention_mask, token_type_ids)`,
    );
  return { directory, tokenizer, session, runtime };
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
}

/** The longest sequence the tokenizer allows: `model_max_length`, else the position embeddings, else 512. */
export function maxSequenceLength(encoder: EncoderSession): number {
  const fromTokenizer = encoder.tokenizer.model_max_length;
  if (Number.isFinite(fromTokenizer) && fromTokenizer > 0) return fromTokenizer;
  const positions = encoder.directory.config.max_position_embeddings;
  return typeof positions === "number" && positions > 0 ? positions : 512;
}

/** One forward pass; returns the named outputs. */
export async function runEncoder(
  encoder: EncoderSession,
  batch: readonly EncoderInput[],
  outputs: readonly string[],
): Promise<Record<string, OrtTensor>> {
  const { session, runtime } = encoder;
  const length = Math.max(...batch.map((input) => input.ids.length));
  const pad = encoder.tokenizer.pad_token_id ?? 0;
  const ids: number[] = [];
  const mask: number[] = [];
  const types: number[] = [];
  for (const input of batch) {
    for (let i = 0; i < length; i++) {
      const real = i < input.ids.length;
      ids.push(real ? input.ids[i]! : pad);
      mask.push(real ? 1 : 0);
      types.push(real ? (input.types?.[i] ?? 0) : 0);
    }
  }
  const dims = [batch.length, length];
  const all: Record<string, OrtTensor> = {
    input_ids: runtime.int64Tensor(ids, dims),
    attention_mask: runtime.int64Tensor(mask, dims),
    token_type_ids: runtime.int64Tensor(types, dims),
  };
  const feeds = Object.fromEntries(session.inputNames.map((name) => [name, all[name]!]));
  const result = await session.run(feeds, outputs);
  return Object.fromEntries(outputs.map((name) => [name, result[name]!]));
}
