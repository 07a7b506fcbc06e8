import { describe, expect, it } from "vitest";
import { updateMedicines } from "../../src/language/medicines.ts";

/** The record of the medicines a patient named, turn by turn (`src/language/medicines.ts`). */

describe("updateMedicines", () => {
  it("adds each medicine named once, in the order named", () => {
    const first = updateMedicines([], [{ name: "ramipril", dose: "5mg", frequency: null }]);
    const second = updateMedicines(first, [
      { name: "atorvastatin", dose: null, frequency: "at night" },
      { name: "ramipril", dose: null, frequency: "in the morning" },
    ]);
    expect(second).toEqual([
      { name: "ramipril", dose: "5mg", frequency: "in the morning" },
      { name: "atorvastatin", dose: null, frequency: "at night" },
    ]);
  });

  it("gives a dose said alone to the medicine last named", () => {
    const known = updateMedicines(
      [],
      [
        { name: "paracetamol", dose: null, frequency: null },
        { name: "ibuprofen", dose: null, frequency: null },
      ],
    );
    expect(updateMedicines(known, [{ name: null, dose: "400mg", frequency: "twice a day" }])).toEqual([
      { name: "paracetamol", dose: null, frequency: null },
      { name: "ibuprofen", dose: "400mg", frequency: "twice a day" },
    ]);
  });

  it("negative controls: a dose alone with no medicine named yet is dropped; no mentions keep the record", () => {
    expect(updateMedicines([], [{ name: null, dose: "two a day", frequency: null }])).toEqual([]);
    const known = [{ name: "warfarin", dose: "3mg", frequency: "daily" }];
    expect(updateMedicines(known, undefined)).toEqual(known);
    expect(updateMedicines(known, [{ name: "warfarin", dose: null, frequency: null }])).toEqual(known);
  });
});
