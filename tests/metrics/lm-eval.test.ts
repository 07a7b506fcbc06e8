import { describe, expect, it } from "vitest";
import { hfBleu } from "../../src/metrics/bleu-hf.ts";
import { lmEvalNanmean, lmEvalProcessResults } from "../../src/metrics/lm-eval.ts";
import { rougeScore } from "../../src/metrics/rouge.ts";

describe("lm-eval mts_dialog / medtext process_results", () => {
  it("gates on Python len (code points): < 5 for mts_dialog, < 1 for medtext", () => {
    const emoji = lmEvalProcessResults("mts_dialog", "🤒🤒🤒", "Do you have a fever?"); // len 3, .length 6
    expect(emoji.nan_by_length_gate).toBe(true);
    expect([emoji.bleu, emoji.rouge1, emoji.rouge2, emoji.rougeL].every(Number.isNaN)).toBe(true);
    expect(lmEvalProcessResults("medtext", "🤒🤒🤒", "Do you have a fever?").nan_by_length_gate).toBe(false);
    expect(lmEvalProcessResults("medtext", "", "Fever?").nan_by_length_gate).toBe(true);
    expect(lmEvalProcessResults("mts_dialog", "Fever", "Fevers").nan_by_length_gate).toBe(false); // len 5 passes
  });

  it("turns a raising HF bleu into NaN with the printed message, without the 1e-5 nudge", () => {
    const result = lmEvalProcessResults("mts_dialog", "     ", "Have you noticed any swelling?");
    expect(result.nan_by_length_gate).toBe(false);
    expect(result.bleu).toBeNaN();
    expect(result.bleu_error).toBe("Bleu error: float division by zero");
    expect(result.rouge1).toBe(0);
    expect(result.rouge_error).toBeNull();
  });

  it("nudges a bleu of exactly 0 to 1e-5", () => {
    const result = lmEvalProcessResults(
      "medtext",
      "Thank you for coming in today.",
      "Your blood pressure is elevated.",
    );
    expect(hfBleu(["Thank you for coming in today."], ["Your blood pressure is elevated."]).bleu).toBe(0);
    expect(result.bleu).toBe(1e-5);
  });

  it("reports HF rouge F values (no stemming) and HF bleu otherwise", () => {
    const prediction = "When did your shortness of breath start?";
    const reference = "Uhm, when did the shortness of breath start?";
    const result = lmEvalProcessResults("mts_dialog", prediction, reference);
    const rouge = rougeScore(reference, prediction);
    expect(result.bleu).toBe(hfBleu([prediction], [reference]).bleu);
    expect([result.rouge1, result.rouge2, result.rougeL]).toEqual([
      rouge.rouge1.fmeasure,
      rouge.rouge2.fmeasure,
      rouge.rougeL.fmeasure,
    ]);
  });
});

describe("lm-eval nanmean aggregation", () => {
  it("is NaN for an empty or all-NaN list and ignores NaNs otherwise", () => {
    expect(lmEvalNanmean([])).toBeNaN();
    expect(lmEvalNanmean([NaN, NaN])).toBeNaN();
    expect(lmEvalNanmean([NaN, 0.5, 1e-5, NaN])).toBe((0.5 + 1e-5) / 2);
  });
});
