/**
 * The native BERTScore: bert-score's algorithm (bertscore.ts) over an ONNX export of the model in a
 * local directory, run by onnxruntime-node with transformers.js's tokenizer. bert-score's own steps
 * are kept:
 *
 * - `sent_encode`: the sentence is stripped (Python's whitespace); an empty one is `[CLS] [SEP]` alone;
 *   a byte-level BPE tokenizer of the RoBERTa/GPT-2 family gets a space before the sentence
 *   (`add_prefix_space=True`, as bert-score 0.3.13 does — 0.3.12 did so only with transformers < 4.17,
 *   and DeBERTa's tokenizer never); the ids are cut to the tokenizer's `model_max_length`, keeping the
 *   special tokens;
 * - the layer: bert-score cuts the model after `layer` blocks and takes its last hidden state. The
 *   export must give that state: an output `hidden_states.<layer>`, or `last_hidden_state` of a model of
 *   exactly `layer` blocks (an export of the cut model).
 */
import { AnamnesisError } from "../../foundation/errors.ts";
import { pyStrip } from "../python-text.ts";
import { maxSequenceLength, openEncoderSession, runEncoder, type EncoderSession } from "../onnx/encoder-session.ts";
import { describeBertScoreSettings, type BertScoreSettings } from "./bertscore-settings.ts";
import { computeBertScore, type BertScoreResult, type EncodingOptions, type SentenceEncoder } from "./bertscore.ts";
import { readBaseline } from "./token-weights.ts";

/** Tokenizer classes bert-score gives a prefix space (the slow and fast names of the same families). */
const PREFIX_SPACE_TOKENIZERS = new Set([
  "RobertaTokenizer",
  "RobertaTokenizerFast",
  "GPT2Tokenizer",
  "GPT2TokenizerFast",
]);

/** What a native BERTScore run records beside its scores. */
export interface NativeBertScoreRecord {
  readonly settings: string;
  readonly model_directory: string;
  readonly model_name: string;
  readonly model_fingerprint: string;
  /** The ONNX output the embeddings come from. */
  readonly layer_output: string;
  readonly prefix_space: boolean;
  readonly max_length: number;
  readonly versions: { readonly transformers_js: string; readonly onnxruntime_node: string };
}

/** Options of the native path beyond the consumer's settings. */
export interface NativeBertScoreOptions extends EncodingOptions {
  /** Override bert-score 0.3.13's prefix-space rule (e.g. `false` to match 0.3.12 with transformers ≥ 4.17). */
  readonly prefixSpace?: boolean;
}

/** The ONNX output holding the hidden state after `layer` blocks, or a one-line refusal. */
function layerOutput(encoder: EncoderSession, layer: number, dir: string): string {
  const { outputNames } = encoder.session;
  const exposed = `hidden_states.${layer}`;
  if (outputNames.includes(exposed)) return exposed;
  const blocks = encoder.directory.config.num_hidden_layers;
  if (!outputNames.includes("last_hidden_state"))
    throw new AnamnesisError(
      "INVALID_DATA",
      `${dir} is not a text encoder with hidden states (its outputs are ${outputNames.join(", ")}), so BERTScore cannot use it`,
    );
  if (blocks === layer) return "last_hidden_state";
  throw new AnamnesisError(
    "INVALID_DATA",
    `${dir} gives the hidden state after its ${String(blocks)} layers only, and this BERTScore uses layer ${layer}: export the model cut to its first ${layer} layers, or with hidden_states.<n> outputs (docs/metrics.md)`,
  );
}

/** bert-score's `sent_encode` over transformers.js's tokenizer. */
function sentenceEncoding(encoder: EncoderSession, prefixSpace: boolean, maxLength: number) {
  const { tokenizer } = encoder;
  const framed = tokenizer.encode("", { add_special_tokens: true });
  if (framed.length !== 2)
    throw new AnamnesisError(
      "INVALID_DATA",
      `${encoder.directory.dir}: its tokenizer does not frame a sentence as [CLS] … [SEP], which BERTScore needs`,
    );
  const [cls, sep] = framed as [number, number];
  const encode = (text: string): number[] => {
    const stripped = pyStrip(text);
    if (stripped === "") return [cls, sep];
    const ids = tokenizer.encode(prefixSpace ? ` ${stripped}` : stripped, { add_special_tokens: false });
    return [cls, ...ids.slice(0, maxLength - 2), sep];
  };
  return { encode, specialIds: { cls, sep } };
}

/** Opens the model directory as bert-score would use the model with these settings. */
export async function openNativeBertScore(
  dir: string,
  settings: BertScoreSettings,
  options: NativeBertScoreOptions = {},
): Promise<{ encoder: SentenceEncoder; record: NativeBertScoreRecord }> {
  const session = await openEncoderSession(dir, "BERTScore");
  const output = layerOutput(session, settings.layer, dir);
  const tokenizerClass = session.tokenizer.config.tokenizer_class;
  const prefixSpace = options.prefixSpace ?? PREFIX_SPACE_TOKENIZERS.has(String(tokenizerClass));
  const maxLength = maxSequenceLength(session);
  const { encode, specialIds } = sentenceEncoding(session, prefixSpace, maxLength);
  const encoder: SentenceEncoder = {
    specialIds,
    encode,
    embed: async (batch) => {
      const tensor = (
        await runEncoder(
          session,
          batch.map((ids) => ({ ids })),
          [output],
        )
      )[output]!;
      const [, length, dim] = tensor.dims as [number, number, number];
      const data = tensor.data as Float32Array;
      return batch.map((ids, i) => ({ values: data.subarray(i * length * dim, (i * length + ids.length) * dim), dim }));
    },
  };
  const record: NativeBertScoreRecord = {
    settings: describeBertScoreSettings(settings),
    model_directory: session.directory.dir,
    model_name: session.directory.name,
    model_fingerprint: session.directory.fingerprint,
    layer_output: output,
    prefix_space: prefixSpace,
    max_length: maxLength,
    versions: {
      transformers_js: session.runtime.versions.transformersJs,
      onnxruntime_node: session.runtime.versions.onnxruntimeNode,
    },
  };
  return { encoder, record };
}

/** The native BERTScore of each pair, with the record of how it was computed. */
export async function nativeBertScore(
  dir: string,
  candidates: readonly string[],
  references: readonly string[],
  settings: BertScoreSettings,
  options: NativeBertScoreOptions = {},
): Promise<BertScoreResult & { record: NativeBertScoreRecord }> {
  const baseline =
    settings.rescaleWithBaseline && settings.baselinePath !== undefined
      ? readBaseline(settings.baselinePath, settings.layer)
      : undefined;
  if (settings.rescaleWithBaseline && !baseline)
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      "native BERTScore rescaling needs the baseline file (bert-score's rescale_baseline/en/<model>.tsv)",
    );
  const { encoder, record } = await openNativeBertScore(dir, settings, options);
  const scores = await computeBertScore(candidates, references, settings, encoder, {
    ...options,
    ...(baseline ? { baseline } : {}),
  });
  return { ...scores, record };
}
