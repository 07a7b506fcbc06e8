import { beforeAll, describe, expect, it } from "vitest";
import { embeddedNlu, lastTurn, mergedSlots } from "./nlu-harness.ts";

/**
 * A carer speaking for an elderly man, typed as people type (found trying the chat; none from a
 * MediTOD dialogue): "Im his carer, Mr Jones is 84 and hes been more confused than usual" was read as
 * the patient speaking (the apostrophe-less "Im" missed), with no age; his drowsiness and dementia
 * were lost; and "he has dementia and diabetes, and he had a stroke a few years ago" dated all three
 * conditions to a few years ago. Each reading beside a negative control.
 */

beforeAll(() => {
  embeddedNlu();
});

const slots = mergedSlots;
const OPENING = "What brings you in today?";

describe("a carer speaking for an elderly man", () => {
  it("'Im his carer, Mr Jones is 84 and hes been more confused' is a carer's account of an 84-year-old man", async () => {
    const reading = await lastTurn(
      OPENING,
      "Im his carer, Mr Jones is 84 and hes been more confused than usual since yesterday",
    );
    expect(reading.informant).toEqual({ relation: "carer", patientAge: "84 years", patientSex: "male" });
    expect(slots(reading.frames).positive_symptom).toEqual([expect.objectContaining({ value: "confusion" })]);
  });

  it("negative control: 'I'm 84 and I've been more confused' is the patient speaking", async () => {
    const reading = await lastTurn(OPENING, "Im 84 and Ive been more confused than usual since yesterday");
    expect(reading.informant ?? null).toBeNull();
  });

  it("'hes a bit drowsy' is drowsiness and 'he has dementia' a past history of dementia; negative control: 'he isn't drowsy' denies it", async () => {
    expect(slots((await lastTurn(OPENING, "Im his carer. hes a bit drowsy and he has dementia")).frames)).toMatchObject(
      {
        positive_symptom: [{ value: "drowsiness" }],
        positive_medical_history: [{ value: "dementia" }],
      },
    );
    expect(slots((await lastTurn("Is he drowsy?", "no he isnt drowsy")).frames)).toMatchObject({
      negative_symptom: [{ value: "drowsiness" }],
    });
  });
});

describe("when each past condition began", () => {
  it("'he has dementia and diabetes, and he had a stroke a few years ago' dates the stroke alone", async () => {
    expect(
      slots(
        (await lastTurn("Any medical conditions?", "he has dementia and diabetes, and he had a stroke a few years ago"))
          .frames,
      ),
    ).toEqual({
      positive_medical_history: [
        { value: "dementia" },
        { value: "diabetes mellitus" },
        { value: "cerebrovascular accident", starting: "few years ago" },
      ],
    });
  });

  it("negative control: 'diabetes and high blood pressure about 5 years ago', one clause, dates both", async () => {
    expect(
      slots(
        (
          await lastTurn(
            "Any medical conditions?",
            "I was diagnosed with diabetes and high blood pressure about 5 years ago",
          )
        ).frames,
      ),
    ).toEqual({
      positive_medical_history: [
        { value: "diabetes mellitus", starting: "5 years ago" },
        { value: "hypertensive disease", starting: "5 years ago" },
      ],
    });
  });
});
