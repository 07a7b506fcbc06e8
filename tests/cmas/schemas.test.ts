import { describe, expect, it } from "vitest";
import { describeIssues, dialogueStateSchema, doctorActionsSchema, nluFramesSchema } from "../../src/cmas/schemas.ts";
import { prefixedSlotNames, splitPrefixedSlot } from "../../src/cmas/ontology.ts";
import { loadMeditod } from "../../src/data/meditod.ts";

describe("CMAS zod schemas built from the ontology", () => {
  it("accept every annotation of the bundled sample", () => {
    for (const dialogue of loadMeditod().dialogues.values()) {
      for (const utterance of dialogue.utterances) {
        if (utterance.speaker === "patient") {
          expect(nluFramesSchema.safeParse(utterance.nlu).success).toBe(true);
          expect(dialogueStateSchema.safeParse(utterance.dialog_state).success).toBe(true);
        } else {
          expect(doctorActionsSchema.safeParse(utterance.actions).success).toBe(true);
        }
      }
    }
  });

  it("reject unprefixed NLU slots, unknown attributes and intents with paths", () => {
    const unprefixed = nluFramesSchema.safeParse([{ intent: "inform", slots: { symptom: [{ value: "cough" }] } }]);
    expect(unprefixed.success).toBe(false);
    expect(describeIssues(unprefixed.error!)).toContain('0.slots: Unrecognized key: "symptom"');

    const attribute = nluFramesSchema.safeParse([
      { intent: "inform", slots: { positive_habit: [{ value: "smoking", location: ["lung"] }] } },
    ]);
    expect(describeIssues(attribute.error!)).toContain("0.slots.positive_habit.0");

    const intent = nluFramesSchema.safeParse([{ intent: "inquire" }]);
    expect(describeIssues(intent.error!)).toContain("0.intent");
  });

  it("keep the data's spelling respone_to and accept a bare string for a list attribute", () => {
    const parsed = nluFramesSchema.parse([
      {
        intent: "inform",
        slots: {
          positive_medication: [{ value: "ventolin", respone_to: "asthma" }],
          positive_symptom: [{ value: "pain", location: "chest" }],
        },
      },
    ]);
    expect(parsed[0]!.slots!.positive_symptom![0]!.location).toEqual(["chest"]);
    expect(
      nluFramesSchema.safeParse([
        { intent: "inform", slots: { positive_medication: [{ value: "x", response_to: "y" }] } },
      ]).success,
    ).toBe(false);
  });

  it("validate action check types per slot", () => {
    expect(
      doctorActionsSchema.safeParse([
        { action: "inquire", symptom: [{ value: "pain", checks: [{ type: "ana_factors" }] }] },
      ]).success,
    ).toBe(true);
    const bad = doctorActionsSchema.safeParse([
      { action: "inquire", habit: [{ value: "smoking", checks: [{ type: "location" }] }] },
    ]);
    expect(describeIssues(bad.error!)).toContain("0.habit.0.checks.0.type");
    expect(doctorActionsSchema.safeParse([{ action: "diagnosis", disease: [{ value: "asthma" }] }]).success).toBe(true);
    expect(doctorActionsSchema.safeParse([{ action: "prescribe" }]).success).toBe(false);
  });

  it("name every status-prefixed slot and split them back", () => {
    expect(prefixedSlotNames).toContain("unknown_medication");
    expect(prefixedSlotNames).toContain("unavail_medical_test");
    expect(prefixedSlotNames).not.toContain("positive_medical_test");
    expect(splitPrefixedSlot("negative_family_history")).toMatchObject({
      status: "negative",
      slot: { name: "family_history" },
    });
    expect(splitPrefixedSlot("travel")).toMatchObject({ status: null, slot: { name: "travel" } });
    expect(splitPrefixedSlot("symptom")).toBeUndefined();
    expect(splitPrefixedSlot("positive_disease")).toBeUndefined();
  });
});
