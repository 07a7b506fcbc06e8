/**
 * BERTScore over candidate/reference pairs with a sentence encoder, as bert-score's `score` runs
 * (`bert_cos_score_idf`): every distinct sentence is encoded once (its embeddings do not depend on the
 * batch it is run in, padding being masked), then the pairs of each of the consumer's calls are
 * matched in batches of `batchSize` (greedy-matching.ts), with the call's token weights
 * (token-weights.ts) and, when asked, rescaled by a baseline.
 */
import type { BertScoreSettings } from "./bertscore-settings.ts";
import { batchPadding, greedyMatch, normaliseRows, type MatchableSentence } from "./greedy-matching.ts";
import { idfWeighting, rescale, uniformWeighting, type Baseline, type TokenWeighting } from "./token-weights.ts";

/** What BERTScore needs of a model: bert-score's `sent_encode`, and the chosen layer's embeddings. */
export interface SentenceEncoder {
  /** The tokenizer's `cls_token_id` and `sep_token_id`, which weigh 0 without idf. */
  readonly specialIds: { readonly cls: number; readonly sep: number };
  /** Token ids with the model's special tokens, after bert-score's strip, prefix space and truncation. */
  encode(text: string): number[];
  /** The layer's token embeddings of each id list, row-major (`ids.length × dim`), in order. */
  embed(
    batch: ReadonlyArray<readonly number[]>,
  ): Promise<Array<{ readonly values: Float32Array; readonly dim: number }>>;
}

/** Per-pair precision, recall and F1, in the pairs' order. */
export interface BertScoreResult {
  readonly precision: number[];
  readonly recall: number[];
  readonly f1: number[];
}

/** How the sentences are run through the model: sentences per forward pass, and progress. */
export interface EncodingOptions {
  readonly sentencesPerBatch?: number;
  readonly onProgress?: (done: number, total: number) => void;
}

/** Token ids and unit embeddings of every distinct sentence, longest first in batches. */
async function encodeAll(
  texts: readonly string[],
  encoder: SentenceEncoder,
  options: EncodingOptions,
): Promise<Map<string, { ids: number[]; unit: Float32Array; dim: number }>> {
  const ids = new Map<string, number[]>();
  for (const text of texts) if (!ids.has(text)) ids.set(text, encoder.encode(text));
  const order = [...ids.keys()].sort((a, b) => ids.get(b)!.length - ids.get(a)!.length);
  const encoded = new Map<string, { ids: number[]; unit: Float32Array; dim: number }>();
  const perBatch = options.sentencesPerBatch ?? 16;
  for (let start = 0; start < order.length; start += perBatch) {
    const batch = order.slice(start, start + perBatch);
    const embeddings = await encoder.embed(batch.map((text) => ids.get(text)!));
    batch.forEach((text, i) => {
      const { values, dim } = embeddings[i]!;
      const tokenIds = ids.get(text)!;
      encoded.set(text, { ids: tokenIds, unit: normaliseRows(values, tokenIds.length, dim), dim });
    });
    options.onProgress?.(Math.min(start + perBatch, order.length), order.length);
  }
  return encoded;
}

/** The consumer's calls: each pair alone, or every pair at once. */
function callRanges(settings: BertScoreSettings, pairs: number): Array<[number, number]> {
  if (settings.calls === "one call") return pairs === 0 ? [] : [[0, pairs]];
  return Array.from({ length: pairs }, (_, i): [number, number] => [i, i + 1]);
}

/**
 * BERTScore of each candidate against its reference with the given settings. The baseline is the
 * row of the settings' layer (token-weights.ts `readBaseline`), given when `rescaleWithBaseline`.
 */
export async function computeBertScore(
  candidates: readonly string[],
  references: readonly string[],
  settings: BertScoreSettings,
  encoder: SentenceEncoder,
  options: EncodingOptions & { readonly baseline?: Baseline } = {},
): Promise<BertScoreResult> {
  const encoded = await encodeAll([...references, ...candidates], encoder, options);
  const result: BertScoreResult = { precision: [], recall: [], f1: [] };
  for (const [start, end] of callRanges(settings, candidates.length)) {
    const refs = references.slice(start, end).map((text) => encoded.get(text)!);
    const cands = candidates.slice(start, end).map((text) => encoded.get(text)!);
    const weighting: TokenWeighting = settings.idf
      ? idfWeighting(refs.map((ref) => ref.ids))
      : uniformWeighting(encoder.specialIds);
    const matchable = (sentence: { ids: number[]; unit: Float32Array; dim: number }): MatchableSentence => ({
      tokens: sentence.ids.length,
      dim: sentence.dim,
      unit: sentence.unit,
      weights: Float64Array.from(sentence.ids, weighting),
    });
    const padding = batchPadding(
      cands.map((cand) => cand.ids.length),
      refs.map((ref) => ref.ids.length),
      settings.batchSize,
    );
    cands.forEach((cand, i) => {
      const raw = greedyMatch(matchable(cand), matchable(refs[i]!), padding[i]!);
      const scores = options.baseline ? rescale(raw, options.baseline) : raw;
      result.precision.push(scores.precision);
      result.recall.push(scores.recall);
      result.f1.push(scores.f1);
    });
  }
  return result;
}
