/**
 * BERTScore's greedy matching of one candidate against one reference, as bert-score's
 * `greedy_cos_idf` computes it (`bert_score/utils.py`, 0.3.12/0.3.13), with every step that moves a
 * number:
 *
 * 1. each token's embedding is divided by its L2 norm, so a dot product is a cosine;
 * 2. the similarity matrix covers every token, the special ones (`[CLS]`/`<s>`, `[SEP]`/`</s>`) included:
 *    a candidate token may be matched to the reference's `<s>`;
 * 3. padding is masked by multiplying its similarities by 0, not by -∞: when a sentence is shorter than
 *    the longest of its greedy-matching batch, its padded positions offer a similarity of exactly 0 to
 *    the max (which matters only when every real similarity is negative);
 * 4. precision is the weighted sum over candidate tokens of their best similarity, recall the same
 *    over reference tokens, each weight divided by the sentence's total weight (the special tokens
 *    weigh 0);
 * 5. F = 2PR/(P+R), and a NaN F (0/0) becomes 0;
 * 6. a candidate or a reference of exactly two tokens (only the special ones: an empty sentence) gets
 *    P = R = 0 after F was computed (its F is NaN, hence 0, since its weights sum to 0).
 */

/** One sentence ready for matching: L2-normalised token embeddings (row-major) and each token's weight. */
export interface MatchableSentence {
  readonly tokens: number;
  readonly dim: number;
  /** `tokens × dim` values, each row of norm 1 (float32, as bert-score's tensors). */
  readonly unit: Float32Array;
  /** Each token's weight (idf, or 1 with the special tokens at 0), not yet normalised. */
  readonly weights: Float64Array;
}

/** Precision, recall and F1 of one pair. */
export interface BertScoreTriple {
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

/** Whether each side of a pair was padded in its greedy-matching batch. */
export interface BatchPadding {
  readonly candidate: boolean;
  readonly reference: boolean;
}

/** Divides each row of `tokens × dim` embeddings by its L2 norm. */
export function normaliseRows(embeddings: ArrayLike<number>, tokens: number, dim: number): Float32Array {
  const unit = new Float32Array(tokens * dim);
  for (let t = 0; t < tokens; t++) {
    let squares = 0;
    for (let d = 0; d < dim; d++) squares += embeddings[t * dim + d]! ** 2;
    const norm = Math.sqrt(squares);
    for (let d = 0; d < dim; d++) unit[t * dim + d] = embeddings[t * dim + d]! / norm;
  }
  return unit;
}

/** Σ (weight / Σ weights) · best: bert-score normalises the weights first, then sums the products. */
function weightedSum(best: Float64Array, weights: Float64Array): number {
  let total = 0;
  for (const weight of weights) total += weight;
  let sum = 0;
  for (let i = 0; i < best.length; i++) sum += best[i]! * (weights[i]! / total);
  return sum;
}

/** The greedy matching of one pair (steps 2–6 of the module comment). */
export function greedyMatch(
  candidate: MatchableSentence,
  reference: MatchableSentence,
  padding: BatchPadding,
): BertScoreTriple {
  const { dim } = candidate;
  const bestForCandidate = new Float64Array(candidate.tokens).fill(padding.reference ? 0 : -Infinity);
  const bestForReference = new Float64Array(reference.tokens).fill(padding.candidate ? 0 : -Infinity);
  for (let i = 0; i < candidate.tokens; i++) {
    for (let j = 0; j < reference.tokens; j++) {
      let similarity = 0;
      for (let d = 0; d < dim; d++) similarity += candidate.unit[i * dim + d]! * reference.unit[j * dim + d]!;
      if (similarity > bestForCandidate[i]!) bestForCandidate[i] = similarity;
      if (similarity > bestForReference[j]!) bestForReference[j] = similarity;
    }
  }
  let precision = weightedSum(bestForCandidate, candidate.weights);
  let recall = weightedSum(bestForReference, reference.weights);
  let f1 = (2 * precision * recall) / (precision + recall);
  if (candidate.tokens === 2 || reference.tokens === 2) {
    precision = 0;
    recall = 0;
  }
  if (Number.isNaN(f1)) f1 = 0;
  return { precision, recall, f1 };
}

/**
 * Which pairs of one bert-score call were padded in greedy matching: pairs go in batches of
 * `batchSize` in order, and a sentence is padded when its batch holds a longer one on its side.
 */
export function batchPadding(
  candidateLengths: readonly number[],
  referenceLengths: readonly number[],
  batchSize: number,
): BatchPadding[] {
  const padding: BatchPadding[] = [];
  for (let start = 0; start < candidateLengths.length; start += batchSize) {
    const candidates = candidateLengths.slice(start, start + batchSize);
    const references = referenceLengths.slice(start, start + batchSize);
    const longestCandidate = Math.max(...candidates);
    const longestReference = Math.max(...references);
    candidates.forEach((length, i) =>
      padding.push({ candidate: length < longestCandidate, reference: references[i]! < longestReference }),
    );
  }
  return padding;
}
