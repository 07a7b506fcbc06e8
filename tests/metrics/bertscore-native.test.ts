/**
 * The native BERTScore (ONNX through transformers.js and onnxruntime-node) on a tiny random BERT-like
 * model written by the test (test-support/tiny-encoder.ts), checked against an independent computation
 * (tiny-encoder-reference.ts: the same forward pass in plain TypeScript over the same weights, then
 * greedy matching from its definition) to 1e-6.
 *
 * Needs @huggingface/transformers (installed by `npm test`'s prerequisites into .cache/transformers-js);
 * when it is missing these tests fail with the install instruction.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { BertScoreSettings } from "../../src/metrics/bertscore/bertscore-settings.ts";
import { nativeBertScore } from "../../src/metrics/bertscore/native-bertscore.ts";
import { writeTinyEncoder, type TinyEncoder } from "../../test-support/tiny-encoder.ts";
import { tempDirForFile } from "../temp-dirs.ts";
import { independentBertScore } from "./tiny-encoder-reference.ts";

const TOLERANCE = 1e-6;

const CANDIDATES = [
  "The patient has a headache since two days.",
  "She reports mild chest pain, no fever.",
  "",
  "Severe back pain; taken ibuprofen daily, with no allergy. Family history: mother smoker, father alcohol. Exam normal, plan follow up.",
  "The patient has a headache since two days.",
];
const REFERENCES = [
  "Headache for two days, no nausea.",
  "Chest pain and fever since three days.",
  "Patient denies cough.",
  "Back pain, mild; denies rash. Ibuprofen 400 mg daily.",
  "   ",
];

function settings(overrides: Partial<BertScoreSettings>): BertScoreSettings {
  return {
    model: "tiny-random-bert",
    layer: 2,
    idf: false,
    rescaleWithBaseline: false,
    batchSize: 64,
    calls: "one call",
    ...overrides,
  };
}

/** bert-score from the definitions over the test's sentences. */
function expected(model: TinyEncoder, config: BertScoreSettings) {
  return independentBertScore(model, CANDIDATES, REFERENCES, config);
}

/** Within the tolerance, or NaN on both sides (bert-score's own NaN: a reference whose idf weights are all 0). */
function expectNear(actual: number, wanted: number) {
  if (Number.isNaN(wanted)) expect(actual).toBeNaN();
  else expect(Math.abs(actual - wanted)).toBeLessThan(TOLERANCE);
}

function expectClose(
  actual: { precision: number[]; recall: number[]; f1: number[] },
  wanted: ReturnType<typeof expected>,
) {
  expect(actual.f1).toHaveLength(wanted.length);
  wanted.forEach((triple, i) => {
    expectNear(actual.precision[i]!, triple.precision);
    expectNear(actual.recall[i]!, triple.recall);
    expectNear(actual.f1[i]!, triple.f1);
  });
}

describe("native BERTScore on a tiny random encoder", () => {
  const root = tempDirForFile();
  let layered: TinyEncoder;
  let lastOnly: TinyEncoder;
  beforeAll(() => {
    layered = writeTinyEncoder(join(root, "layered"), { exposeLayers: true });
    lastOnly = writeTinyEncoder(join(root, "last-only"), { seed: 11 });
  });

  it("matches the independent computation at the last layer, one call, no idf", async () => {
    const config = settings({});
    const result = await nativeBertScore(layered.dir, CANDIDATES, REFERENCES, config);
    expectClose(result, expected(layered, config));
    // The empty candidate and the blank reference score 0 everywhere, as bert-score sets them.
    expect([result.precision[2], result.recall[2], result.f1[2]]).toEqual([0, 0, 0]);
    expect([result.precision[4], result.recall[4], result.f1[4]]).toEqual([0, 0, 0]);
    expect(result.record).toMatchObject({
      settings: "tiny-random-bert_L2_no-idf",
      layer_output: "hidden_states.2",
      prefix_space: false,
      max_length: 24,
    });
    expect(result.record.model_fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("takes the chosen layer's hidden state, with idf from the references", async () => {
    const config = settings({ layer: 1, idf: true });
    expectClose(await nativeBertScore(layered.dir, CANDIDATES, REFERENCES, config), expected(layered, config));
  });

  it("scores each pair in its own call (lm-eval's way), where no sentence is padded", async () => {
    const config = settings({ calls: "one call per pair", layer: 1 });
    expectClose(await nativeBertScore(layered.dir, CANDIDATES, REFERENCES, config), expected(layered, config));
    // With idf over a single reference every one of its tokens weighs log(2/2) = 0: bert-score's recall is NaN.
    const idf = settings({ calls: "one call per pair", idf: true });
    const result = await nativeBertScore(layered.dir, CANDIDATES, REFERENCES, idf);
    expectClose(result, expected(layered, idf));
    expect(result.recall[0]).toBeNaN();
    expect(result.f1[0]).toBe(0);
  });

  it("pads in greedy-matching batches of batch_size pairs", async () => {
    const config = settings({ batchSize: 2, layer: 0 });
    expectClose(await nativeBertScore(layered.dir, CANDIDATES, REFERENCES, config), expected(layered, config));
  });

  it("rescales with the baseline file's row for the layer", async () => {
    const baselinePath = join(root, "baseline.tsv");
    writeFileSync(baselinePath, "LAYER,P,R,F\n0,0.1,0.1,0.1\n1,0.2,0.25,0.3\n2,0.5,0.4,0.45\n");
    const config = settings({ rescaleWithBaseline: true, baselinePath });
    const raw = expected(layered, settings({}));
    const result = await nativeBertScore(layered.dir, CANDIDATES, REFERENCES, config);
    const b = { p: Math.fround(0.5), r: Math.fround(0.4), f: Math.fround(0.45) };
    raw.forEach((triple, i) => {
      expect(Math.abs(result.precision[i]! - (triple.precision - b.p) / (1 - b.p))).toBeLessThan(TOLERANCE);
      expect(Math.abs(result.recall[i]! - (triple.recall - b.r) / (1 - b.r))).toBeLessThan(TOLERANCE);
      expect(Math.abs(result.f1[i]! - (triple.f1 - b.f) / (1 - b.f))).toBeLessThan(TOLERANCE);
    });
  });

  it("uses last_hidden_state when the export is cut at the layer, and refuses another layer in one line", async () => {
    const config = settings({ layer: 2 });
    const result = await nativeBertScore(lastOnly.dir, CANDIDATES, REFERENCES, config);
    expectClose(result, expected(lastOnly, config));
    expect(result.record.layer_output).toBe("last_hidden_state");
    await expect(nativeBertScore(lastOnly.dir, CANDIDATES, REFERENCES, settings({ layer: 1 }))).rejects.toThrow(
      /gives the hidden state after its 2 layers only, and this BERTScore uses layer 1: export the model cut to its first 1 layers/,
    );
  });

  it("refuses a directory that is not a model in one line", async () => {
    await expect(nativeBertScore(root, ["a"], ["b"], settings({}))).rejects.toThrow(
      /is not a model directory for BERTScore: it has no config\.json, tokenizer\.json, onnx\/model\.onnx/,
    );
  });
});
