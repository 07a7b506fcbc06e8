import { loadMeditod } from "../../src/data/meditod.ts";
import { buildQuestionReader } from "../../src/modules/embedded/question-reader.ts";
import { loadTrainingData } from "../../src/modules/embedded/training-data.ts";
import { describe, expect, it } from "vitest";
import type { DoctorAction } from "../../src/cmas/schemas.ts";
import type { QuestionReader } from "../../src/language/question-reader.ts";
import { coverageOf } from "../../src/simulator/coverage.ts";
import { PracticeDialogue } from "../../src/simulator/practice.ts";
import type { PatientCase } from "../../src/simulator/patient-simulator.ts";

const patientCase: PatientCase = {
  id: "case",
  title: "cough",
  profile: {
    positive_symptom: [
      { value: "coughing", onset: "two weeks ago", severity: "6", aggravating_factor: ["lying down"] },
      { value: "fever" },
    ],
    negative_symptom: [{ value: "hemoptysis" }],
    positive_medication: [{ value: "ibuprofen", impact: "helps" }],
    basic_information: [{ age: "54" }],
  },
};

const inquire = (
  slot: string,
  ...entries: Array<{ value?: string; checks?: Array<{ type: string }> }>
): DoctorAction => ({ action: "inquire", [slot]: entries });

describe("coverageOf", () => {
  it("lists every entry, and the attributes of positive entries, as not yet asked at first", () => {
    const coverage = coverageOf(patientCase.profile, []);
    expect(coverage.facts.map((fact) => [fact.slot, fact.status, fact.label, fact.asked])).toEqual([
      ["symptom", "positive", "coughing", false],
      ["symptom", "positive", "fever", false],
      ["symptom", "negative", "hemoptysis", false],
      ["medication", "positive", "ibuprofen", false],
      ["basic_information", null, "54", false],
    ]);
    expect(coverage.facts[0]!.attributes.map((attribute) => attribute.name)).toEqual([
      "onset",
      "severity",
      "aggravating_factor",
    ]);
    expect(coverage.facts[2]!.attributes).toEqual([]);
    expect(coverage).toMatchObject({ asked: 0, total: 9, percent: 0 });
  });

  it("counts values named, attributes checked, open questions for present entries and any question about a social slot", () => {
    const coverage = coverageOf(patientCase.profile, [
      inquire("symptom", { value: "coughing", checks: [{ type: "onset" }] }),
      inquire("symptom", { value: "coughing", checks: [{ type: "ana_factors" }] }),
      inquire("medication", { value: "other" }),
      inquire("basic_information", { value: "age", checks: [{ type: "age" }] }),
      { action: "chit-chat" },
    ]);
    const asked = Object.fromEntries(coverage.facts.map((fact) => [fact.label, fact.asked]));
    expect(asked).toEqual({ coughing: true, fever: false, hemoptysis: false, ibuprofen: true, "54": true });
    expect(coverage.facts[0]!.attributes).toEqual([
      { name: "onset", asked: true },
      { name: "severity", asked: false },
      { name: "aggravating_factor", asked: true },
    ]);
    // Open questions do not ask the attributes, nor the pertinent negatives.
    expect(coverage.facts[3]!.attributes).toEqual([{ name: "impact", asked: false }]);
    expect(coverage).toMatchObject({ asked: 5, total: 9, percent: 56 });
  });

  it("is 100% for an empty profile", () => {
    expect(coverageOf({}, [])).toEqual({ facts: [], asked: 0, total: 0, percent: 100 });
  });
});

describe("PracticeDialogue", () => {
  /** A scripted reader: the dialogue is under test here, not the question reading. */
  const scripted: Record<string, DoctorAction[]> = {
    "Hello!": [{ action: "nod_prompt_salutations" }],
    "What brings you in?": [{ action: "inquire" }],
    "Any blood?": [inquire("symptom", { value: "hemoptysis" })],
    "How bad is the cough?": [inquire("symptom", { value: "coughing", checks: [{ type: "severity" }] })],
    "Any medications?": [inquire("medication", { value: "other" })],
    "Blah?": [{ action: "inquire" }],
  };
  const reader: QuestionReader = { read: (text) => scripted[text] ?? [] };

  it("answers as the patient and tracks the coverage", () => {
    const practice = new PracticeDialogue(patientCase, reader);
    expect(practice.ask("Hello!").patient).toBe("Hello, doctor.");
    expect(practice.ask("What brings you in?").patient).toBe(
      "I've been having cough that started two weeks ago, and I've also had some fevers.",
    );
    expect(practice.ask("Any blood?").patient).toBe("No, I haven't had coughing up blood.");
    expect(practice.ask("How bad is the cough?").patient).toBe("I'd say about 6 out of 10.");
    const turn = practice.ask("Any medications?");
    expect(turn.patient).toBe("I take ibuprofen.");
    expect(turn.actions).toEqual(scripted["Any medications?"]);
    expect(turn.coverage).toMatchObject({ asked: 4, total: 9 });
    expect(practice.ask("Blah?").patient).toMatch(/another way/);
    expect(practice.history).toHaveLength(12);
    expect(practice.history[0]).toEqual({ speaker: "doctor", text: "Hello!" });
  });
});

describe("practice mode with the real question reader", () => {
  const reader = buildQuestionReader(loadTrainingData(loadMeditod(), "train"));
  const onsetCase = {
    id: "demo",
    title: "Demo",
    profile: { positive_symptom: [{ value: "coughing", onset: "two weeks ago", duration: "all day", severity: "6" }] },
  };

  it("credits a question for every attribute it asks, and the simulated patient answers with the detail", () => {
    const practice = new PracticeDialogue(onsetCase, reader);
    const turn = practice.ask("How long has the cough been going on?");
    expect(turn.patient).toBe("It started two weeks ago. It lasts all day.");
    const cough = turn.coverage.facts.find((fact) => fact.label === "coughing")!;
    expect(cough.attributes).toEqual([
      { name: "onset", asked: true },
      { name: "duration", asked: true },
      { name: "severity", asked: false },
    ]);
  });
});
