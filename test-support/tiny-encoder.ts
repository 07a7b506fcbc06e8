/**
 * Writes a tiny randomly initialised BERT-like encoder as a model directory that transformers.js and
 * onnxruntime-node load: `onnx/model.onnx` (written by onnx-writer.ts), `config.json`, and a WordPiece
 * `tokenizer.json` with its `tokenizer_config.json`. For tests of the native BERTScore and BLEURT
 * paths (src/metrics/bertscore/, src/metrics/bleurt/), as tiny-gguf.ts is for the llamacpp backend.
 *
 * The model is the BERT encoder: word + position + token-type embeddings and a layer norm, then
 * `layers` blocks of multi-head self-attention (padding masked with an additive -10000) and a GELU
 * (erf) feed-forward, each followed by a residual layer norm. Its outputs are `last_hidden_state` and,
 * with `exposeLayers`, `hidden_states.0` … `hidden_states.N` (the embeddings, then each block's
 * output); with `head: "regression"` it is a BLEURT-style regressor instead: a tanh pooler over the
 * first token and a dense layer to one `logits` value. The weights are returned so that a test can
 * compute the same forward pass on its own.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OnnxGraph, OnnxType } from "./onnx-writer.ts";
import { seededRandom } from "./random.ts";

/** What the tiny model looks like. */
export interface TinyEncoderOptions {
  readonly seed?: number;
  readonly hidden?: number;
  readonly heads?: number;
  readonly layers?: number;
  readonly intermediate?: number;
  /** Position embeddings, and the tokenizer's `model_max_length`. */
  readonly maxPositions?: number;
  /** Also output every layer's hidden state as `hidden_states.<n>`. */
  readonly exposeLayers?: boolean;
  /** `regression`: a BLEURT-style model with a `logits` output instead of the hidden states. */
  readonly head?: "none" | "regression";
  /** The name config.json gives as `_name_or_path`. */
  readonly name?: string;
}

/** A weight matrix or vector, row-major, as float32 values. */
export interface Weight {
  readonly dims: readonly number[];
  readonly values: Float32Array;
}

/** One encoder block's weights (matrices are [in, out]). */
export interface TinyLayerWeights {
  readonly query: Weight;
  readonly queryBias: Weight;
  readonly key: Weight;
  readonly keyBias: Weight;
  readonly value: Weight;
  readonly valueBias: Weight;
  readonly attentionOutput: Weight;
  readonly attentionOutputBias: Weight;
  readonly attentionNorm: Weight;
  readonly attentionNormBias: Weight;
  readonly intermediate: Weight;
  readonly intermediateBias: Weight;
  readonly output: Weight;
  readonly outputBias: Weight;
  readonly outputNorm: Weight;
  readonly outputNormBias: Weight;
}

/** Every weight of the tiny model, for an independent forward pass. */
export interface TinyEncoderWeights {
  readonly wordEmbeddings: Weight;
  readonly positionEmbeddings: Weight;
  readonly typeEmbeddings: Weight;
  readonly embeddingNorm: Weight;
  readonly embeddingNormBias: Weight;
  readonly layers: readonly TinyLayerWeights[];
  readonly pooler?: Weight;
  readonly poolerBias?: Weight;
  readonly classifier?: Weight;
  readonly classifierBias?: Weight;
}

/** The written model: where it is, its shape and its weights. */
export interface TinyEncoder {
  readonly dir: string;
  readonly hidden: number;
  readonly heads: number;
  readonly layers: number;
  readonly maxPositions: number;
  readonly layerNormEpsilon: number;
  /** The WordPiece vocabulary, id by token. */
  readonly vocab: ReadonlyMap<string, number>;
  readonly weights: TinyEncoderWeights;
}

/** The vocabulary: BERT's special tokens, then lower-case clinical words and a few continuation pieces. */
export const TINY_VOCABULARY: readonly string[] = [
  "[PAD]",
  "[UNK]",
  "[CLS]",
  "[SEP]",
  "[MASK]",
  ...". , ? ! - ' ( ) : ;".split(" "),
  ..."the a an and or of for with no not has had have is was are been since two three days weeks".split(" "),
  ..."patient she he her his reports denies mild severe sharp dull pain chest head back cough fever".split(" "),
  ..."nausea vomiting breath short rash knee left right blood pressure mg daily taken ibuprofen".split(" "),
  ..."history family mother father smoker alcohol allergy penicillin exam normal plan follow up".split(" "),
  ..."##ache ##ness ##s ##ing ##ed ##ly".split(" "),
];

const LAYER_NORM_EPSILON = 1e-12;

/** Seeded weights: uniform in [-scale, scale], or `center` ± scale for layer-norm gains. */
function weightMaker(seed: number) {
  const random = seededRandom(seed);
  return (dims: readonly number[], scale: number, center = 0): Weight => {
    const size = dims.reduce((product, dim) => product * dim, 1);
    const values = new Float32Array(size);
    for (let i = 0; i < size; i++) values[i] = center + (random() * 2 - 1) * scale;
    return { dims, values };
  };
}

function makeLayerWeights(weight: ReturnType<typeof weightMaker>, hidden: number, inner: number): TinyLayerWeights {
  const matrix = 1 / Math.sqrt(hidden);
  return {
    query: weight([hidden, hidden], matrix),
    queryBias: weight([hidden], 0.1),
    key: weight([hidden, hidden], matrix),
    keyBias: weight([hidden], 0.1),
    value: weight([hidden, hidden], matrix),
    valueBias: weight([hidden], 0.1),
    attentionOutput: weight([hidden, hidden], matrix),
    attentionOutputBias: weight([hidden], 0.1),
    attentionNorm: weight([hidden], 0.2, 1),
    attentionNormBias: weight([hidden], 0.1),
    intermediate: weight([hidden, inner], matrix),
    intermediateBias: weight([inner], 0.1),
    output: weight([inner, hidden], 1 / Math.sqrt(inner)),
    outputBias: weight([hidden], 0.1),
    outputNorm: weight([hidden], 0.2, 1),
    outputNormBias: weight([hidden], 0.1),
  };
}

function makeWeights(options: Required<TinyEncoderOptions>): TinyEncoderWeights {
  const weight = weightMaker(options.seed);
  const { hidden } = options;
  const base = {
    wordEmbeddings: weight([TINY_VOCABULARY.length, hidden], 1),
    positionEmbeddings: weight([options.maxPositions, hidden], 0.5),
    typeEmbeddings: weight([2, hidden], 0.5),
    embeddingNorm: weight([hidden], 0.2, 1),
    embeddingNormBias: weight([hidden], 0.1),
    layers: Array.from({ length: options.layers }, () => makeLayerWeights(weight, hidden, options.intermediate)),
  };
  if (options.head !== "regression") return base;
  return {
    ...base,
    pooler: weight([hidden, hidden], 1 / Math.sqrt(hidden)),
    poolerBias: weight([hidden], 0.1),
    classifier: weight([hidden, 1], 1 / Math.sqrt(hidden)),
    classifierBias: weight([1], 0.1),
  };
}

/** The graph's builder with the helpers the encoder needs. */
class EncoderGraph {
  readonly graph = new OnnxGraph();
  private names = 0;

  weight(prefix: string, value: Weight): string {
    return this.graph.constant(`${prefix}_${this.names++}`, {
      type: OnnxType.FLOAT,
      dims: value.dims,
      values: value.values,
    });
  }
  ints(values: readonly number[]): string {
    return this.graph.constant(`ints_${this.names++}`, { type: OnnxType.INT64, dims: [values.length], values });
  }
  scalar(value: number): string {
    return this.graph.constant(`scalar_${this.names++}`, {
      type: OnnxType.FLOAT,
      dims: [],
      values: Float32Array.of(value),
    });
  }
  op(name: string, ...inputs: string[]): string {
    return this.graph.node(name, inputs);
  }
  /** x·W + b. */
  dense(x: string, matrix: Weight, bias: Weight): string {
    return this.op("Add", this.op("MatMul", x, this.weight("w", matrix)), this.weight("b", bias));
  }
  layerNorm(x: string, gain: Weight, bias: Weight): string {
    return this.graph.node("LayerNormalization", [x, this.weight("g", gain), this.weight("beta", bias)], {
      axis: { int: -1 },
      epsilon: { float: LAYER_NORM_EPSILON },
    });
  }
  /** [B, S, H] → [B, heads, S, H/heads] (or [B, heads, H/heads, S] for keys). */
  splitHeads(x: string, heads: number, headSize: number, keys = false): string {
    const reshaped = this.op("Reshape", x, this.ints([0, 0, heads, headSize]));
    return this.graph.node("Transpose", [reshaped], { perm: { ints: keys ? [0, 2, 3, 1] : [0, 2, 1, 3] } });
  }
}

/** Embeddings: word + position (the first S rows) + token type, then a layer norm. */
function embeddings(g: EncoderGraph, weights: TinyEncoderWeights, inputIds: string, tokenTypes: string): string {
  const words = g.graph.node("Gather", [g.weight("words", weights.wordEmbeddings), inputIds], { axis: { int: 0 } });
  const length = g.graph.node("Shape", [inputIds], { start: { int: 1 }, end: { int: 2 } });
  const positions = g.op("Slice", g.weight("positions", weights.positionEmbeddings), g.ints([0]), length, g.ints([0]));
  const types = g.graph.node("Gather", [g.weight("types", weights.typeEmbeddings), tokenTypes], { axis: { int: 0 } });
  const sum = g.op("Add", g.op("Add", words, positions), types);
  return g.layerNorm(sum, weights.embeddingNorm, weights.embeddingNormBias);
}

/** One encoder block over `x` with the additive attention bias `maskBias` ([B, 1, 1, S]). */
function encoderBlock(g: EncoderGraph, layer: TinyLayerWeights, x: string, maskBias: string, heads: number): string {
  const hidden = layer.query.dims[0]!;
  const headSize = hidden / heads;
  const query = g.splitHeads(g.dense(x, layer.query, layer.queryBias), heads, headSize);
  const key = g.splitHeads(g.dense(x, layer.key, layer.keyBias), heads, headSize, true);
  const value = g.splitHeads(g.dense(x, layer.value, layer.valueBias), heads, headSize);
  const scores = g.op("Add", g.op("Div", g.op("MatMul", query, key), g.scalar(Math.sqrt(headSize))), maskBias);
  const probabilities = g.graph.node("Softmax", [scores], { axis: { int: -1 } });
  const context = g.graph.node("Transpose", [g.op("MatMul", probabilities, value)], { perm: { ints: [0, 2, 1, 3] } });
  const merged = g.op("Reshape", context, g.ints([0, 0, hidden]));
  const attended = g.layerNorm(
    g.op("Add", g.dense(merged, layer.attentionOutput, layer.attentionOutputBias), x),
    layer.attentionNorm,
    layer.attentionNormBias,
  );
  const inner = g.dense(attended, layer.intermediate, layer.intermediateBias);
  // GELU with erf: x · ½ · (1 + erf(x / √2)).
  const gelu = g.op(
    "Mul",
    g.op("Mul", inner, g.scalar(0.5)),
    g.op("Add", g.op("Erf", g.op("Div", inner, g.scalar(Math.SQRT2))), g.scalar(1)),
  );
  return g.layerNorm(
    g.op("Add", g.dense(gelu, layer.output, layer.outputBias), attended),
    layer.outputNorm,
    layer.outputNormBias,
  );
}

/** The whole graph: inputs, embeddings, blocks, and the outputs the options ask for. */
function buildGraph(weights: TinyEncoderWeights, options: Required<TinyEncoderOptions>): Uint8Array {
  const g = new EncoderGraph();
  const shape = ["batch_size", "sequence_length"];
  const inputIds = g.graph.input({ name: "input_ids", type: OnnxType.INT64, shape });
  const mask = g.graph.input({ name: "attention_mask", type: OnnxType.INT64, shape });
  const tokenTypes = g.graph.input({ name: "token_type_ids", type: OnnxType.INT64, shape });
  const maskFloat = g.graph.node("Cast", [mask], { to: { int: OnnxType.FLOAT } });
  const maskBias = g.op(
    "Mul",
    g.op("Sub", g.scalar(1), g.op("Unsqueeze", maskFloat, g.ints([1, 2]))),
    g.scalar(-10000),
  );
  const states = [embeddings(g, weights, inputIds, tokenTypes)];
  for (const layer of weights.layers) states.push(encoderBlock(g, layer, states.at(-1)!, maskBias, options.heads));
  const last = states.at(-1)!;
  const hiddenShape = ["batch_size", "sequence_length", options.hidden];
  if (options.head === "regression") {
    const first = g.graph.node("Gather", [last, g.ints([0])], { axis: { int: 1 } });
    const pooled = g.op("Tanh", g.dense(g.op("Reshape", first, g.ints([0, -1])), weights.pooler!, weights.poolerBias!));
    g.graph.output(
      { name: "logits", type: OnnxType.FLOAT, shape: ["batch_size", 1] },
      g.dense(pooled, weights.classifier!, weights.classifierBias!),
    );
  } else {
    g.graph.output({ name: "last_hidden_state", type: OnnxType.FLOAT, shape: hiddenShape }, last);
    if (options.exposeLayers)
      states.forEach((state, n) =>
        g.graph.output({ name: `hidden_states.${n}`, type: OnnxType.FLOAT, shape: hiddenShape }, state),
      );
  }
  return g.graph.serialize();
}

/** tokenizer.json: BERT's normaliser (lower-casing) and pre-tokenizer, WordPiece, [CLS] A [SEP] (B [SEP]). */
function tokenizerJson(vocab: ReadonlyMap<string, number>): unknown {
  const special = (content: string) => ({
    id: vocab.get(content),
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const piece = (id: string, typeId: number) => ({ SpecialToken: { id, type_id: typeId } });
  const sequence = (id: string, typeId: number) => ({ Sequence: { id, type_id: typeId } });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"].map(special),
    normalizer: {
      type: "BertNormalizer",
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [piece("[CLS]", 0), sequence("A", 0), piece("[SEP]", 0)],
      pair: [piece("[CLS]", 0), sequence("A", 0), piece("[SEP]", 0), sequence("B", 1), piece("[SEP]", 1)],
      special_tokens: Object.fromEntries(
        ["[CLS]", "[SEP]"].map((token) => [token, { id: token, ids: [vocab.get(token)], tokens: [token] }]),
      ),
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab),
    },
  };
}

/** Writes the model directory and returns what a test needs to check it. */
export function writeTinyEncoder(dir: string, given: TinyEncoderOptions = {}): TinyEncoder {
  const options: Required<TinyEncoderOptions> = {
    seed: 7,
    hidden: 16,
    heads: 2,
    layers: 2,
    intermediate: 32,
    maxPositions: 24,
    exposeLayers: false,
    head: "none",
    name: "tiny-random-bert",
    ...given,
  };
  const vocab = new Map(TINY_VOCABULARY.map((token, id) => [token, id]));
  const weights = makeWeights(options);
  mkdirSync(join(dir, "onnx"), { recursive: true });
  writeFileSync(join(dir, "onnx", "model.onnx"), buildGraph(weights, options));
  const regression = options.head === "regression";
  const config = {
    _name_or_path: options.name,
    architectures: [regression ? "BleurtForSequenceClassification" : "BertModel"],
    model_type: regression ? "bleurt" : "bert",
    hidden_size: options.hidden,
    num_attention_heads: options.heads,
    num_hidden_layers: options.layers,
    intermediate_size: options.intermediate,
    max_position_embeddings: options.maxPositions,
    type_vocab_size: 2,
    vocab_size: vocab.size,
    layer_norm_eps: LAYER_NORM_EPSILON,
    hidden_act: "gelu",
    ...(regression ? { num_labels: 1 } : {}),
  };
  writeFileSync(join(dir, "config.json"), `${JSON.stringify(config, null, 2)}\n`);
  writeFileSync(join(dir, "tokenizer.json"), JSON.stringify(tokenizerJson(vocab)));
  const tokenizerConfig = {
    tokenizer_class: "BertTokenizer",
    do_lower_case: true,
    model_max_length: options.maxPositions,
    cls_token: "[CLS]",
    sep_token: "[SEP]",
    pad_token: "[PAD]",
    unk_token: "[UNK]",
    mask_token: "[MASK]",
  };
  writeFileSync(join(dir, "tokenizer_config.json"), `${JSON.stringify(tokenizerConfig, null, 2)}\n`);
  return {
    dir,
    hidden: options.hidden,
    heads: options.heads,
    layers: options.layers,
    maxPositions: options.maxPositions,
    layerNormEpsilon: LAYER_NORM_EPSILON,
    vocab,
    weights,
  };
}
