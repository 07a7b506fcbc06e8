import { describe, expect, it } from "vitest";
import { loadMeditod } from "../../src/data/meditod.ts";
import { buildEmbeddedEngine } from "../../src/modules/embedded/index.ts";
import type { DialogueModules } from "../../src/language/module-interfaces.ts";
import { loadCaseLibrary, meditodCases } from "../../src/simulator/case-library.ts";
import { playCase, summarise, type CaseResult } from "../../src/simulator/self-play.ts";

const dataset = loadMeditod();
const engine = buildEmbeddedEngine(dataset, "train", { wording: "clean" });
const cases = [...loadCaseLibrary(), ...meditodCases(dataset)];

describe("self-play of the embedded doctor on every case", () => {
  let results: CaseResult[] = [];

  it("closes every history, and no closing names a diagnosis the case's profile contradicts", async () => {
    results = [];
    for (const patientCase of cases) results.push(await playCase(engine, patientCase));
    const summary = summarise(results);
    expect(summary.cases).toBe(cases.length);
    expect(summary.closings["no closing"]).toBe(0);
    expect(summary.contradicted).toEqual([]);
    expect(summary.closings["wrong diagnosis"]).toBe(0);
    expect(results.every((result) => result.error === null)).toBe(true);
  });

  it("catches the red flags the dialogue manager can see, and raises none a case does not carry", () => {
    const byId = new Map(results.map((result) => [result.id, result]));
    for (const id of [
      "chest-pain-acs",
      "thunderclap-headache",
      "meningitis",
      "gi-bleed",
      "allergic-reaction",
      "suicidal-thoughts",
      "first-seizure",
      "haemoptysis-weight-loss",
    ]) {
      expect(byId.get(id)!.redFlags.missed, id).toEqual([]);
    }
    expect(results.flatMap((result) => result.redFlags.falseAlarms)).toEqual([]);
  });

  it("asks night sweats of the patient losing weight, and how bad every presenting pain is, once", () => {
    const inquiries = (id: string) =>
      results
        .find((result) => result.id === id)!
        .transcript.flatMap((line) => line.actions ?? [])
        .flatMap((action) => (action.action === "inquire" && Array.isArray(action.symptom) ? action.symptom : []));
    expect(inquiries("haemoptysis-weight-loss").filter((entry) => entry.value === "night sweats")).toHaveLength(1);
    const pains = cases.filter(
      (entry) =>
        entry.source === "library" &&
        ["pain", "headache", "chest pain"].includes(String(entry.profile.positive_symptom?.[0]?.value)),
    );
    expect(pains.length).toBeGreaterThanOrEqual(7);
    for (const { id, profile } of pains) {
      const severity = inquiries(id).filter(
        (entry) =>
          entry.value === profile.positive_symptom![0]!.value &&
          entry.checks?.some((check) => check.type === "severity"),
      );
      expect(severity, id).toHaveLength(1);
    }
  });

  it("records every turn, and counts a question asked twice as a repeat", async () => {
    const result = results.find((entry) => entry.id === "uti")!;
    expect(result.transcript[0]).toEqual({ turn: 0, speaker: "doctor", text: "What brings you in today?" });
    expect(result.transcript.filter((line) => line.speaker === "doctor")).toHaveLength(result.doctorTurns + 1);
    // A doctor that asks the same thing every turn: each turn after the first is a repeat, and the history never closes.
    const parrot: DialogueModules = {
      ...engine,
      policy: {
        id: "parrot",
        nextActions: async () => ({
          actions: [{ action: "inquire", symptom: [{ value: "fever", checks: [{ type: "onset" }] }] }],
          latencyMs: 0,
        }),
      },
    };
    const looped = await playCase(
      parrot,
      cases.find((entry) => entry.id === "uti")!,
      5,
    );
    expect(looped).toMatchObject({ doctorTurns: 5, repeatedQuestions: 4, closing: "no closing" });
  });
});
