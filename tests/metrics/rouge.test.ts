import { describe, expect, it } from "vitest";
import { fmeasure, lcsLength, lcsReferenceIndices, rougeScore } from "../../src/metrics/rouge.ts";

describe("rouge_score 0.1.2", () => {
  it("takes the target (reference) first: precision is over the prediction", () => {
    const scores = rougeScore("alpha beta gamma delta", "alpha beta");
    expect(scores.rouge1).toEqual({ precision: 1, recall: 0.5, fmeasure: fmeasure(1, 0.5) });
    expect(scores.rouge2).toEqual({ precision: 1, recall: 1 / 3, fmeasure: fmeasure(1, 1 / 3) });
  });

  it("clips repeated n-grams by the smaller count", () => {
    const scores = rougeScore("the cat is on the mat", "the the the the the the the");
    expect(scores.rouge1.precision).toBe(2 / 7);
    expect(scores.rouge1.recall).toBe(2 / 6);
  });

  it("is all zeros when either side has no tokens", () => {
    const zero = { precision: 0, recall: 0, fmeasure: 0 };
    expect(rougeScore("", "")).toEqual({ rouge1: zero, rouge2: zero, rougeL: zero, rougeLsum: zero });
    expect(rougeScore("...", "Any pain?").rougeL).toEqual(zero);
  });

  it("rougeLsum equals rougeL when there is no newline", () => {
    const scores = rougeScore(
      "no known drug allergies and takes lisinopril",
      "takes lisinopril daily no drug allergies",
    );
    expect(scores.rougeLsum).toEqual(scores.rougeL);
  });

  it("reads the LCS back with _backtrack_norec's tie-break (ties move up)", () => {
    // LCS("alpha beta", "beta alpha") has two choices; moving up on the tie keeps "alpha" (index 0).
    const ref = Int32Array.from([0, 1]);
    const can = Int32Array.from([1, 0]);
    expect(lcsLength(ref, can)).toBe(1);
    expect(lcsReferenceIndices(ref, can)).toEqual([0]);
  });

  it("unions the per-line LCS indices and does not double count tokens (summary-level LCS)", () => {
    // Target: one line "alpha beta". Prediction lines "beta alpha" and "alpha".
    // LCS with line 1 picks {alpha} (tie-break), with line 2 {alpha}: union {alpha} -> 1 hit.
    // With the other tie-break the union would be {alpha, beta} -> 2 hits.
    const scores = rougeScore("alpha beta", "beta alpha\nalpha");
    expect(scores.rougeLsum.recall).toBe(1 / 2);
    expect(scores.rougeLsum.precision).toBe(1 / 3);
    expect(scores.rougeLsum.fmeasure).toBe(fmeasure(1 / 3, 1 / 2));
    expect(scores.rougeL.recall).toBe(1 / 2); // whole-text LCS of (alpha beta, beta alpha alpha) is 1
  });

  it("splits summaries on \\n only and drops empty lines; \\r is removed by the tokenizer", () => {
    expect(rougeScore("cough\r\nfever", "fever\r\ncough").rougeLsum).toEqual(
      rougeScore("cough\nfever", "fever\ncough").rougeLsum,
    );
    expect(rougeScore("cough\n\n\nfever", "fever\ncough").rougeLsum).toEqual(
      rougeScore("cough\nfever", "fever\ncough").rougeLsum,
    );
  });

  it("stems with Porter only when asked", () => {
    expect(rougeScore("patient coughs", "patient coughing").rouge1.fmeasure).toBe(0.5);
    expect(rougeScore("patient coughs", "patient coughing", { useStemmer: true }).rouge1.fmeasure).toBe(1);
  });

  it("computes F as 2PR/(P+R) in that operation order", () => {
    expect(fmeasure(0.4, 0.36363636363636365)).toBe((2 * 0.4 * 0.36363636363636365) / (0.4 + 0.36363636363636365));
    expect(fmeasure(0, 0)).toBe(0);
  });
});
