import { describe, expect, it } from "vitest";
import { tupleParts, unrollActions, unrollFrames } from "../../src/cmas/scoring-tuples.ts";

/** Tuples as an order-free set of arrays, for comparison with hand-written expectations. */
const sorted = (tuples: Set<string>) => new Set([...tuples].map(tupleParts));

describe("unrollFrames (official nlu_metrics.py process_single_entry)", () => {
  it("splits medical and non-medical as the official code does for dialogue 115 turn 1", () => {
    const { medical, nonMedical } = unrollFrames([
      {
        intent: "inform",
        slots: {
          positive_symptom: [
            { value: "coughing", onset: "few months ago", progression: "gradually getting worse over time" },
            { value: "dyspnea", onset: "few months ago" },
          ],
        },
      },
    ]);
    expect(sorted(medical)).toEqual(
      new Set([
        ["inform", "positive_symptom", "coughing"],
        ["inform", "positive_symptom", "coughing", "progression", "gradually getting worse over time"],
        ["inform", "positive_symptom", "dyspnea"],
      ]),
    );
    expect(sorted(nonMedical)).toEqual(
      new Set([
        ["inform", "positive_symptom", "coughing", "onset", "few months ago"],
        ["inform", "positive_symptom", "dyspnea", "onset", "few months ago"],
      ]),
    );
  });

  it("unrolls lists per element, uses 'dummy' for a missing value, and scores a bare intent as medical", () => {
    const { medical, nonMedical } = unrollFrames([
      { intent: "chit-chat" },
      { intent: "inform", slots: { negative_symptom: [{ location: ["chest", "arm"], onset: "today" }] } },
    ]);
    expect(sorted(medical)).toEqual(
      new Set([
        ["chit-chat"],
        ["inform", "negative_symptom", "dummy", "location", "arm"],
        ["inform", "negative_symptom", "dummy", "location", "chest"],
      ]),
    );
    expect(sorted(nonMedical)).toEqual(new Set([["inform", "negative_symptom", "dummy", "onset", "today"]]));
  });

  it("treats status of social slots and every basic_information attribute as medical", () => {
    const { medical, nonMedical } = unrollFrames([
      {
        intent: "inform",
        slots: { residence: [{ value: "apartment", status: "living" }], basic_information: [{ age: "60" }] },
      },
    ]);
    expect(sorted(medical)).toEqual(
      new Set([
        ["inform", "basic_information", "age", "60"],
        ["inform", "residence", "status", "living"],
      ]),
    );
    expect(sorted(nonMedical)).toEqual(new Set([["inform", "residence", "value", "apartment"]]));
  });

  it("counts medication respone_to and impact as medical, frequency as not", () => {
    const { medical, nonMedical } = unrollFrames([
      {
        intent: "inform",
        slots: {
          positive_medication: [{ value: "salbutamol", respone_to: "asthma", impact: "yes", frequency: "daily" }],
        },
      },
    ]);
    expect(medical.size).toBe(3);
    expect(sorted(nonMedical)).toEqual(
      new Set([["inform", "positive_medication", "salbutamol", "frequency", "daily"]]),
    );
  });
});

describe("unrollActions (official pol_metrics.py process_single_entry)", () => {
  it("makes check types medical and check values medical only for medical attributes", () => {
    const { medical, nonMedical } = unrollActions([
      {
        action: "inquire",
        symptom: [
          {
            value: "coughing",
            checks: [
              { type: "characteristics", values: ["dry or wet"] },
              { type: "location", values: ["chest"] },
            ],
          },
        ],
      },
    ]);
    expect(sorted(medical)).toEqual(
      new Set([
        ["inquire", "symptom", "coughing"],
        ["inquire", "symptom", "coughing", "characteristics"],
        ["inquire", "symptom", "coughing", "location"],
        ["inquire", "symptom", "coughing", "location", "chest"],
      ]),
    );
    expect(sorted(nonMedical)).toEqual(new Set([["inquire", "symptom", "coughing", "characteristics", "dry or wet"]]));
  });

  it("scores social values as non-medical, their check types as medical, and ignores basic_information checks", () => {
    const { medical, nonMedical } = unrollActions([
      {
        action: "inquire",
        travel: [
          {
            value: "abroad",
            checks: [
              { type: "status", values: ["traveled"] },
              { type: "destination", values: ["mexico"] },
            ],
          },
        ],
      },
      { action: "inquire", basic_information: [{ value: "age", checks: [{ type: "age" }] }] },
      { action: "nod_prompt_salutations" },
    ]);
    expect(sorted(medical)).toEqual(
      new Set([
        ["inquire", "travel", "destination"],
        ["inquire", "travel", "status"],
        ["inquire", "travel", "status", "traveled"],
        ["nod_prompt_salutations"],
      ]),
    );
    expect(sorted(nonMedical)).toEqual(
      new Set([
        ["inquire", "basic_information", "age"],
        ["inquire", "travel", "abroad"],
        ["inquire", "travel", "destination", "mexico"],
      ]),
    );
  });
});
