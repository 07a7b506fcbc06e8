import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUNDLED_ACI_BENCH_DIR } from "../../src/data/aci-bench.ts";
import { parseCsvObjects } from "../../src/data/csv.ts";
import {
  divideNote,
  divisionColumn,
  headerDivision,
  MISSING_DIVISION,
  noteDivisions,
} from "../../src/metrics/aci-bench-sections.ts";
import { tokenizeRouge } from "../../src/metrics/tokenize-rouge.ts";

/**
 * `tests/fixtures/aci-bench-divisions.json` holds what the official tagger (`baselines/sectiontagger.py`
 * of wyim/aci-bench, run by bench/aci-bench-sections-reference.py) returns for every bundled note — the
 * gold notes of the five splits and the six shipped predictions: each division with its start and end,
 * in code points.
 */
const FIXTURE = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "fixtures", "aci-bench-divisions.json"), "utf8"),
) as {
  files: Record<string, Array<Array<[string, number, number]>>>;
};

/** A slice of a text by code points, as Python slices it. */
function pythonSlice(text: string, start: number, end: number): string {
  return Array.from(text).slice(start, end).join("");
}

describe("ACI-Bench section tagger", () => {
  it("divides every bundled note as the official tagger does (gold notes of every split and the six shipped predictions)", () => {
    let notes = 0;
    for (const [file, expected] of Object.entries(FIXTURE.files)) {
      const rows = parseCsvObjects(readFileSync(join(BUNDLED_ACI_BENCH_DIR, file), "utf8"));
      expect(rows, file).toHaveLength(expected.length);
      rows.forEach((row, index) => {
        const text = row.note!.replaceAll("__lf1__", "\n");
        const ours = divideNote(text).map(({ division, start, end }) => [division, text.slice(start, end)]);
        const official = expected[index]!.map(([division, start, end]) => [division, pythonSlice(text, start, end)]);
        expect(ours, `${file} row ${index + 1}`).toEqual(official);
        notes += 1;
      });
    }
    expect(notes).toBe(207 + 6 * 40);
  });

  it("matches headers at the start of a line, case-insensitively, in the tagger's order", () => {
    expect(headerDivision("CHIEF COMPLAINT")).toBe("subjective");
    expect(headerDivision("   Chief complaint : knee pain")).toBe("subjective");
    expect(headerDivision("HPI notes: none")).toBe("subjective");
    expect(headerDivision("Physical exam showed a clear chest.")).toBe("objective_exam");
    // "RESULTS" needs no colon, so an ordinary sentence can open the results division.
    expect(headerDivision("Results of the MRI were normal.")).toBe("objective_results");
    expect(headerDivision("ASSESSMENT AND PLAN")).toBe("assessment_and_plan");
    expect(headerDivision("Assessment & Plan:")).toBe("assessment_and_plan");
    expect(headerDivision("The patient is well.")).toBeUndefined();
  });

  it("takes a header written with a colon without it only as the whole line", () => {
    expect(headerDivision("CC")).toBe("subjective");
    expect(headerDivision("  cc  ")).toBe("subjective");
    expect(headerDivision("CCU admission")).toBeUndefined();
    expect(headerDivision("A")).toBe("assessment_and_plan");
    expect(headerDivision("p")).toBe("assessment_and_plan");
    expect(headerDivision("A patient")).toBeUndefined();
    expect(headerDivision("A: improving")).toBe("assessment_and_plan");
  });

  it("reads IMPRESSION case-sensitively as assessment and plan, the later of the tagger's two definitions", () => {
    expect(headerDivision("IMPRESSION")).toBe("assessment_and_plan");
    expect(headerDivision(" IMPRESSIONS: stable")).toBe("assessment_and_plan");
    expect(headerDivision("Impression")).toBeUndefined();
  });

  it("uses Python's whitespace and case rules, not JavaScript's", () => {
    expect(headerDivision("\u0085CC: cough")).toBe("subjective"); // NEL is whitespace to Python's \s
    expect(headerDivision("\ufeffCC: cough")).toBeUndefined(); // BOM is not
    expect(headerDivision("PHYSICAL\u2003EXAM")).toBe("objective_exam");
    expect(headerDivision("HİSTORY OF PRESENT ILLNESS")).toBe("subjective"); // İ matches i under re.IGNORECASE
    expect(headerDivision("ſubjective:")).toBe("subjective"); // so does the long s
  });

  it("keeps the first section of each division; a later section of another division goes with the one before it", () => {
    const note = "intro\nEXAM: normal\nHPI: more history\nPLAN: rest\nROS: negative";
    expect(noteDivisions(note)).toEqual({
      subjective: "intro__lf1__",
      objective_exam: "EXAM: normal__lf1__HPI: more history__lf1__",
      assessment_and_plan: "PLAN: rest__lf1__ROS: negative",
    });
  });

  it("reads __lf1__ as a line break, writes division line breaks back as __lf1__ (one token 'lf1' each)", () => {
    const divisions = noteDivisions("HPI: cough__lf1__RESULTS__lf1__x-ray clear");
    expect(divisions).toEqual({ subjective: "HPI: cough__lf1__", objective_results: "RESULTS__lf1__x-ray clear" });
    expect(tokenizeRouge(divisions.objective_results!)).toEqual(["results", "lf1", "x", "ray", "clear"]);
  });

  it("scores a division a note lacks as #####EMPTY#####, or as '' when no note of the set has it", () => {
    const divided = [noteDivisions("HPI: a\nPLAN: b"), noteDivisions("HPI: c")];
    expect(divisionColumn(divided, "assessment_and_plan")).toEqual(["PLAN: b", MISSING_DIVISION]);
    expect(divisionColumn(divided, "objective_results")).toEqual(["", ""]);
    // rouge_score reads it as the one token "empty": a division both notes lack matches itself.
    expect(tokenizeRouge(MISSING_DIVISION)).toEqual(["empty"]);
    expect(noteDivisions("")).toEqual({ subjective: "" });
  });
});
