import { describe, expect, it } from "vitest";
import { hfBleu, ZeroDivisionError } from "../../src/metrics/bleu-hf.ts";

describe("HF evaluate bleu (tensorflow/nmt compute_bleu)", () => {
  it("raises ZeroDivisionError where the Python code divides by zero", () => {
    expect(() => hfBleu(["Any pain?"], [""])).toThrow(ZeroDivisionError); // reference_length == 0
    expect(() => hfBleu(["     "], ["Any pain?"])).toThrow(ZeroDivisionError); // 1 / ratio with ratio == 0
    try {
      hfBleu([""], [""]);
      expect.unreachable();
    } catch (error) {
      expect(`${(error as Error).name}: ${(error as Error).message}`).toBe("ZeroDivisionError: float division by zero");
    }
  });

  it("scores 0 without smoothing when there is no 4-gram, even for identical text", () => {
    const short = hfBleu(["Yes."], ["Yes."]);
    expect(short.bleu).toBe(0);
    expect(short.precisions).toEqual([1, 1, 0, 0]);
    expect(hfBleu(["Any chest pain?"], ["Any chest pain?"]).bleu).toBe(1); // exactly four 13a tokens
  });

  it("uses the SHORTEST reference for the brevity penalty", () => {
    // Five tokens against references of 2 and 6 tokens: shortest = 2, so ratio 2.5 and no penalty.
    const result = hfBleu(["a b c d e"], [["a b", "a b c d e f"]]);
    expect(result.reference_length).toBe(2);
    expect(result.brevity_penalty).toBe(1);
    expect(result.bleu).toBe(1);
  });

  it("applies exp(1 - 1/ratio) when the translation is not longer", () => {
    const result = hfBleu(["a b c d"], ["a b c d e f"]);
    expect(result.length_ratio).toBe(4 / 6);
    expect(result.brevity_penalty).toBe(Math.exp(1 - 1 / (4 / 6)));
    expect(result.bleu).toBe(Math.exp(1 - 1 / (4 / 6)));
  });

  it("pools n-gram counts over the corpus", () => {
    const result = hfBleu(["a b c d", "x y"], ["a b c d", "x z"]);
    expect(result.precisions).toEqual([5 / 6, 3 / 4, 2 / 2, 1 / 1]);
    expect(result.translation_length).toBe(6);
  });
});
