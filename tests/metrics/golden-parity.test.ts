import { describe, expect, it } from "vitest";
import { hfBleu, ZeroDivisionError } from "../../src/metrics/bleu-hf.ts";
import { BLEU2_WEIGHTS, BLEU4_WEIGHTS, nltkCorpusBleu, nltkSentenceBleu } from "../../src/metrics/bleu-nltk.ts";
import { sacrebleuCorpusBleu, sacrebleuSentenceBleu } from "../../src/metrics/bleu-sacrebleu.ts";
import { lmEvalProcessResults, type LmEvalDocResult } from "../../src/metrics/lm-eval.ts";
import { scoreMeditodNlg } from "../../src/metrics/meditod-nlg.ts";
import { scoreCorpus, scorePair, scorePairsAndCorpus } from "../../src/metrics/pair-metrics.ts";
import { rougeScore } from "../../src/metrics/rouge.ts";
import { tokenize13a } from "../../src/metrics/tokenize-13a.ts";
import { meditodPreprocess, tokenizeMeditod } from "../../src/metrics/tokenize-meditod.ts";
import { tokenizeRouge } from "../../src/metrics/tokenize-rouge.ts";
import { compareToGolden, countLeaves, golden, nanToNull, pairMetricFields, type Comparison } from "./golden.ts";

function expectAgreement(comparison: Comparison): void {
  expect(comparison.mismatches).toEqual([]);
}

function lmEvalAsGolden(doc: LmEvalDocResult): Record<string, unknown> {
  return {
    ...doc,
    bleu: nanToNull(doc.bleu),
    rouge1: nanToNull(doc.rouge1),
    rouge2: nanToNull(doc.rouge2),
    rougeL: nanToNull(doc.rougeL),
  };
}

/** The golden corpus block without the values of the (randomised) bootstrap aggregator. */
function deterministicCorpus(): Record<string, unknown> {
  const corpus = structuredClone(golden.corpus.all) as Record<string, Record<string, unknown>>;
  delete corpus.hf_rouge_default_bootstrap_mid_seed0;
  delete corpus.meditod!.rouge1_bootstrap_mid_seed0;
  delete corpus.meditod!.rougeL_bootstrap_mid_seed0;
  return corpus;
}

describe("golden pairs (metrics-golden.json)", () => {
  it("has the pairs this suite expects", () => {
    expect(golden.pairs.length).toBeGreaterThanOrEqual(43);
  });

  it.each(golden.pairs.map((p) => [p.id, p] as const))("%s: tokens of every tokenizer", (_id, pair) => {
    const t = pair.tokens;
    expect(tokenize13a(pair.prediction)).toEqual(t["13a_prediction"]);
    expect(tokenize13a(pair.reference)).toEqual(t["13a_reference"]);
    expect(tokenizeRouge(pair.prediction)).toEqual(t.rouge_prediction);
    expect(tokenizeRouge(pair.reference)).toEqual(t.rouge_reference);
    expect(tokenizeRouge(pair.prediction, true)).toEqual(t.rouge_stem_prediction);
    expect(tokenizeRouge(pair.reference, true)).toEqual(t.rouge_stem_reference);
    expect(meditodPreprocess(pair.prediction)).toBe(t.meditod_prediction);
    expect(meditodPreprocess(pair.reference)).toBe(t.meditod_reference);
    // pair-metrics reuses the raw-text rouge tokens for MediTOD's ROUGE on preprocessed text.
    expect(tokenizeRouge(meditodPreprocess(pair.prediction))).toEqual(tokenizeRouge(pair.prediction));
    expect(tokenizeRouge(meditodPreprocess(pair.reference))).toEqual(tokenizeRouge(pair.reference));
  });

  it.each(golden.pairs.map((p) => [p.id, p] as const))(
    "%s: scorePair reproduces every value and the exact shape",
    (_id, pair) => {
      const expected = pairMetricFields(pair);
      const comparison = compareToGolden(scorePair(pair.prediction, pair.reference), expected);
      expectAgreement(comparison);
      expect(comparison.compared).toBe(countLeaves(expected));
    },
  );

  it.each(golden.pairs.map((p) => [p.id, p] as const))("%s: each metric's own API agrees", (_id, pair) => {
    const { prediction, reference } = pair;
    const hf = pair.hf_bleu as Record<string, unknown>;
    if ("error" in hf) {
      expect(() => hfBleu([prediction], [reference])).toThrow(ZeroDivisionError);
      expect(() => hfBleu([prediction], [reference])).toThrow("float division by zero");
    } else {
      expectAgreement(compareToGolden(hfBleu([prediction], [reference]), hf, "hf_bleu"));
    }
    expectAgreement(
      compareToGolden(sacrebleuSentenceBleu(prediction, [reference]), pair.sacrebleu_sentence, "sacrebleu_sentence"),
    );

    const hyp = tokenizeMeditod(prediction);
    const ref = tokenizeMeditod(reference);
    expectAgreement(compareToGolden(nltkSentenceBleu([ref], hyp, BLEU2_WEIGHTS), pair.nltk_bleu2, "nltk_bleu2"));
    expectAgreement(compareToGolden(nltkSentenceBleu([ref], hyp, BLEU4_WEIGHTS), pair.nltk_bleu4, "nltk_bleu4"));

    const rouge = pair.rouge as Record<string, unknown>;
    expectAgreement(compareToGolden(rougeScore(reference, prediction), rouge.nostem, "rouge.nostem"));
    expectAgreement(compareToGolden(rougeScore(reference, prediction, { useStemmer: true }), rouge.stem, "rouge.stem"));

    expectAgreement(
      compareToGolden(
        lmEvalAsGolden(lmEvalProcessResults("mts_dialog", prediction, reference)),
        pair.lmeval_mts_dialog,
        "mts_dialog",
      ),
    );
    expectAgreement(
      compareToGolden(
        lmEvalAsGolden(lmEvalProcessResults("medtext", prediction, reference)),
        pair.lmeval_medtext,
        "medtext",
      ),
    );

    const meditod = scoreMeditodNlg([prediction], [reference]);
    const expectedMeditod = pair.meditod as Record<string, number>;
    expectAgreement(
      compareToGolden(
        { bleu2_x100: meditod.bleu2, bleu4_x100: meditod.bleu4, rouge1: meditod.rouge1, rougeL: meditod.rougeL },
        expectedMeditod,
        "meditod",
      ),
    );
  });
});

describe("golden corpus block (corpus.all)", () => {
  const pairs = golden.pairs.map((p) => ({ id: p.id, prediction: p.prediction, reference: p.reference }));
  const expected = deterministicCorpus();

  it("scoreCorpus reproduces every deterministic value and the shape", () => {
    const comparison = compareToGolden(scoreCorpus(pairs), expected);
    expectAgreement(comparison);
    expect(comparison.compared).toBe(countLeaves(expected));
  });

  it("scorePairsAndCorpus gives the same pairs and corpus as the separate calls", () => {
    const both = scorePairsAndCorpus(pairs);
    expect(both.corpus).toEqual(scoreCorpus(pairs));
    expect(both.pairs).toEqual(pairs.map((p) => scorePair(p.prediction, p.reference)));
  });

  it("the per-family corpus APIs agree", () => {
    const predictions = pairs.map((p) => p.prediction);
    const references = pairs.map((p) => p.reference);
    expectAgreement(compareToGolden(hfBleu(predictions, references), expected.hf_bleu, "hf_bleu"));
    expectAgreement(
      compareToGolden(sacrebleuCorpusBleu(predictions, [references]), expected.sacrebleu_corpus, "sacrebleu_corpus"),
    );

    const hyps = predictions.map(tokenizeMeditod);
    const refs = references.map((r) => [tokenizeMeditod(r)]);
    const meditod = expected.meditod as Record<string, number>;
    expectAgreement(compareToGolden(nltkCorpusBleu(refs, hyps, BLEU2_WEIGHTS) * 100, meditod.bleu2_x100, "bleu2"));
    expectAgreement(compareToGolden(nltkCorpusBleu(refs, hyps, BLEU4_WEIGHTS) * 100, meditod.bleu4_x100, "bleu4"));

    const nlg = scoreMeditodNlg(predictions, references);
    expect(nlg.samples).toBe(pairs.length);
    expect(nlg.bertscore).toBeNull();
    expect(nlg.bertscore_reason).toMatch(/roberta-large/);
    expectAgreement(
      compareToGolden(
        { bleu2_x100: nlg.bleu2, bleu4_x100: nlg.bleu4, rouge1_mean: nlg.rouge1, rougeL_mean: nlg.rougeL },
        meditod,
        "meditod",
      ),
    );
  });

  it("reproduces every golden value bit for bit, not only within the tolerance", () => {
    // With correctly rounded exp/log (python-math.ts) no value should need the 1e-12 tolerance.
    const notExact: string[] = [];
    for (const pair of golden.pairs) {
      notExact.push(
        ...compareToGolden(scorePair(pair.prediction, pair.reference), pairMetricFields(pair), pair.id).withinTolerance,
      );
    }
    notExact.push(...compareToGolden(scoreCorpus(pairs), expected, "corpus").withinTolerance);
    expect(notExact).toEqual([]);
  });

  it("the bootstrap medians are the only golden corpus values not reproduced", () => {
    const all = golden.corpus.all as Record<string, Record<string, unknown>>;
    expect(countLeaves(all) - countLeaves(expected)).toBe(
      countLeaves(all.hf_rouge_default_bootstrap_mid_seed0) + 2, // + meditod.rouge{1,L}_bootstrap_mid_seed0
    );
  });
});
