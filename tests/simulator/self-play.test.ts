import { describe, expect, it } from "vitest";
import { loadMeditod } from "../../src/data/meditod.ts";
import { buildEmbeddedEngine } from "../../src/modules/embedded/index.ts";
import type { DialogueModules } from "../../src/language/module-interfaces.ts";
import { loadCaseLibrary, meditodCases } from "../../src/simulator/case-library.ts";
import { caseFacts } from "../../src/simulator/case-facts.ts";
import { playCase, summarise, type CaseResult } from "../../src/simulator/self-play.ts";

const dataset = loadMeditod();
const engine = buildEmbeddedEngine(dataset, "train", { wording: "clean" });
const library = loadCaseLibrary();
const cases = [...library, ...meditodCases(dataset)];

describe("self-play of the embedded doctor on every case", () => {
  let results: CaseResult[] = [];

  it("plays library cases with their scripted patient and MediTOD cases with their profile patient, and scores every closing", async () => {
    results = [];
    for (const patientCase of cases) results.push(await playCase(engine, patientCase));
    const summary = summarise(results);
    expect(summary.cases).toBe(cases.length);
    expect(summary.patients).toEqual({ script: library.length, profile: cases.length - library.length });
    expect(Object.values(summary.closings).reduce((sum, count) => sum + count, 0)).toBe(cases.length);
    expect(results.every((result) => result.error === null)).toBe(true);
    // The closing scope holds with lay patients too: no diagnosis is named where a case supports none.
    expect(summary.closings["unsupported diagnosis"]).toBe(0);
    // Coverage is the OSCE checklist over the doctor's questions: its covered share of the items that apply.
    for (const result of results) {
      expect(result.checklist.coverage, result.id).toBeCloseTo(
        result.checklist.covered / result.checklist.applicable,
        12,
      );
      expect(result.checklist.missed, result.id).toHaveLength(result.checklist.applicable - result.checklist.covered);
    }
    expect(summary.meanChecklistCoverage).toBeGreaterThan(0);
    expect(summary.meanFactRecall).toBeGreaterThan(0);
    expect(summary.meanFactRecall).toBeLessThan(1);
    // No library history loops on a question its patient cannot answer (the ACS patient's "not sure" to
    // how the sweating came on, a symptom no plan item covers, once brought it back 50 times).
    for (const result of results) expect(result.checklist.repeatedQuestions, result.id).toBeLessThanOrEqual(1);
  });

  it("records the facts each scripted patient line revealed, and fact recall is their share of the case's facts", () => {
    for (const result of results.filter((entry) => entry.patient === "script")) {
      const facts = caseFacts(library.find((entry) => entry.id === result.id)!.profile).map((fact) => fact.id);
      const revealed = new Set(result.transcript.flatMap((line) => line.revealed ?? []));
      expect(
        [...revealed].every((fact) => facts.includes(fact)),
        result.id,
      ).toBe(true);
      expect(result.factRecall, result.id).toEqual({ asked: revealed.size, total: facts.length });
    }
    for (const result of results.filter((entry) => entry.patient === "profile")) {
      expect(result.factRecall).toBeNull();
      expect(result.transcript.some((line) => line.revealed !== undefined)).toBe(false);
    }
  });

  it("writes a note that lists, in the patient's words, the ideas, concerns and expectations their script says when asked", () => {
    const voiceOf = { ideas: "idea", concerns: "concern", expectations: "expectation" } as const;
    let answered = 0;
    const unlisted: string[] = [];
    for (const result of results.filter((entry) => entry.patient === "script")) {
      const ice = library.find((entry) => entry.id === result.id)!.script!.ice!;
      for (const [kind, voice] of Object.entries(voiceOf) as Array<[keyof typeof voiceOf, string]>) {
        const listed = result.questionsAndConcerns.filter((entry) => entry.kind === voice);
        // Whatever the note lists of a kind is the script's line for it (in the sentences the note keeps), never a "not sure".
        for (const entry of listed) expect(ice[kind], `${result.id} ${voice}`).toContain(entry.text);
        const said = result.transcript.some((line) => line.speaker === "patient" && line.text === ice[kind]);
        if (!said) continue;
        answered += 1;
        // The answer is listed: as this kind, or as a question the patient asked in it ("is that right?").
        const sentences = result.questionsAndConcerns.filter(
          (entry) => entry.kind === voice || (entry.kind === "question" && ice[kind]!.includes(entry.text)),
        );
        if (sentences.length === 0) unlisted.push(`${result.id} ${voice}`);
      }
    }
    // "please just give me something to make it stop" is heard as a request for a prescription, which the
    // doctor declines aloud and the note does not list among the patient's questions and concerns.
    expect(unlisted).toEqual(["allergic-reaction expectation"]);
    // The embedded doctor asks all three of nearly every case: the note of most histories lists them.
    expect(answered).toBeGreaterThan(60);
  });

  it("raises no red flag a case does not carry, and catches those the profile patient states in the engine's own words", async () => {
    expect(results.flatMap((result) => result.redFlags.falseAlarms)).toEqual([]);
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
      const result = await playCase(
        engine,
        library.find((entry) => entry.id === id)!,
        { patient: "profile" },
      );
      expect(result.patient).toBe("profile");
      expect(result.redFlags.missed, id).toEqual([]);
      expect(result.redFlags.falseAlarms, id).toEqual([]);
    }
  });

  it("asks night sweats of the patient losing weight, and how bad every presenting pain is, once, when it read the complaint", async () => {
    // The policy is checked on what it understood: the profile patient states the complaint in the engine's words
    // (a lay patient's "pain right in the middle" of the chest may be read as a pain elsewhere).
    const inquiries = async (id: string) =>
      (
        await playCase(
          engine,
          library.find((entry) => entry.id === id)!,
          { patient: "profile" },
        )
      ).transcript
        .flatMap((line) => line.actions ?? [])
        .flatMap((action) => (action.action === "inquire" && Array.isArray(action.symptom) ? action.symptom : []));
    expect((await inquiries("haemoptysis-weight-loss")).filter((entry) => entry.value === "night sweats")).toHaveLength(
      1,
    );
    const pains = library.filter((entry) =>
      ["pain", "headache", "chest pain"].includes(String(entry.profile.positive_symptom?.[0]?.value)),
    );
    expect(pains.length).toBeGreaterThanOrEqual(7);
    for (const { id, profile } of pains) {
      const severity = (await inquiries(id)).filter(
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
    expect(result.transcript[1]).toMatchObject({
      turn: 1,
      speaker: "patient",
      text: library.find((entry) => entry.id === "uti")!.script!.opening.says,
      revealed: ["symptom:dysuria", "symptom:urinary frequency"],
    });
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
      { maxDoctorTurns: 5 },
    );
    expect(looped).toMatchObject({ doctorTurns: 5, repeatedQuestions: 4, closing: "no closing" });
    // The OSCE checklist reads the same from the doctor's words: four repeats, and little of a history covered.
    expect(looped.checklist.repeatedQuestions).toBe(4);
    expect(looped.checklist.coverage).toBeLessThan(0.2);
    expect(looped.checklist.coverage).toBeLessThan(result.checklist.coverage);
  });
});
