import { describe, expect, it } from "vitest";
import { BLEU2_WEIGHTS, BLEU4_WEIGHTS, nltkCorpusBleu } from "../../src/metrics/bleu-nltk.ts";
import { scoreMeditodNlg } from "../../src/metrics/meditod-nlg.ts";
import { numpyMean } from "../../src/metrics/numpy-sum.ts";
import { rougeScore } from "../../src/metrics/rouge.ts";
import { meditodPreprocess } from "../../src/metrics/tokenize-meditod.ts";

const predictions = ["When did your shortness of breath start?", "Any fevers or chills?", "OK"];
const references = [
  "Uhm, when did the shortness of breath start?",
  "Have you had any fevers, chills, or night sweats?",
  "Okay.",
];

describe("MediTOD NLG scorer", () => {
  it("computes nltk corpus BLEU-2/4 x100 over preprocess_text whitespace tokens", () => {
    const result = scoreMeditodNlg(predictions, references);
    const hyps = predictions.map((p) => meditodPreprocess(p).split(" "));
    const refs = references.map((r) => [meditodPreprocess(r).split(" ")]);
    expect(result.samples).toBe(3);
    expect(result.bleu2).toBe(nltkCorpusBleu(refs, hyps, BLEU2_WEIGHTS) * 100);
    expect(result.bleu4).toBe(nltkCorpusBleu(refs, hyps, BLEU4_WEIGHTS) * 100);
  });

  it("reports the arithmetic mean of per-pair rouge F1 on preprocessed text (not the bootstrap median)", () => {
    const result = scoreMeditodNlg(predictions, references);
    const per = predictions.map((p, i) => rougeScore(meditodPreprocess(references[i]!), meditodPreprocess(p)));
    expect(result.rouge1).toBe(numpyMean(per.map((s) => s.rouge1.fmeasure)));
    expect(result.rougeL).toBe(numpyMean(per.map((s) => s.rougeL.fmeasure)));
  });

  it("reports BERTScore as null with a reason, never 0", () => {
    const result = scoreMeditodNlg(predictions, references);
    expect(result.bertscore).toBeNull();
    expect(result.bertscore_reason.length).toBeGreaterThan(0);
  });

  it("rejects lists of different lengths", () => {
    expect(() => scoreMeditodNlg(["a"], [])).toThrow(/differ in length/);
  });
});
