import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadMeditod } from "../../src/data/meditod.ts";
import { scoreNluPredictions, scorePolicyPredictions } from "../../eval/suites/meditod/meditod-scoring.ts";
import type { PredictionLine } from "../../eval/shared/predictions-file.ts";

/**
 * Predictions perturbed from the bundled sample, with the values the official MediTOD Python functions
 * (nlu_metrics.py / pol_metrics.py compute_precision_recall_f1 and compute_precision_k, rounding off)
 * computed for them. See tests/fixtures/README.md.
 */
interface OfficialCase {
  task: "nlu" | "pol";
  name: string;
  lines: Array<{ dialogue_id: string; turn: number; prediction: unknown }>;
  official: Record<string, number>;
}
const fixture = JSON.parse(
  readFileSync(new URL("../fixtures/meditod-official-scores.json", import.meta.url), "utf8"),
) as { cases: OfficialCase[] };
const dataset = loadMeditod();

function close(actual: number, expected: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-9);
}

describe("NLU and POL scores agree with the official MediTOD functions", () => {
  it("has cases of every kind", () => {
    expect(fixture.cases.length).toBeGreaterThanOrEqual(60);
    expect(new Set(fixture.cases.map((c) => c.name.split("-")[1]))).toEqual(
      new Set(["perturbed", "empty", "malformed", "shifted"]),
    );
  });

  for (const testCase of fixture.cases) {
    it(`${testCase.task} ${testCase.name}`, async () => {
      const lines: PredictionLine[] = testCase.lines.map((line, index) => ({ ...line, line: index + 1 }));
      const official = testCase.official;
      const scores =
        testCase.task === "nlu"
          ? await scoreNluPredictions(dataset, lines)
          : await scorePolicyPredictions(dataset, lines);
      expect(scores.samples).toBe(official.samples);
      close(scores.joint_accuracy, official.joint_accuracy!);
      close(scores.medical.precision, official.canon_precision!);
      close(scores.medical.recall, official.canon_recall!);
      close(scores.medical.f1, official.canon_f1!);
      close(scores.non_medical.precision, official.noncanon_precision!);
      close(scores.non_medical.recall, official.noncanon_recall!);
      close(scores.non_medical.f1, official.noncanon_f1!);
      close(scores.overall.precision, official.precision!);
      close(scores.overall.recall, official.recall!);
      close(scores.overall.f1, official.f1!);
      if (testCase.task === "nlu") close(scores.format_errors, official.format_errors!);
      if ("precision_at" in scores) {
        const precisionAt = scores.precision_at as Record<string, number>;
        for (const k of [1, 2, 4, 6, 8, 10]) close(precisionAt[String(k)]!, official[`precision@${k}`]!);
        close(precisionAt.inf!, official["precision@1000000"]!);
      }
    });
  }
});
