import { describe, expect, it } from "vitest";
import { closingFit, namesExpected, normalisedName } from "../../src/simulator/closing-fit.ts";

const reflux = {
  diagnosis: "gastroesophageal reflux disease",
  alsoAccepted: ["gastro-oesophageal reflux disease", "GORD"],
  why: "heartburn after meals",
};
const none = { diagnosis: null, alsoAccepted: [], why: "nothing leads" };

describe("closing fit", () => {
  it("credits the expected diagnosis under any of its names, case and punctuation aside", () => {
    expect(normalisedName("Gastro-Oesophageal  reflux disease.")).toBe("gastro oesophageal reflux disease");
    expect(namesExpected("GASTRO-OESOPHAGEAL REFLUX DISEASE", reflux)).toBe(true);
    expect(namesExpected("gord", reflux)).toBe(true);
    expect(namesExpected("gastroesophageal reflux", reflux)).toBe(false);
    expect(closingFit(reflux, "gastroesophageal reflux disease", true)).toBe("right diagnosis");
  });

  it("credits no diagnosis only where the case says none is supportable", () => {
    expect(closingFit(none, null, true)).toBe("honest none");
    expect(closingFit(reflux, null, true)).toBe("missed diagnosis");
  });

  it("counts a diagnosis other than the expected one as wrong, and any diagnosis where none is supportable as unsupported", () => {
    expect(closingFit(reflux, "peptic ulcer", true)).toBe("wrong diagnosis");
    expect(closingFit(none, "gastroesophageal reflux disease", true)).toBe("unsupported diagnosis");
    expect(namesExpected("anything", none)).toBe(false);
  });

  it("gives no fit to a history that never closed", () => {
    expect(closingFit(reflux, "gastroesophageal reflux disease", false)).toBe("no closing");
    expect(closingFit(none, null, false)).toBe("no closing");
  });
});
