import { describe, expect, it } from "vitest";
import { packYears } from "../../src/clinical/pack-years.ts";

/** Pack-years as clinicians count them (packs of 20 a day × years smoked), hand-written with negative controls. */
describe("pack-years", () => {
  it("counts a smoker's amount and years", () => {
    expect(packYears({ value: "former smoker", frequency: "20 a day for 30 years" })).toBe(30);
    expect(packYears({ value: "smoking", frequency: "10 a day", starting: "20 years ago" })).toBe(10);
    expect(packYears({ value: "smoking", frequency: "a pack a day", starting: "15 years ago" })).toBe(15);
    expect(packYears({ value: "smoking", frequency: "half a pack a day", starting: "twenty years ago" })).toBe(10);
    expect(packYears({ value: "former smoker", frequency: "2 packs a day for 12 years" })).toBe(24);
    expect(packYears({ value: "smoking", frequency: "15 cigarettes a day", starting: "3 years ago" })).toBe(2.3);
  });

  it("makes up no figure the patient did not give", () => {
    // The years missing or vague, the amount vague, a start given as an age, another habit.
    expect(packYears({ value: "smoking", frequency: "20 a day" })).toBeNull();
    expect(packYears({ value: "smoking", frequency: "a few a day", starting: "10 years ago" })).toBeNull();
    expect(packYears({ value: "smoking", frequency: "10 a day", starting: "since 18" })).toBeNull();
    expect(packYears({ value: "alcohol abuse", frequency: "4 a day", starting: "10 years ago" })).toBeNull();
    // A former smoker's start is not how long they smoked (they may have stopped long ago).
    expect(packYears({ value: "former smoker", frequency: "20 a day", starting: "30 years ago" })).toBeNull();
    // Said as pack-years: the note shows the patient's figure, not one of its own.
    expect(packYears({ value: "smoking", frequency: "30 pack-years" })).toBeNull();
  });
});
