import { describe, expect, it } from "vitest";
import { unrollActions } from "../../src/cmas/scoring-tuples.ts";
import { precisionAtK } from "../../src/metrics/precision-at-k.ts";

const ask = (value: string) => unrollActions([{ action: "inquire", symptom: [{ value }] }]);
const gold = [ask("a"), ask("b"), ask("c"), ask("d")];

describe("precisionAtK (official compute_precision_k)", () => {
  it("is 1 at every K when predictions equal gold", () => {
    const result = precisionAtK([
      { gold, predictions: gold.map((prediction, position) => ({ position, prediction })) },
    ]);
    expect(Object.values(result)).toEqual([1, 1, 1, 1, 1, 1, 1]);
  });

  it("counts a hit only within the window [t, t+K) and only on exact set equality", () => {
    const predictions = [
      { position: 0, prediction: ask("b") }, // next turn: hit from K=2
      { position: 1, prediction: ask("d") }, // two turns later: hit from K=3, so K=4
      { position: 2, prediction: ask("a") }, // a past turn: never
      { position: 3, prediction: unrollActions([{ action: "inquire", symptom: [{ value: "d" }, { value: "e" }] }]) }, // superset: never
    ];
    const result = precisionAtK([{ gold, predictions }], [1, 2, 3, 4, Infinity]);
    expect(result).toEqual({ "1": 0, "2": 0.25, "3": 0.5, "4": 0.5, inf: 0.5 });
  });

  it("treats an invalid prediction as the empty set and pools turns over dialogues", () => {
    const empty = unrollActions([]);
    const result = precisionAtK(
      [
        { gold: [empty, ask("x")], predictions: [{ position: 0, prediction: null }] },
        { gold: [ask("y")], predictions: [{ position: 0, prediction: ask("z") }] },
      ],
      [1],
    );
    expect(result).toEqual({ "1": 0.5 });
  });
});
