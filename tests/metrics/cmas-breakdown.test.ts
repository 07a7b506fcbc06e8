import { describe, expect, it } from "vitest";
import { ontology } from "../../src/cmas/ontology.ts";
import { byCodeUnits, cmasBreakdown } from "../../src/metrics/cmas-breakdown.ts";
import { unrollPrediction, unrollTurns } from "../../src/metrics/cmas-f1.ts";

/** Every row name a breakdown can have: the ontology's slot, attribute and check-type names, and the fixed ones. */
function rowNames(): string[] {
  const names = new Set(["(intent only)", "(intent)", "value"]);
  for (const slot of ontology.slots) {
    names.add(slot.name);
    for (const attribute of slot.attributes) names.add(attribute.name);
    for (const type of slot.check_types ?? []) names.add(type.name);
  }
  return [...names];
}

describe("the breakdown's row order", () => {
  it("is localeCompare's order for every name the ontology can give", () => {
    const names = rowNames();
    expect(names.length).toBeGreaterThan(50);
    const shuffled = [...names].reverse();
    expect([...shuffled].sort(byCodeUnits)).toEqual([...shuffled].sort((a, b) => a.localeCompare(b)));
  });

  it("lists the slots of a scored turn in that order", () => {
    const turns = unrollTurns("nlu", [
      {
        gold: [{ intent: "inform", slots: { positive_symptom: [{ value: "coughing", onset: "a week ago" }] } }],
        prediction: [{ intent: "inform", slots: { positive_symptom: [{ value: "coughing", severity: "5" }] } }],
      },
    ]);
    const { byAttribute } = cmasBreakdown("nlu", turns);
    expect(Object.keys(byAttribute)).toEqual([...Object.keys(byAttribute)].sort((a, b) => a.localeCompare(b)));
  });
});

describe("unrolled predictions are kept by their JSON text", () => {
  it("reads a changed prediction anew, and an unchanged one the same", () => {
    const prediction: Array<Record<string, unknown>> = [
      { intent: "inform", slots: { positive_symptom: [{ value: "fever" }] } },
    ];
    const first = unrollPrediction("nlu", prediction);
    expect([...first.tuples!.medical]).toHaveLength(1);
    expect(unrollPrediction("nlu", structuredClone(prediction))).toBe(first);
    prediction[0]!.intent = "not an intent";
    const changed = unrollPrediction("nlu", prediction);
    expect(changed.tuples).toBeNull();
    expect(changed.formatError).toBeDefined();
  });
});
