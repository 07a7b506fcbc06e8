import { describe, expect, it } from "vitest";
import {
  SentenceEncoderPool,
  shareSentences,
  type PoolableSentenceEncoder,
} from "../../src/clinical/sentence-encoder-pool.ts";

/** A fake encoder: each sentence's vector is its length and the encoder's number; it records what it was given. */
function fakeEncoder(number: number, calls: string[][], options: { pending?: number; running?: boolean } = {}) {
  const encoder: PoolableSentenceEncoder = {
    model: "fake-lengths-1",
    pending: options.pending ?? 0,
    running: options.running ?? true,
    encode: async (sentences) => {
      if (!encoder.running) throw new Error(`encoder ${number} has stopped`);
      calls.push([...sentences]);
      return sentences.map((sentence) => Float32Array.from([sentence.length, number]));
    },
  };
  return encoder;
}

describe("sharing a turn's sentences between encoders", () => {
  it("gives the longest sentences first, each to the encoder with the least work, and keeps each share in order", () => {
    const sentences = ["a long sentence about my chest pain", "short one", "a middling sentence", "ok then"];
    expect(shareSentences(sentences, [0, 0])).toEqual([
      [0, 3],
      [1, 2],
    ]);
    // One encoder: everything, in order.
    expect(shareSentences(sentences, [0])).toEqual([[0, 1, 2, 3]]);
    // Negative control: an encoder with calls waiting is given less (here nothing) of a short turn.
    expect(shareSentences(["my head hurts", "since this morning"], [3, 0])).toEqual([[], [0, 1]]);
  });

  it("encodes through every running encoder and puts the vectors back in the sentences' order", async () => {
    const calls: string[][] = [];
    const pool = new SentenceEncoderPool([fakeEncoder(1, calls), fakeEncoder(2, calls)]);
    const sentences = ["a long sentence about my chest pain", "short one", "a middling sentence", "ok then"];
    const vectors = await pool.encode(sentences);
    expect(vectors.map((vector) => vector[0])).toEqual(sentences.map((sentence) => sentence.length));
    expect(new Set(vectors.map((vector) => vector[1]))).toEqual(new Set([1, 2]));
    expect(calls).toHaveLength(2);
    expect(pool.model).toBe("fake-lengths-1");
  });

  it("leaves out an encoder that stopped; with none running, the call fails with the first one's reason", async () => {
    const calls: string[][] = [];
    const stopped = fakeEncoder(1, calls, { running: false });
    const pool = new SentenceEncoderPool([stopped, fakeEncoder(2, calls)]);
    const vectors = await pool.encode(["my chest hurts", "and my arm"]);
    expect(vectors.map((vector) => vector[1])).toEqual([2, 2]);
    const none = new SentenceEncoderPool([stopped, fakeEncoder(3, calls, { running: false })]);
    await expect(none.encode(["my chest hurts"])).rejects.toThrow("encoder 1 has stopped");
    expect(() => new SentenceEncoderPool([])).toThrow(/at least one encoder/);
  });
});
