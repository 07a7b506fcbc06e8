import { describe, expect, it } from "vitest";
import { fromPaperFrames, normaliseActions, paperNluOutputSchema, toPaperFrames } from "../../src/cmas/paper-format.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import { nluFramesSchema } from "../../src/cmas/schemas.ts";

describe("paper format ↔ data format (official format_nlu / deformat_nlu)", () => {
  it("round-trips every NLU annotation of the sample", () => {
    let frames = 0;
    for (const dialogue of loadMeditod().dialogues.values()) {
      for (const utterance of dialogue.utterances) {
        if (utterance.speaker !== "patient") continue;
        const paper = toPaperFrames(utterance.nlu);
        expect(paperNluOutputSchema.safeParse({ frames: paper }).success).toBe(true);
        const back = fromPaperFrames(paper);
        expect(nluFramesSchema.parse(back)).toEqual(JSON.parse(JSON.stringify(utterance.nlu).toLowerCase()));
        frames += paper.length;
      }
    }
    expect(frames).toBe(178);
  });

  it("moves status into the slot name, keeps social status as an attribute, and lower-cases values", () => {
    expect(
      fromPaperFrames([
        {
          intent: "inform",
          slots: {
            symptom: [{ value: "Coughing", status: "negative", location: ["Chest"] }],
            medical_test: [{ value: "chest X-ray", status: "avail" }],
            travel: [{ status: "traveled", destination: "Mexico" }],
          },
        },
      ]),
    ).toEqual([
      {
        intent: "inform",
        slots: {
          negative_symptom: [{ value: "coughing", location: ["chest"] }],
          avail_medical_test: [{ value: "chest x-ray" }],
          travel: [{ destination: "mexico", status: "traveled" }],
        },
      },
    ]);
    expect(
      paperNluOutputSchema.safeParse({
        frames: [{ intent: "inform", slots: { symptom: [{ value: "x", status: "maybe" }] } }],
      }).success,
    ).toBe(false);
  });

  it("lower-cases action values and check values but not check types", () => {
    expect(
      normaliseActions([
        { action: "inquire", symptom: [{ value: "Dyspnea", checks: [{ type: "onset", values: ["Last Week"] }] }] },
      ]),
    ).toEqual([
      { action: "inquire", symptom: [{ value: "dyspnea", checks: [{ type: "onset", values: ["last week"] }] }] },
    ]);
  });
});
