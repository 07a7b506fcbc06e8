import { describe, expect, it } from "vitest";
import { scoreCmas, type TurnToScore } from "../../src/metrics/cmas-f1.ts";
import type { AttributeJudge } from "../../src/metrics/attribute-judge.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import { nluExamples, policyExamples } from "../../src/data/meditod-views.ts";

const dataset = loadMeditod();
const goldCough = [
  {
    intent: "inform",
    slots: {
      positive_symptom: [{ value: "coughing", onset: "two days ago", location: ["chest"] }],
      negative_habit: [{ value: "smoking" }],
    },
  },
];

describe("scoreCmas on NLU", () => {
  it("gives F1 = 1 and joint accuracy = share of unskipped turns for gold predictions on every split", async () => {
    for (const split of ["train", "valid", "test"] as const) {
      const examples = nluExamples(dataset, split);
      const scores = await scoreCmas(
        "nlu",
        examples.map((example) => ({ gold: example.gold, prediction: example.gold })),
      );
      expect(scores.overall).toEqual({ precision: 1, recall: 1, f1: 1 });
      expect(scores.medical.f1).toBe(1);
      expect(scores.non_medical.f1).toBe(1);
      const unskipped = examples.filter(
        (example) =>
          !(
            example.gold.length === 1 &&
            example.gold[0]!.intent === "inform" &&
            Object.keys(example.gold[0]!.slots ?? {}).length === 0
          ),
      );
      expect(scores.joint_accuracy).toBe(unskipped.length / examples.length);
      expect(scores.format_errors).toBe(0);
    }
  });

  it("gives zeros for empty predictions", async () => {
    const examples = nluExamples(dataset, "test");
    const scores = await scoreCmas(
      "nlu",
      examples.map((example) => ({ gold: example.gold, prediction: [] })),
    );
    expect(scores.overall).toEqual({ precision: 0, recall: 0, f1: 0 });
    expect(scores.joint_accuracy).toBe(0);
    expect(scores.format_errors).toBe(0);
  });

  it("scores malformed predictions as empty format errors, never throwing", async () => {
    const turns: TurnToScore[] = [
      { gold: goldCough, prediction: "{not json" },
      { gold: goldCough, prediction: [{ intent: "inform", slots: { symptom: [{ value: "coughing" }] } }] },
      { gold: goldCough, prediction: null },
      { gold: goldCough, prediction: goldCough },
    ];
    const scores = await scoreCmas("nlu", turns);
    expect(scores.format_errors).toBe(3 / 4);
    expect(scores.overall.precision).toBe(1);
    expect(scores.overall.recall).toBe(1 / 4);
    expect(scores.joint_accuracy).toBe(1 / 4);
  });

  it("matches a hand computation on a perturbed prediction", async () => {
    // gold medical: (coughing), (coughing location chest), (smoking) — non-medical: (coughing onset two days ago)
    // predicted: coughing with a wrong onset and location chest, plus fever; smoking missing.
    const prediction = [
      {
        intent: "inform",
        slots: {
          positive_symptom: [{ value: "coughing", onset: "yesterday", location: ["chest"] }, { value: "fever" }],
        },
      },
    ];
    const scores = await scoreCmas("nlu", [{ gold: goldCough, prediction }]);
    // medical TP 2 (coughing, location), FP 1 (fever), FN 1 (smoking)
    expect(scores.medical).toEqual({ precision: 2 / 3, recall: 2 / 3, f1: (2 * (2 / 3) * (2 / 3)) / (4 / 3) });
    // non-medical TP 0, FP 1, FN 1
    expect(scores.non_medical).toEqual({ precision: 0, recall: 0, f1: 0 });
    // overall TP 2, FP 2, FN 2
    expect(scores.overall.precision).toBe(0.5);
    expect(scores.overall.recall).toBe(0.5);
    expect(scores.joint_accuracy).toBe(0);
  });

  it("skips bare-inform gold turns from P/R/F1 but divides joint accuracy by all turns", async () => {
    const scores = await scoreCmas("nlu", [
      { gold: [{ intent: "inform" }], prediction: goldCough },
      { gold: goldCough, prediction: goldCough },
    ]);
    expect(scores.samples).toBe(2);
    expect(scores.overall.precision).toBe(1);
    expect(scores.joint_accuracy).toBe(0.5);
  });

  it("matches non-medical attributes greedily with a judge, longest items first", async () => {
    const verdicts = new Map([
      ["two days ago|2 days back", true],
      ["two days ago|since tuesday", true],
    ]);
    const asked: string[] = [];
    const judge: AttributeJudge = {
      id: "scripted",
      async equivalent(pairs) {
        asked.push(...pairs.map((pair) => `${pair.gold}|${pair.predicted}`));
        return pairs.map((pair) => verdicts.get(`${pair.gold}|${pair.predicted}`) ?? false);
      },
    };
    const gold = [
      {
        intent: "inform",
        slots: {
          positive_symptom: [
            { value: "coughing", onset: "two days ago", positive_characteristics: ["dry", "barking"] },
          ],
        },
      },
    ];
    const prediction = [
      {
        intent: "inform",
        slots: {
          positive_symptom: [
            { value: "coughing", onset: "since tuesday", positive_characteristics: ["barking", "wet"] },
          ],
        },
      },
    ];
    const scores = await scoreCmas("nlu", [{ gold, prediction }], judge);
    // onset: 1 TP via the judge. characteristics: "barking" equal? The judge said no (not scripted), so
    // gold [barking, dry] vs predicted [barking, wet]: 0 TP, 2 FN, 2 FP.
    expect(scores.non_medical.precision).toBe(1 / 3);
    expect(scores.non_medical.recall).toBe(1 / 3);
    expect(asked).toContain("two days ago|since tuesday");
    expect(scores.medical.f1).toBe(1);
  });
});

describe("scoreCmas on policy", () => {
  it("gives F1 = 1 for gold actions on the test split", async () => {
    const examples = policyExamples(dataset, "test");
    const scores = await scoreCmas(
      "pol",
      examples.map((example) => ({ gold: example.gold, prediction: example.gold })),
    );
    expect(scores.overall.f1).toBe(1);
    expect(scores.samples).toBe(74);
  });
});
