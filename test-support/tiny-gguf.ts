/**
 * Writes a tiny random-weight LLaMA model in GGUF v3 format, for tests of the `llamacpp:` backend.
 *
 * The model is useless as a language model (its weights are seeded noise) but it is a real llama.cpp
 * model: it loads, tokenizes with a byte-fallback SentencePiece vocabulary (every UTF-8 byte has a
 * `<0xNN>` token, so any text and any JSON can be produced), and generates. Under a JSON-schema
 * grammar it therefore produces schema-valid JSON. The file is a few hundred KB.
 *
 * Format reference: the GGUF specification (ggml `docs/gguf.md`): header, key/value metadata,
 * tensor descriptors, then tensor data aligned to `general.alignment` (32).
 */
import { writeFileSync } from "node:fs";
import { seededRandom } from "./random.ts";

const GGUF_MAGIC = 0x46554747; // "GGUF" little-endian
const GGUF_VERSION = 3;
const ALIGNMENT = 32;

const enum ValueType {
  UINT32 = 4,
  INT32 = 5,
  FLOAT32 = 6,
  STRING = 8,
  ARRAY = 9,
}

const enum TensorType {
  F32 = 0,
}

const enum TokenType {
  NORMAL = 1,
  UNKNOWN = 2,
  CONTROL = 3,
  BYTE = 6,
}

type MetadataValue =
  | { type: ValueType.UINT32 | ValueType.INT32 | ValueType.FLOAT32; value: number }
  | { type: ValueType.STRING; value: string }
  | { type: ValueType.ARRAY; itemType: ValueType.STRING; value: string[] }
  | { type: ValueType.ARRAY; itemType: ValueType.FLOAT32 | ValueType.INT32; value: number[] };

/** Growable little-endian byte buffer. */
class ByteWriter {
  private buffer = Buffer.alloc(1 << 16);
  length = 0;

  private ensure(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const next = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + extra));
    this.buffer.copy(next, 0, 0, this.length);
    this.buffer = next;
  }
  u32(value: number): void {
    this.ensure(4);
    this.length = this.buffer.writeUInt32LE(value, this.length);
  }
  i32(value: number): void {
    this.ensure(4);
    this.length = this.buffer.writeInt32LE(value, this.length);
  }
  u64(value: number): void {
    this.ensure(8);
    this.length = this.buffer.writeBigUInt64LE(BigInt(value), this.length);
  }
  f32(value: number): void {
    this.ensure(4);
    this.length = this.buffer.writeFloatLE(value, this.length);
  }
  string(value: string): void {
    const bytes = Buffer.from(value, "utf8");
    this.u64(bytes.length);
    this.ensure(bytes.length);
    bytes.copy(this.buffer, this.length);
    this.length += bytes.length;
  }
  padTo(alignment: number): void {
    const padding = (alignment - (this.length % alignment)) % alignment;
    this.ensure(padding);
    this.buffer.fill(0, this.length, this.length + padding);
    this.length += padding;
  }
  floats(values: Float32Array): void {
    this.ensure(values.byteLength);
    Buffer.from(values.buffer, values.byteOffset, values.byteLength).copy(this.buffer, this.length);
    this.length += values.byteLength;
  }
  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

function writeValue(writer: ByteWriter, entry: MetadataValue): void {
  writer.u32(entry.type);
  switch (entry.type) {
    case ValueType.UINT32:
      writer.u32(entry.value);
      return;
    case ValueType.INT32:
      writer.i32(entry.value);
      return;
    case ValueType.FLOAT32:
      writer.f32(entry.value);
      return;
    case ValueType.STRING:
      writer.string(entry.value);
      return;
    case ValueType.ARRAY:
      writer.u32(entry.itemType);
      writer.u64(entry.value.length);
      for (const item of entry.value) {
        if (entry.itemType === ValueType.STRING) writer.string(item as string);
        else if (entry.itemType === ValueType.FLOAT32) writer.f32(item as number);
        else writer.i32(item as number);
      }
      return;
  }
}

export interface TinyLlamaOptions {
  embeddingLength?: number;
  feedForwardLength?: number;
  blockCount?: number;
  headCount?: number;
  contextLength?: number;
  seed?: number;
  /**
   * Total number of tokens (default: the 260 of the byte-fallback vocabulary). Larger vocabularies are
   * padded with unique filler pieces that no text uses, so a text tokenizes the same way whatever the
   * size while every next-token distribution spans the whole vocabulary (e.g. 32,000 as Llama 2's).
   */
  vocabularySize?: number;
}

/** The byte-fallback SentencePiece vocabulary: `<unk>`, `<s>`, `</s>`, 256 byte tokens, `▁`, then fillers up to `size`. */
function vocabulary(size?: number): { tokens: string[]; scores: number[]; types: number[] } {
  const tokens = ["<unk>", "<s>", "</s>"];
  const types: number[] = [TokenType.UNKNOWN, TokenType.CONTROL, TokenType.CONTROL];
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, "0")}>`);
    types.push(TokenType.BYTE);
  }
  tokens.push("\u2581");
  types.push(TokenType.NORMAL);
  if (size !== undefined && size < tokens.length)
    throw new RangeError(`vocabularySize must be at least ${tokens.length}`);
  // Filler pieces: control characters no text here contains, so the tokenizer never merges into them.
  while (tokens.length < (size ?? 0)) {
    tokens.push(`\u0001${tokens.length.toString(36)}\u0001`);
    types.push(TokenType.NORMAL);
  }
  return { tokens, scores: tokens.map(() => 0), types };
}

/** Builds the GGUF bytes of a tiny random-weight LLaMA model. */
export function buildTinyLlamaGguf(options: TinyLlamaOptions = {}): Buffer {
  const nEmbd = options.embeddingLength ?? 64;
  const nFf = options.feedForwardLength ?? 128;
  const nLayer = options.blockCount ?? 1;
  const nHead = options.headCount ?? 4;
  // Seeded, so every written model is byte-identical.
  const random = seededRandom(options.seed ?? 1234);
  const vocab = vocabulary(options.vocabularySize);
  const nVocab = vocab.tokens.length;

  const metadata: Array<[string, MetadataValue]> = [
    ["general.architecture", { type: ValueType.STRING, value: "llama" }],
    ["general.name", { type: ValueType.STRING, value: "anamnesis-tiny-random" }],
    ["general.alignment", { type: ValueType.UINT32, value: ALIGNMENT }],
    ["llama.context_length", { type: ValueType.UINT32, value: options.contextLength ?? 512 }],
    ["llama.embedding_length", { type: ValueType.UINT32, value: nEmbd }],
    ["llama.block_count", { type: ValueType.UINT32, value: nLayer }],
    ["llama.feed_forward_length", { type: ValueType.UINT32, value: nFf }],
    ["llama.attention.head_count", { type: ValueType.UINT32, value: nHead }],
    ["llama.attention.head_count_kv", { type: ValueType.UINT32, value: nHead }],
    ["llama.rope.dimension_count", { type: ValueType.UINT32, value: nEmbd / nHead }],
    ["llama.attention.layer_norm_rms_epsilon", { type: ValueType.FLOAT32, value: 1e-5 }],
    ["tokenizer.ggml.model", { type: ValueType.STRING, value: "llama" }],
    ["tokenizer.ggml.tokens", { type: ValueType.ARRAY, itemType: ValueType.STRING, value: vocab.tokens }],
    ["tokenizer.ggml.scores", { type: ValueType.ARRAY, itemType: ValueType.FLOAT32, value: vocab.scores }],
    ["tokenizer.ggml.token_type", { type: ValueType.ARRAY, itemType: ValueType.INT32, value: vocab.types }],
    ["tokenizer.ggml.unknown_token_id", { type: ValueType.UINT32, value: 0 }],
    ["tokenizer.ggml.bos_token_id", { type: ValueType.UINT32, value: 1 }],
    ["tokenizer.ggml.eos_token_id", { type: ValueType.UINT32, value: 2 }],
  ];

  // ggml dimension order: ne[0] (the row length) first.
  const tensors: Array<{ name: string; dims: number[]; data: Float32Array }> = [];
  const addTensor = (name: string, dims: number[], fill: "ones" | "noise") => {
    const count = dims.reduce((a, b) => a * b, 1);
    const data = new Float32Array(count);
    for (let i = 0; i < count; i++) data[i] = fill === "ones" ? 1 : (random() - 0.5) * 0.2;
    tensors.push({ name, dims, data });
  };
  addTensor("token_embd.weight", [nEmbd, nVocab], "noise");
  addTensor("output_norm.weight", [nEmbd], "ones");
  addTensor("output.weight", [nEmbd, nVocab], "noise");
  for (let layer = 0; layer < nLayer; layer++) {
    const prefix = `blk.${layer}`;
    addTensor(`${prefix}.attn_norm.weight`, [nEmbd], "ones");
    addTensor(`${prefix}.attn_q.weight`, [nEmbd, nEmbd], "noise");
    addTensor(`${prefix}.attn_k.weight`, [nEmbd, nEmbd], "noise");
    addTensor(`${prefix}.attn_v.weight`, [nEmbd, nEmbd], "noise");
    addTensor(`${prefix}.attn_output.weight`, [nEmbd, nEmbd], "noise");
    addTensor(`${prefix}.ffn_norm.weight`, [nEmbd], "ones");
    addTensor(`${prefix}.ffn_gate.weight`, [nEmbd, nFf], "noise");
    addTensor(`${prefix}.ffn_up.weight`, [nEmbd, nFf], "noise");
    addTensor(`${prefix}.ffn_down.weight`, [nFf, nEmbd], "noise");
  }

  const writer = new ByteWriter();
  writer.u32(GGUF_MAGIC);
  writer.u32(GGUF_VERSION);
  writer.u64(tensors.length);
  writer.u64(metadata.length);
  for (const [key, value] of metadata) {
    writer.string(key);
    writeValue(writer, value);
  }
  let offset = 0;
  for (const tensor of tensors) {
    writer.string(tensor.name);
    writer.u32(tensor.dims.length);
    for (const dim of tensor.dims) writer.u64(dim);
    writer.u32(TensorType.F32);
    writer.u64(offset);
    offset += Math.ceil(tensor.data.byteLength / ALIGNMENT) * ALIGNMENT;
  }
  writer.padTo(ALIGNMENT);
  for (const tensor of tensors) {
    writer.floats(tensor.data);
    writer.padTo(ALIGNMENT);
  }
  return writer.bytes();
}

/** Writes the tiny model to `path` and returns the path. */
export function writeTinyLlamaGguf(path: string, options?: TinyLlamaOptions): string {
  writeFileSync(path, buildTinyLlamaGguf(options));
  return path;
}
