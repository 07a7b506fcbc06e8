import { describe, expect, it } from "vitest";
import { loadDiagnoses } from "../../src/clinical/diagnoses.ts";
import { loadRedFlags } from "../../src/clinical/red-flags.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import { loadCaseLibrary, meditodCases } from "../../src/simulator/case-library.ts";

describe("the simulated-patient case library", () => {
  const library = loadCaseLibrary();

  it("holds at least 20 cases across every body system, each with a one-line presentation", () => {
    expect(library.length).toBeGreaterThanOrEqual(20);
    expect(new Set(library.map((entry) => entry.id)).size).toBe(library.length);
    expect(new Set(library.map((entry) => entry.system))).toEqual(
      new Set([
        "cardiovascular",
        "respiratory",
        "gastrointestinal",
        "genitourinary",
        "neurological",
        "musculoskeletal",
        "dermatological",
        "psychiatric",
        "general",
      ]),
    );
    for (const entry of library) expect(entry.title).toMatch(/^A[n]? [^\n]{20,140}\.$/);
  });

  it("says of each case the diagnosis its history supports and the red flags it carries, as the rules read its profile", () => {
    const diagnoses = loadDiagnoses();
    const flags = loadRedFlags();
    for (const entry of library) {
      expect(diagnoses.workingImpression(entry.profile)?.disease ?? null, entry.id).toBe(entry.diagnosis);
      expect(
        flags.evaluate(entry.profile).map((flag) => flag.id),
        entry.id,
      ).toEqual(entry.redFlags);
    }
    expect(library.filter((entry) => entry.diagnosis === null).length).toBeGreaterThanOrEqual(3);
    expect(library.filter((entry) => entry.redFlags.length > 0).length).toBeGreaterThanOrEqual(7);
  });

  it("adds the MediTOD train and valid dialogues with their doctors' diagnoses", () => {
    const cases = meditodCases(loadMeditod());
    expect(cases.map((entry) => [entry.id, entry.diagnosis, entry.system, entry.redFlags])).toEqual([
      ["115", "chronic bronchitis", "respiratory", []],
      ["317", "covid-19 virus disease", "respiratory", []],
    ]);
  });
});
