/**
 * ACI-Bench's BERTScore and BLEURT as evaluate_fullnote.py computes them: one call over the 5 x N pairs
 * (every full note, then each division's column, `#####EMPTY#####` where a note lacks a division that
 * another has), then numpy means per cohort keyed as its results JSON.
 *
 * - Through the reference bridge (a stand-in python3 whose scores are a known function of the texts),
 *   on the shipped LED predictions of test2: the pairs are built here from the official section tagger's
 *   divisions (tests/fixtures/aci-bench-divisions.json), not by the code under test.
 * - Natively on a tiny random 40-layer encoder (so that ACI-Bench's layer 40 is its last), on notes
 *   written here with their divisions written out by hand, checked against the independent forward
 *   pass and greedy matching (tiny-encoder-reference.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BUNDLED_ACI_BENCH_DIR, loadAciBench } from "../../src/data/aci-bench.ts";
import { alignOfficialPredictions, readOfficialPredictions } from "../../src/data/aci-bench-predictions.ts";
import { ACI_BENCH_BERTSCORE } from "../../src/metrics/bertscore/bertscore-settings.ts";
import type { AciScoringNote } from "../../src/metrics/aci-bench-scoring.ts";
import {
  aciModelMetrics,
  aciModelMetricsNotAsked,
  MEDCON_UNAVAILABLE,
} from "../../src/metrics/model-metrics/aci-bench-model-metrics.ts";
import { scoreAciBench, scoringNote } from "../../eval/suites/aci-bench/aci-bench-scores.ts";
import { standInScore, writeStandInPython } from "../../test-support/stand-in-python.ts";
import { writeTinyEncoder, type TinyEncoder } from "../../test-support/tiny-encoder.ts";
import { tempDirForFile } from "../temp-dirs.ts";
import { independentBertScore } from "./tiny-encoder-reference.ts";

const DIVISIONS = ["subjective", "objective_exam", "objective_results", "assessment_and_plan"];

const FIXTURE = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "fixtures", "aci-bench-divisions.json"), "utf8"),
) as { files: Record<string, Array<Array<[string, number, number]>>> };

/** The official tagger's divisions of a note (fixture spans, in code points), `__lf1__` for line breaks. */
function officialDivisions(note: string, spans: ReadonlyArray<[string, number, number]>): Map<string, string> {
  const points = Array.from(note.replaceAll("__lf1__", "\n"));
  return new Map(
    spans.map(([division, start, end]) => [division, points.slice(start, end).join("").replaceAll("\n", "__lf1__")]),
  );
}

/** The script's reference and prediction lists: full notes, then each division's column (pandas' fillna). */
function scriptPairs(
  references: readonly string[],
  predictions: readonly string[],
  referenceDivisions: ReadonlyArray<Map<string, string>>,
  predictionDivisions: ReadonlyArray<Map<string, string>>,
) {
  const column = (divided: ReadonlyArray<Map<string, string>>, division: string) => {
    const anyHas = divided.some((divisions) => divisions.has(division));
    return divided.map((divisions) => divisions.get(division) ?? (anyHas ? "#####EMPTY#####" : ""));
  };
  return {
    references: [...references, ...DIVISIONS.flatMap((division) => column(referenceDivisions, division))],
    predictions: [...predictions, ...DIVISIONS.flatMap((division) => column(predictionDivisions, division))],
  };
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** A cohort's indexes into the 5 x N lists: note indexes for note cohorts, a block for a division. */
function divisionIndexes(division: string, notes: number): number[] {
  const block = DIVISIONS.indexOf(division) + 1;
  return Array.from({ length: notes }, (_, index) => block * notes + index);
}

describe("ACI-Bench BERTScore and BLEURT through the reference bridge", () => {
  const root = tempDirForFile();
  const log = join(root, "calls.jsonl");
  const dataset = loadAciBench();
  const encounters = dataset.splits.test2;
  const file = "predictions/LED_clinicalnlp_taskC_test2_division_combined.csv";
  const predictions = alignOfficialPredictions(
    readOfficialPredictions(join(BUNDLED_ACI_BENCH_DIR, file)),
    encounters,
    "test2",
  );
  const notes = encounters.map((encounter, index) => scoringNote(encounter, predictions[index]!));
  let python: string;
  beforeAll(() => {
    python = writeStandInPython(root, { log });
  });

  it("scores the 5 x N pairs in one call with deberta-xlarge-mnli layer 40 and BLEURT-20, and averages per cohort", async () => {
    const source = { kind: "python" as const, python };
    const metrics = await aciModelMetrics(notes, { bertscore: source, bleurt: source });
    const goldSpans = FIXTURE.files["challenge_data/clinicalnlp_taskC_test2.csv"]!;
    const predictionSpans = FIXTURE.files[file]!;
    const pairs = scriptPairs(
      encounters.map((encounter) => encounter.target),
      predictions,
      encounters.map((encounter, index) => officialDivisions(encounter.target, goldSpans[index]!)),
      predictions.map((note, index) => officialDivisions(note, predictionSpans[index]!)),
    );
    expect(pairs.references).toHaveLength(200);
    const perPair = (salt: number) => pairs.predictions.map((p, i) => standInScore(p, pairs.references[i]!, salt));
    const f1 = perPair(0);
    const bleurt = perPair(0.3);
    const at = (values: readonly number[], indexes: readonly number[]) => mean(indexes.map((i) => values[i]!));
    const all = encounters.map((_, index) => index);
    expect(metrics.bertscore!.ALL!["bertscore-f1"]).toBeCloseTo(at(f1, all), 12);
    expect(metrics.bertscore!.ALL!["bertscore-precision"]).toBeCloseTo(at(perPair(0.01), all), 12);
    expect(metrics.bertscore!.ALL!["bertscore-recall"]).toBeCloseTo(at(perPair(0.02), all), 12);
    expect(metrics.bleurt!.ALL!.bleurt).toBeCloseTo(at(bleurt, all), 12);
    for (const division of DIVISIONS) {
      const indexes = divisionIndexes(division, encounters.length);
      expect(metrics.bertscore![`division-${division}`]!["bertscore-f1"]).toBeCloseTo(at(f1, indexes), 12);
      expect(metrics.bleurt![`division-${division}`]!.bleurt).toBeCloseTo(at(bleurt, indexes), 12);
    }
    for (const name of ["virtassist", "virtscribe", "aci"]) {
      const indexes = all.filter((index) => encounters[index]!.metadata.dataset === name);
      expect(metrics.bertscore![`dataset-${name}`]!["bertscore-f1"]).toBeCloseTo(at(f1, indexes), 12);
    }
    // The same cohorts as the ROUGE figures, in the same order.
    const rouge = scoreAciBench(dataset, "test2", encounters, predictions).rouge;
    expect(Object.keys(metrics.bertscore!)).toEqual(Object.keys(rouge));
    expect(Object.keys(metrics.bleurt!)).toEqual(Object.keys(rouge));

    const calls = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as string[]);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.slice(1).join(" ")).toBe(
      "bertscore --model-type microsoft/deberta-xlarge-mnli --num-layers 40 --batch-size 64 --calls one",
    );
    expect(calls[1]!.slice(1).join(" ")).toBe("bleurt --checkpoint BLEURT-20");
    expect(metrics.model_metrics.bertscore).toMatchObject({
      status: "reference",
      settings: "microsoft/deberta-xlarge-mnli_L40_no-idf",
      identity: "microsoft/deberta-xlarge-mnli_L40_no-idf_version=0.3.12(hug_trans=4.41.2)",
    });
    expect(metrics.model_metrics.bleurt).toMatchObject({ status: "reference", identity: "BLEURT-20" });
    expect(metrics.medcon).toBeNull();
    expect(metrics.unavailable).toBe(MEDCON_UNAVAILABLE);
  });

  it("scores MEDCON through the user's QuickUMLS over the same pairs and cohorts", async () => {
    const installation = {
      python,
      quickumls: join(root, "quickumls-index"),
      semanticGroups: join(root, "SemGroups.txt"),
    };
    const metrics = await aciModelMetrics(notes, { medcon: installation });
    const references = encounters.map((encounter) => encounter.target);
    const full = predictions.map((note, index) => standInScore(note, references[index]!, 0.4));
    expect(metrics.medcon!.ALL!.umls).toBeCloseTo(mean(full), 12);
    const rouge = scoreAciBench(dataset, "test2", encounters, predictions).rouge;
    expect(Object.keys(metrics.medcon!)).toEqual(Object.keys(rouge));
    const calls = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as string[]);
    expect(calls.at(-1)!.slice(1)).toEqual([
      "medcon",
      "--quickumls",
      installation.quickumls,
      "--semantic-groups",
      installation.semanticGroups,
    ]);
    expect(metrics.model_metrics.medcon).toMatchObject({ status: "reference", versions: { quickumls: "1.4.0" } });
    expect(metrics.bertscore).toBeNull();
  });

  it("leaves BERTScore, BLEURT and MEDCON null with their reasons when no source is given", () => {
    const metrics = aciModelMetricsNotAsked();
    expect([metrics.bertscore, metrics.bleurt, metrics.medcon]).toEqual([null, null, null]);
    expect(metrics.unavailable).toMatch(/^BERTScore \(microsoft\/deberta-xlarge-mnli_L40_no-idf\) needs the model/);
    expect(metrics.unavailable).toMatch(/BLEURT \(BLEURT-20\) needs the checkpoint/);
    expect(metrics.unavailable).toMatch(/MEDCON .* QuickUMLS/);
  });

  it("fails in one line when the reference is missing", async () => {
    const missing = writeStandInPython(root, { mode: "missing", name: "python-missing" });
    await expect(
      aciModelMetrics(notes.slice(0, 2), { bertscore: { kind: "python", python: missing } }),
    ).rejects.toThrow(
      /^BERTScore \(reference\): bert-score is not installed .*; install it with pip install bert-score$/,
    );
  });
});

/** Notes written for the tiny vocabulary, with their divisions as the tagger must cut them, by hand. */
const lf = (text: string) => text.replaceAll("\n", "__lf1__");
const HANDWRITTEN = [
  {
    reference:
      "CHIEF COMPLAINT\n\nChest pain.\n\nPHYSICAL EXAM\n\nBlood pressure normal.\n\nASSESSMENT AND PLAN\n\nMild chest pain, follow up in two weeks.",
    referenceDivisions: {
      subjective: lf("CHIEF COMPLAINT\n\nChest pain.\n\n"),
      objective_exam: lf("PHYSICAL EXAM\n\nBlood pressure normal.\n\n"),
      assessment_and_plan: lf("ASSESSMENT AND PLAN\n\nMild chest pain, follow up in two weeks."),
    },
    prediction:
      "CHIEF COMPLAINT\n\nThe patient reports chest pain since two days.\n\nASSESSMENT AND PLAN\n\nPlan: ibuprofen 400 mg daily.",
    predictionDivisions: {
      subjective: lf("CHIEF COMPLAINT\n\nThe patient reports chest pain since two days.\n\n"),
      assessment_and_plan: lf("ASSESSMENT AND PLAN\n\nPlan: ibuprofen 400 mg daily."),
    },
    dataset: "virtassist",
  },
  {
    reference:
      "HISTORY OF PRESENT ILLNESS\n\nShe has had a cough and fever for three days.\n\nRESULTS\n\nBlood normal.\n\nASSESSMENT AND PLAN\n\nFollow up.",
    referenceDivisions: {
      subjective: lf("HISTORY OF PRESENT ILLNESS\n\nShe has had a cough and fever for three days.\n\n"),
      objective_results: lf("RESULTS\n\nBlood normal.\n\n"),
      assessment_and_plan: lf("ASSESSMENT AND PLAN\n\nFollow up."),
    },
    prediction: "She has a cough, no fever.\n\nPHYSICAL EXAM\n\nExam normal.",
    predictionDivisions: {
      subjective: lf("She has a cough, no fever.\n\n"),
      objective_exam: lf("PHYSICAL EXAM\n\nExam normal."),
    },
    dataset: "aci",
  },
  {
    reference: "CHIEF COMPLAINT\n\nKnee pain.\n\nASSESSMENT AND PLAN\n\nRight knee pain, taken ibuprofen.",
    referenceDivisions: {
      subjective: lf("CHIEF COMPLAINT\n\nKnee pain.\n\n"),
      assessment_and_plan: lf("ASSESSMENT AND PLAN\n\nRight knee pain, taken ibuprofen."),
    },
    prediction: "Knee pain, left.",
    predictionDivisions: { subjective: "Knee pain, left." },
    dataset: "virtassist",
  },
];

describe("ACI-Bench BERTScore natively on a tiny random 40-layer encoder", () => {
  const root = tempDirForFile();
  let model: TinyEncoder;
  beforeAll(() => {
    model = writeTinyEncoder(join(root, "tiny-40"), { layers: 40, maxPositions: 64, seed: 23 });
  });

  it("matches the independent forward pass and greedy matching over the 5 x N pairs, averaged per cohort", async () => {
    const notes: AciScoringNote[] = HANDWRITTEN.map((note) => ({
      reference: note.reference,
      prediction: note.prediction,
      dialogue: "doctor: hello. patient: hello.",
      metadata: { dataset: note.dataset },
    }));
    const metrics = await aciModelMetrics(notes, { bertscore: { kind: "native", dir: model.dir } });
    const pairs = scriptPairs(
      HANDWRITTEN.map((note) => note.reference),
      HANDWRITTEN.map((note) => note.prediction),
      HANDWRITTEN.map((note) => new Map(Object.entries(note.referenceDivisions))),
      HANDWRITTEN.map((note) => new Map(Object.entries(note.predictionDivisions))),
    );
    // objective_results: one reference has it, so the others are #####EMPTY#####; no prediction has it: "".
    expect(pairs.references.slice(9, 12)).toEqual([
      "#####EMPTY#####",
      lf("RESULTS\n\nBlood normal.\n\n"),
      "#####EMPTY#####",
    ]);
    expect(pairs.predictions.slice(9, 12)).toEqual(["", "", ""]);
    const wanted = independentBertScore(model, pairs.predictions, pairs.references, ACI_BENCH_BERTSCORE);
    const at = (key: "precision" | "recall" | "f1", indexes: readonly number[]) =>
      mean(indexes.map((index) => wanted[index]![key]));
    const cohorts: Record<string, number[]> = {
      ALL: [0, 1, 2],
      "dataset-virtassist": [0, 2],
      "dataset-aci": [1],
      ...Object.fromEntries(DIVISIONS.map((division) => [`division-${division}`, divisionIndexes(division, 3)])),
      "shorter-src": [0, 1, 2],
    };
    expect(Object.keys(metrics.bertscore!)).toEqual(Object.keys(cohorts));
    for (const [cohort, indexes] of Object.entries(cohorts)) {
      const figures = metrics.bertscore![cohort]!;
      expect(Math.abs(figures["bertscore-precision"] - at("precision", indexes))).toBeLessThan(1e-6);
      expect(Math.abs(figures["bertscore-recall"] - at("recall", indexes))).toBeLessThan(1e-6);
      expect(Math.abs(figures["bertscore-f1"] - at("f1", indexes))).toBeLessThan(1e-6);
    }
    expect(metrics.model_metrics.bertscore).toMatchObject({
      status: "native",
      settings: "microsoft/deberta-xlarge-mnli_L40_no-idf",
      comparison: null,
    });
    expect(metrics.bleurt).toBeNull();
  });
});
