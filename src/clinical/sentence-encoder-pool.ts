import type { SentenceEncoder } from "./red-flags-semantic.ts";

/**
 * Sentence encoders that share the work of each call: a turn's sentences are spread over them, so a
 * turn of several sentences takes about as long as its longest share rather than all of them in
 * turn, and calls from several conversations go to the least busy encoder. Each encoder is a model
 * on its own thread, and a sentence's vector does not depend on which encoder made it.
 */

/** An encoder the pool shares work with: how many calls it has waiting, and whether it still runs. */
export interface PoolableSentenceEncoder extends SentenceEncoder {
  readonly pending: number;
  readonly running: boolean;
}

/**
 * What a sentence is reckoned to cost an encoder, in characters: its length, and what every sentence
 * costs whatever its length (measured with USE-lite: about as much as ten tokens, some forty characters).
 */
const SENTENCE_COST = 40;
/** What a call already waiting on an encoder is reckoned to cost it, in the same characters. */
const WAITING_COST = 200;

/**
 * The sentences each encoder is given, as indices into `sentences`: longest first, each to the
 * encoder with the least work so far (its waiting calls count as work already given).
 */
export function shareSentences(sentences: readonly string[], waiting: readonly number[]): number[][] {
  const shares = waiting.map(() => [] as number[]);
  const work = waiting.map((calls) => calls * WAITING_COST);
  const longestFirst = sentences.map((_, index) => index).sort((a, b) => sentences[b]!.length - sentences[a]!.length);
  for (const index of longestFirst) {
    const least = work.indexOf(Math.min(...work));
    shares[least]!.push(index);
    work[least]! += sentences[index]!.length + SENTENCE_COST;
  }
  return shares.map((share) => share.sort((a, b) => a - b));
}

/** Encoders sharing each call's sentences; see the module comment. */
export class SentenceEncoderPool implements SentenceEncoder {
  readonly model: string;

  /** `encoders` run the same model (their first one's name is the pool's). */
  constructor(private readonly encoders: readonly PoolableSentenceEncoder[]) {
    if (encoders.length === 0) throw new Error("a sentence encoder pool needs at least one encoder");
    this.model = encoders[0]!.model;
  }

  async encode(sentences: readonly string[]): Promise<Float32Array[]> {
    const running = this.encoders.filter((encoder) => encoder.running);
    // With none running, the first one says why.
    if (running.length === 0) return this.encoders[0]!.encode(sentences);
    const shares = shareSentences(
      sentences,
      running.map((encoder) => encoder.pending),
    );
    const vectors: Float32Array[] = new Array<Float32Array>(sentences.length);
    await Promise.all(
      shares.map(async (share, at) => {
        if (share.length === 0) return;
        const encoded = await running[at]!.encode(share.map((index) => sentences[index]!));
        share.forEach((index, position) => (vectors[index] = encoded[position]!));
      }),
    );
    return vectors;
  }
}
