import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadRedFlags } from "../../src/clinical/red-flags.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import { BUNDLED } from "../../src/foundation/package-paths.ts";
import { loadCaseLibrary, meditodCases } from "../../src/simulator/case-library.ts";

describe("the simulated-patient case library", () => {
  const library = loadCaseLibrary();
  const basics = (id: string) => library.find((entry) => entry.id === id)!.profile.basic_information?.[0] ?? {};

  it("holds at least 25 cases across every body system, each with a one-line presentation", () => {
    expect(library.length).toBeGreaterThanOrEqual(25);
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

  it("has children with a parent speaking, elderly patients with a relative speaking, and women of child-bearing age", () => {
    const age = (id: string) => Number(basics(id).age);
    const speaker = (id: string) => library.find((entry) => entry.id === id)!.script!.speaker;
    const children = library.filter((entry) => age(entry.id) < 12);
    expect(children.length).toBeGreaterThanOrEqual(2);
    for (const child of children) expect(["mother", "father"]).toContain(speaker(child.id));
    const elderlyWithRelative = library.filter((entry) => age(entry.id) >= 70 && speaker(entry.id) !== "patient");
    expect(elderlyWithRelative.length).toBeGreaterThanOrEqual(2);
    const women = library.filter(
      (entry) => basics(entry.id).sex === "female" && age(entry.id) >= 15 && age(entry.id) <= 49,
    );
    expect(women.length).toBeGreaterThanOrEqual(5);
  });

  it("states by hand what each history should end with: a diagnosis and why, or why none is supportable, and its red flags", () => {
    const flagIds = new Set(loadRedFlags().flags.map((flag) => flag.id));
    for (const entry of library) {
      expect(entry.source).toBe("library");
      expect(entry.expected.why.length, entry.id).toBeGreaterThan(40);
      for (const id of entry.redFlags) expect(flagIds, entry.id).toContain(id);
      if (entry.expected.diagnosis === null) expect(entry.expected.alsoAccepted).toEqual([]);
      expect(entry.script, entry.id).toBeDefined();
    }
    expect(library.filter((entry) => entry.expected.diagnosis === null).length).toBeGreaterThanOrEqual(3);
    expect(library.filter((entry) => entry.redFlags.length > 0).length).toBeGreaterThanOrEqual(10);
  });

  it("adds the MediTOD train and valid dialogues with their doctors' diagnoses, and no script", () => {
    const cases = meditodCases(loadMeditod());
    expect(cases.map((entry) => [entry.id, entry.expected.diagnosis, entry.system, entry.redFlags])).toEqual([
      ["115", "chronic bronchitis", "respiratory", []],
      ["317", "covid-19 virus disease", "respiratory", []],
    ]);
    expect(cases.every((entry) => entry.script === undefined)).toBe(true);
  });
});

describe("a malformed case library", () => {
  const original = JSON.parse(readFileSync(BUNDLED.caseLibrary, "utf8")) as {
    cases: Array<
      Record<string, unknown> & {
        script: { lines: Record<string, unknown>; opening: { reveals: string[] }; ice?: Record<string, unknown> };
      }
    >;
  };
  const directory = mkdtempSync(join(tmpdir(), "case-library-"));

  /** Loads the library with its first case changed; the error message. */
  function errorOf(change: (first: (typeof original.cases)[number]) => void): string {
    const copy = structuredClone(original);
    change(copy.cases[0]!);
    const path = join(directory, "library.json");
    writeFileSync(path, JSON.stringify(copy));
    try {
      loadCaseLibrary(path);
    } catch (error) {
      return (error as Error).message;
    }
    return "loaded";
  }

  it("fails with the path of a fact without a line, a line for no fact, a revealed fact the profile lacks, or a broader question that is a fact", () => {
    expect(errorOf((first) => delete first.script.lines["symptom:sweating"])).toMatch(
      /cases\.0\.script\.lines: no line for the fact 'symptom:sweating'/,
    );
    expect(errorOf((first) => (first.script.lines["symptom:vertigo"] = "the room spins"))).toMatch(
      /cases\.0\.script\.lines\.symptom:vertigo: no such fact in the profile/,
    );
    expect(
      errorOf((first) => (first.script.lines["symptom:sweating"] = { says: "yes", answers: ["symptom:nausea"] })),
    ).toMatch(/cases\.0\.script\.lines\.symptom:sweating\.answers\.0: 'symptom:nausea' is a fact of the profile/);
    expect(errorOf((first) => first.script.opening.reveals.push("symptom:vertigo"))).toMatch(
      /cases\.0\.script\.opening\.reveals\.4: no fact 'symptom:vertigo' in the profile/,
    );
  });

  it("takes a script's ideas, concerns and expectations as lines of text, each optional, and fails on anything else with one error naming the case", () => {
    expect(errorOf((first) => (first.script.ice = { concerns: "is it my heart?" }))).toBe("loaded");
    expect(errorOf((first) => delete first.script.ice)).toBe("loaded");
    expect(errorOf((first) => (first.script.ice = {}))).toBe("loaded");
    const notText = errorOf((first) => (first.script.ice!.ideas = 42));
    expect(notText).toMatch(
      /^case library .*library\.json: cases\.0\.script\.ice\.ideas: Invalid input: expected string, received number \(case 'chest-pain-acs'\)$/,
    );
    expect(errorOf((first) => (first.script.ice!.concerns = ["a", "b"]))).toMatch(
      /cases\.0\.script\.ice\.concerns: .*expected string.* \(case 'chest-pain-acs'\)$/,
    );
    expect(errorOf((first) => (first.script.ice!.expectations = "  "))).toMatch(
      /cases\.0\.script\.ice\.expectations: .* \(case 'chest-pain-acs'\)$/,
    );
    expect(errorOf((first) => (first.script.ice!.worries = "money"))).toMatch(
      /cases\.0\.script\.ice: Unrecognized key: "worries" \(case 'chest-pain-acs'\)$/,
    );
  });

  it("names the case of an error by its id, and by its path alone when it has none", () => {
    expect(errorOf((first) => (first.red_flags = ["heart_attack"]))).toMatch(/\(case 'chest-pain-acs'\)$/);
    expect(errorOf((first) => delete first.id)).toMatch(
      /cases\.0\.id: Invalid input: expected string, received undefined$/,
    );
  });

  it("fails with the path of an unknown red flag, a missing reason, or an expected answer with both reasons", () => {
    expect(errorOf((first) => (first.red_flags = ["heart_attack"]))).toMatch(
      /cases\.0\.red_flags\.0: no red flag 'heart_attack'/,
    );
    expect(errorOf((first) => delete first.why)).toMatch(/cases\.0\.why: a case that expects a diagnosis says why/);
    expect(
      errorOf((first) => {
        first.expected_diagnosis = null;
        delete first.also_accepted;
        delete first.why;
      }),
    ).toMatch(/cases\.0\.why_none: a case that expects no diagnosis says why none is supportable/);
    expect(errorOf((first) => (first.why_none = "nothing leads"))).toMatch(
      /cases\.0\.why_none: why_none goes with an expected diagnosis of null/,
    );
    expect(errorOf((first) => (first.speaker = "patient"))).toMatch(/cases\.0: Unrecognized key: "speaker"/);
    expect(errorOf(() => undefined)).toBe("loaded");
  });
});
