/**
 * The native BLEURT on a tiny random BLEURT-style regressor written by the test (test-support/
 * tiny-encoder.ts with a regression head), checked against an independent computation of BLEURT's
 * encoding (pair truncation, `[CLS] ref [SEP] cand [SEP]`, segment ids) and the same forward pass in
 * plain TypeScript (tiny-encoder-reference.ts), to 1e-6.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { nativeBleurt, truncatePair } from "../../src/metrics/bleurt/native-bleurt.ts";
import { writeTinyEncoder, type TinyEncoder } from "../../test-support/tiny-encoder.ts";
import { tempDirForFile } from "../temp-dirs.ts";
import { tinyRegression, tinyWordPiece } from "./tiny-encoder-reference.ts";

const CANDIDATES = [
  "The patient has a headache since two days.",
  "Mild chest pain.",
  "",
  "Severe back pain; taken ibuprofen daily, with no allergy. Family history: mother smoker, father alcohol.",
];
const REFERENCES = [
  "Headache for two days, no nausea.",
  "She reports sharp chest pain and fever since three days, with nausea and vomiting; blood pressure normal.",
  "Patient denies cough.",
  "Back pain.",
];

/** BLEURT's input from its definition: cut the longer side (the candidate on a tie) to fit 24 − 3 tokens. */
function expectedScore(model: TinyEncoder, reference: string, candidate: string): number {
  let ref = tinyWordPiece(model, reference);
  let cand = tinyWordPiece(model, candidate);
  while (ref.length + cand.length > model.maxPositions - 3) {
    if (ref.length > cand.length) ref = ref.slice(0, -1);
    else cand = cand.slice(0, -1);
  }
  const cls = model.vocab.get("[CLS]")!;
  const sep = model.vocab.get("[SEP]")!;
  const ids = [cls, ...ref, sep, ...cand, sep];
  const types = ids.map((_, i) => (i < ref.length + 2 ? 0 : 1));
  return tinyRegression(model, ids, types);
}

describe("native BLEURT on a tiny random regressor", () => {
  const root = tempDirForFile();
  let bleurt: TinyEncoder;
  let encoder: TinyEncoder;
  beforeAll(() => {
    bleurt = writeTinyEncoder(join(root, "bleurt"), { head: "regression", seed: 3, name: "tiny-bleurt" });
    encoder = writeTinyEncoder(join(root, "encoder"));
  });

  it("matches the independent computation, truncation and batching included", async () => {
    const { scores, record } = await nativeBleurt(bleurt.dir, CANDIDATES, REFERENCES, { pairsPerBatch: 3 });
    expect(scores).toHaveLength(CANDIDATES.length);
    scores.forEach((score, i) =>
      expect(Math.abs(score - expectedScore(bleurt, REFERENCES[i]!, CANDIDATES[i]!))).toBeLessThan(1e-6),
    );
    expect(record).toMatchObject({ model_name: "tiny-bleurt", max_seq_length: 24 });
  });

  it("cuts the longer side first, the candidate on a tie", () => {
    const reference = [1, 2, 3, 4, 5];
    const candidate = [6, 7, 8];
    truncatePair(reference, candidate, 5);
    expect([reference, candidate]).toEqual([
      [1, 2, 3],
      [6, 7],
    ]);
  });

  it("refuses a model without a BLEURT regression head in one line", async () => {
    await expect(nativeBleurt(encoder.dir, ["a"], ["b"])).rejects.toThrow(
      /is not a BLEURT model \(config\.json names BertModel and its outputs are last_hidden_state\)/,
    );
  });
});
