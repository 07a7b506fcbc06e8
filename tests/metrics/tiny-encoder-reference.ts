/**
 * An independent computation for the native model-metric tests: the tiny encoder's forward pass in
 * plain TypeScript (float64) over the weights test-support/tiny-encoder.ts wrote, its WordPiece
 * tokenization of the tests' simple sentences, and BERTScore's greedy matching and BLEURT's head,
 * written here from the definitions (BERT's encoder; bert-score's `greedy_cos_idf`) without the code
 * under test.
 */
import type { BertScoreSettings } from "../../src/metrics/bertscore/bertscore-settings.ts";
import type { TinyEncoder, TinyLayerWeights, Weight } from "../../test-support/tiny-encoder.ts";

type Matrix = number[][];

/**
 * ASCII punctuation, each character a word of its own to BERT's basic tokenizer (`_is_punctuation`).
 * @example "__lf1__" splits as "_ _ lf1 _ _"
 */
const ASCII_PUNCTUATION = /([!-/:-@[-`{-~])/g;

/** Lower-cases, splits on spaces and around ASCII punctuation, then greedy longest-match WordPiece. */
export function tinyWordPiece(model: TinyEncoder, text: string): number[] {
  const words = text
    .toLowerCase()
    .replace(ASCII_PUNCTUATION, " $1 ")
    .split(/\s+/)
    .filter((word) => word !== "");
  const ids: number[] = [];
  for (const word of words) {
    const pieces: number[] = [];
    let start = 0;
    while (start < word.length) {
      let end = word.length;
      let found: number | undefined;
      for (; end > start; end--) {
        found = model.vocab.get((start > 0 ? "##" : "") + word.slice(start, end));
        if (found !== undefined) break;
      }
      if (found === undefined) {
        pieces.length = 0;
        pieces.push(model.vocab.get("[UNK]")!);
        break;
      }
      pieces.push(found);
      start = end;
    }
    ids.push(...pieces);
  }
  return ids;
}

function row(weight: Weight, r: number): number[] {
  const width = weight.dims[1]!;
  return Array.from(weight.values.subarray(r * width, (r + 1) * width));
}

function dense(x: Matrix, matrix: Weight, bias: Weight): Matrix {
  const [inputs, outputs] = matrix.dims as [number, number];
  return x.map((vector) =>
    Array.from({ length: outputs }, (_, o) => {
      let sum = 0;
      for (let i = 0; i < inputs; i++) sum += vector[i]! * matrix.values[i * outputs + o]!;
      return sum + bias.values[o]!;
    }),
  );
}

function layerNorm(x: Matrix, gain: Weight, bias: Weight, epsilon: number): Matrix {
  return x.map((vector) => {
    const mean = vector.reduce((a, b) => a + b, 0) / vector.length;
    const variance = vector.reduce((a, b) => a + (b - mean) ** 2, 0) / vector.length;
    return vector.map(
      (value, i) => ((value - mean) / Math.sqrt(variance + epsilon)) * gain.values[i]! + bias.values[i]!,
    );
  });
}

function add(a: Matrix, b: Matrix): Matrix {
  return a.map((vector, r) => vector.map((value, c) => value + b[r]![c]!));
}

/** erf by its Maclaurin series, summed until it no longer changes (|x| stays small in this model). */
function erf(x: number): number {
  if (Math.abs(x) > 5) return Math.sign(x);
  let term = x;
  let sum = x;
  for (let n = 1; n < 200; n++) {
    term *= (-x * x) / n;
    const next = sum + term / (2 * n + 1);
    if (next === sum) break;
    sum = next;
  }
  return (2 / Math.sqrt(Math.PI)) * sum;
}

function block(model: TinyEncoder, layer: TinyLayerWeights, x: Matrix): Matrix {
  const heads = model.heads;
  const size = model.hidden / heads;
  const q = dense(x, layer.query, layer.queryBias);
  const k = dense(x, layer.key, layer.keyBias);
  const v = dense(x, layer.value, layer.valueBias);
  const context: Matrix = x.map(() => new Array<number>(model.hidden).fill(0));
  for (let h = 0; h < heads; h++) {
    for (let i = 0; i < x.length; i++) {
      const scores = x.map((_, j) => {
        let dot = 0;
        for (let d = 0; d < size; d++) dot += q[i]![h * size + d]! * k[j]![h * size + d]!;
        return dot / Math.sqrt(size);
      });
      const top = Math.max(...scores);
      const exps = scores.map((score) => Math.exp(score - top));
      const total = exps.reduce((a, b) => a + b, 0);
      for (let j = 0; j < x.length; j++)
        for (let d = 0; d < size; d++) context[i]![h * size + d]! += (exps[j]! / total) * v[j]![h * size + d]!;
    }
  }
  const attended = layerNorm(
    add(dense(context, layer.attentionOutput, layer.attentionOutputBias), x),
    layer.attentionNorm,
    layer.attentionNormBias,
    model.layerNormEpsilon,
  );
  const inner = dense(attended, layer.intermediate, layer.intermediateBias).map((vector) =>
    vector.map((value) => 0.5 * value * (1 + erf(value / Math.SQRT2))),
  );
  return layerNorm(
    add(dense(inner, layer.output, layer.outputBias), attended),
    layer.outputNorm,
    layer.outputNormBias,
    model.layerNormEpsilon,
  );
}

/** Every hidden state of one unpadded sequence: [embeddings, after block 1, …]. */
export function tinyHiddenStates(model: TinyEncoder, ids: readonly number[], types?: readonly number[]): Matrix[] {
  const w = model.weights;
  const embedded = ids.map((id, position) => {
    const word = row(w.wordEmbeddings, id);
    const place = row(w.positionEmbeddings, position);
    const type = row(w.typeEmbeddings, types?.[position] ?? 0);
    return word.map((value, d) => value + place[d]! + type[d]!);
  });
  const states = [layerNorm(embedded, w.embeddingNorm, w.embeddingNormBias, model.layerNormEpsilon)];
  for (const layer of w.layers) states.push(block(model, layer, states.at(-1)!));
  return states;
}

/** The BLEURT-style head: tanh pooler over the first token, then the one-output dense layer. */
export function tinyRegression(model: TinyEncoder, ids: readonly number[], types: readonly number[]): number {
  const w = model.weights;
  const last = tinyHiddenStates(model, ids, types).at(-1)!;
  const pooled = dense([last[0]!], w.pooler!, w.poolerBias!)[0]!.map(Math.tanh);
  return dense([pooled], w.classifier!, w.classifierBias!)[0]![0]!;
}

/** One side of a pair for matching: its embeddings and token weights. */
export interface ReferenceSide {
  readonly embeddings: Matrix;
  readonly weights: readonly number[];
  /** Shorter than the longest sentence on its side of the greedy-matching batch. */
  readonly padded: boolean;
}

/** BERTScore's P, R, F1 of one pair from the definitions (cosine, greedy max, weighted means). */
export function referenceGreedyMatch(candidate: ReferenceSide, reference: ReferenceSide) {
  const unit = (vector: number[]) => {
    const norm = Math.sqrt(vector.reduce((a, b) => a + b * b, 0));
    return vector.map((value) => value / norm);
  };
  const c = candidate.embeddings.map(unit);
  const r = reference.embeddings.map(unit);
  const cosine = c.map((a) => r.map((b) => a.reduce((sum, value, d) => sum + value * b[d]!, 0)));
  const bestC = cosine.map((sims) => Math.max(...sims, ...(reference.padded ? [0] : [])));
  const bestR = r.map((_, j) => Math.max(...cosine.map((sims) => sims[j]!), ...(candidate.padded ? [0] : [])));
  const mean = (best: number[], weights: readonly number[]) => {
    const total = weights.reduce((a, b) => a + b, 0);
    return best.reduce((sum, value, i) => sum + (value * weights[i]!) / total, 0);
  };
  const empty = c.length === 2 || r.length === 2;
  const precision = mean(bestC, candidate.weights);
  const recall = mean(bestR, reference.weights);
  const f1 = (2 * precision * recall) / (precision + recall);
  return { precision: empty ? 0 : precision, recall: empty ? 0 : recall, f1: Number.isNaN(f1) ? 0 : f1 };
}

/** bert-score from the definitions: ids framed and cut to 24, hidden state of `layer`, weights, batches. */
export function independentBertScore(
  model: TinyEncoder,
  candidates: readonly string[],
  references: readonly string[],
  config: BertScoreSettings,
) {
  const cls = model.vocab.get("[CLS]")!;
  const sep = model.vocab.get("[SEP]")!;
  const encode = (text: string) => [cls, ...tinyWordPiece(model, text.trim()).slice(0, model.maxPositions - 2), sep];
  const calls = config.calls === "one call" ? [[0, candidates.length]] : candidates.map((_, i) => [i, i + 1]);
  return calls.flatMap(([start, end]) => {
    const cands = candidates.slice(start, end).map(encode);
    const refs = references.slice(start, end).map(encode);
    const documents = new Map<number, number>();
    for (const ids of refs) for (const id of new Set(ids)) documents.set(id, (documents.get(id) ?? 0) + 1);
    const weight = (id: number) =>
      config.idf ? Math.log((refs.length + 1) / ((documents.get(id) ?? 0) + 1)) : id === cls || id === sep ? 0 : 1;
    const longest = (side: number[][]) => Math.max(...side.map((ids) => ids.length));
    return cands.map((cand, i) => {
      const side = (ids: number[], all: number[][]) => ({
        embeddings: tinyHiddenStates(model, ids)[config.layer]!,
        weights: ids.map(weight),
        padded: ids.length < longest(all),
      });
      return referenceGreedyMatch(side(cand, cands), side(refs[i]!, refs));
    });
  });
}
