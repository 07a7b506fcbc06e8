import { describe, expect, it } from "vitest";
import type { DialogueState } from "../../../../src/cmas/schemas.ts";
import { doctorActionsSchema } from "../../../../src/cmas/schemas.ts";
import { StateFacts } from "../../../../src/modules/embedded/policy/state-facts.ts";
import { asked, plan, play, plannerFrom, type PlayedStep } from "./helpers.ts";

/**
 * A whole history played against a simulated patient who denies everything: the planner must walk
 * the OSCE order, never ask twice or ask what the patient already said, and close properly.
 */

const planner = plannerFrom();

type Step = PlayedStep;

// The patient volunteers a few things up front: these must never be asked.
const { steps, history, state } = play(
  planner,
  "I've had this cough for about a week now and it's been getting worse. No chest pain or headaches, and I don't smoke; I live at home with my wife.",
  {
    positive_symptom: [{ value: "coughing", onset: "a week ago", progression: "getting worse" }],
    negative_symptom: [{ value: "chest pain" }, { value: "headache" }],
    negative_habit: [{ value: "smoking" }],
    residence: [{ value: "house", status: "living" }],
  },
);
const sectionOf = (step: Step) =>
  step.decision.reason === "plan" ? plan.itemsById.get(step.decision.item!)!.section : step.decision.reason;

describe("history-taking walk-through (simulated patient who denies everything)", () => {
  it("explores the complaint first: its unknown attributes, then whether it happened before", () => {
    const first = steps.slice(0, 4).map((step) => asked(step.decision.actions));
    // Onset and progression are known from the opening; character (with sputum) comes first, with the
    // candidate values the training doctor attached to it.
    expect(first[0]).toEqual(["symptom:coughing/characteristics=dry or wet", "symptom:colored/excess sputum"]);
    expect(first.flat()).not.toContain("symptom:coughing/onset");
    expect(first.flat()).not.toContain("symptom:coughing/progression");
    expect(first.flat()).toContain("symptom:coughing/ana_factors");
    // Severity is in the cough template, but the training doctors never asked it of a complaint.
    expect(first.flat()).not.toContain("symptom:coughing/severity");
    expect(first.flat()).toContain("symptom:hemoptysis");
    const closer = steps.findIndex((step) => asked(step.decision.actions).includes("medical_history:past experience"));
    const review = steps.findIndex((step) => sectionOf(step) === "review_of_systems");
    expect(closer).toBeGreaterThan(0);
    expect(review).toBe(closer + 1);
  });

  it("then walks the sections in OSCE order, each entered once", () => {
    const sections = steps.map(sectionOf).filter((section) => section !== "follow-up");
    const visited = sections.filter((section, index) => section !== sections[index - 1]);
    expect(visited).toEqual([
      "complaint",
      "chief_complaint",
      "review_of_systems",
      "past_medical_history",
      "medications",
      "allergies",
      "family_history",
      "habits",
      "exposures",
      "travel",
      "occupation",
      "closing",
    ]);
  });

  it("reviews the respiratory systems one body system at a time, in the plan's order", () => {
    const symptoms = steps.filter((step) => sectionOf(step) === "review_of_systems").map((step) => step.decision.item!);
    const blocks = plan.reviewOfSystems.get("respiratory")!.blocks;
    const blockOf = (id: string) => blocks.findIndex((block) => block.includes(id));
    const order = symptoms.map(blockOf);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(new Set(order).size).toBeGreaterThanOrEqual(8);
  });

  it("never asks the same thing twice, nor anything the state already knows", () => {
    const everything = steps.flatMap((step) => asked(step.decision.actions));
    for (const volunteered of ["symptom:chest pain", "symptom:headache", "habit:smoking"])
      expect(everything).not.toContain(volunteered);
    expect(everything.some((key) => key.startsWith("residence:"))).toBe(false);
    const seen = new Set<string>();
    for (const { decision, state: before } of steps) {
      const facts = new StateFacts(before);
      for (const key of asked(decision.actions)) {
        expect(seen.has(key), key).toBe(false);
        seen.add(key);
        const [slotValue, check] = key.split("=")[0]!.split("/");
        const [slot, value] = slotValue!.split(":") as [string, string];
        if (check === undefined && slot !== "residence" && slot !== "occupation" && slot !== "travel")
          expect(facts.has(slot, value), key).toBe(false);
        if (check && check !== "location" && check !== "where")
          expect(facts.hasAttribute(slot, value, plan.file.check_attributes[check]!), key).toBe(false);
      }
    }
  });

  it("asks one thing at a time, in the data's format", () => {
    for (const { decision } of steps) {
      expect(doctorActionsSchema.safeParse(decision.actions).success).toBe(true);
      // One slot per turn: a single question, possibly about two related values ("fevers or chills?").
      expect(new Set(asked(decision.actions).map((key) => key.split(":")[0])).size).toBeLessThanOrEqual(1);
    }
  });

  it("closes: any questions, then the working diagnosis and tests, then goodbye", () => {
    expect(steps.at(-1)!.decision).toMatchObject({ reason: "closing", actions: [{ action: "chit-chat" }] });
    const closing = [
      ...history,
      { speaker: "doctor" as const, text: "Those were all the questions I had. Do you have any questions for me?" },
      { speaker: "patient" as const, text: "No, I don't think so." },
    ];
    // A week's dry cough meets no diagnosis's criteria: the doctor names none and passes on what it heard.
    expect(planner.decide(closing, state).actions).toEqual([{ action: "diagnosis", symptom: [{ value: "coughing" }] }]);
    const smoker: DialogueState = {
      ...state,
      positive_symptom: [...state.positive_symptom!, { value: "colored/excess sputum" }],
      positive_habit: [{ value: "smoking", frequency: "a pack a day" }],
    };
    const diagnosis = planner.decide(closing, smoker);
    expect(diagnosis.reason).toBe("diagnosis");
    expect(diagnosis.actions).toContainEqual({ action: "diagnosis", disease: [{ value: "chronic bronchitis" }] });
    expect(diagnosis.actions[0]).toMatchObject({ action: "inquire", medical_test: expect.any(Array) });
    const farewell = planner.decide(
      [
        ...closing,
        {
          speaker: "doctor",
          text: "So it's most likely chronic bronchitis from the smoking; we'll get a chest x-ray and breathing tests to confirm it and follow up next week.",
        },
        { speaker: "patient", text: "OK, thank you doctor." },
      ],
      smoker,
    );
    expect(farewell).toMatchObject({ reason: "farewell", actions: [{ action: "nod_prompt_salutations" }] });
  });
});
