import { describe, expect, it } from "vitest";
import type { DialogueState } from "../../../../src/cmas/schemas.ts";
import { realiseFromTemplates } from "../../../../src/modules/embedded/nlg.ts";
import { askOf, inquire } from "../../../../src/modules/embedded/policy/actions.ts";
import { ConversationReader } from "../../../../src/modules/embedded/policy/conversation-reader.ts";
import { asked, plan, play, plannerFrom } from "./helpers.ts";

/**
 * A live history (chat, self-play, the consultation suites) takes the history in a clinician's order:
 * the complaint and its own body system, then the background every history covers (past history,
 * medicines, allergies, family, habits, work, home; `live_history.background`), then the rest of the
 * review of systems, one question a body system. The MediTOD benchmark keeps the training doctors'
 * order (the whole review first, one symptom a turn).
 */

const planner = plannerFrom();
const cough: DialogueState = { positive_symptom: [{ value: "coughing", onset: "a few days ago" }] };
const backPain: DialogueState = { positive_symptom: [{ value: "pain", location: ["back"], onset: "a week ago" }] };

/** Each decision's asks, in order. */
function decisions(opening: string, state: DialogueState, live: boolean): string[][] {
  return play(planner, opening, state, undefined, 90, live).steps.map((step) => asked(step.decision.actions));
}

/** The index of the first decision that asks `ask`. */
const indexOf = (played: readonly string[][], ask: string) => played.findIndex((asks) => asks.includes(ask));

const BACKGROUND = [
  "medical_history:other",
  "medication:other",
  "medical_history:drug allergy",
  "family_history:heart diseases",
  "habit:smoking",
  "habit:alcohol abuse",
  "habit:illicit drug use history",
  "occupation:other",
  "residence:other",
];

describe("a live history covers the background before the rest of the review of systems", () => {
  const live = decisions("I've had a cough for a few days.", cough, true);

  it("asks the complaint's own systems (a cough: chest and heart), then every background item once, then the others", () => {
    expect(indexOf(live, "symptom:dyspnea")).toBeLessThan(indexOf(live, "medical_history:other"));
    expect(indexOf(live, "symptom:chest pain")).toBeLessThan(indexOf(live, "medical_history:other"));
    for (const ask of BACKGROUND)
      expect(
        live.flat().filter((one) => one === ask),
        ask,
      ).toHaveLength(1);
    const lastBackground = Math.max(...BACKGROUND.map((ask) => indexOf(live, ask)));
    expect(lastBackground).toBeLessThan(indexOf(live, "symptom:unexplained weight loss"));
    expect(lastBackground).toBeLessThan(indexOf(live, "symptom:pharyngitis"));
  });

  it("leaves the benchmark's order to the training doctors: the review of systems before the medicines", () => {
    const benchmark = decisions("I've had a cough for a few days.", cough, false);
    expect(indexOf(benchmark, "symptom:chest pain")).toBeGreaterThanOrEqual(0);
    expect(indexOf(benchmark, "symptom:chest pain")).toBeLessThan(indexOf(benchmark, "medication:other"));
  });

  it("never asks what a background question asks better; the benchmark still does", () => {
    for (const ask of ["symptom:general", "habit:marijuana use", "family_history:malignant neoplasms"])
      expect(live.flat(), ask).not.toContain(ask);
    const benchmark = decisions("I've had a cough for a few days.", cough, false).flat();
    expect(benchmark).toContain("symptom:general");
    expect(benchmark).toContain("habit:marijuana use");
  });

  it("asks about travel with an illness travel can explain (a cough), not with a back pain", () => {
    expect(indexOf(live, "travel:other")).toBeLessThan(indexOf(live, "symptom:unexplained weight loss"));
    const back = decisions("I've hurt my back.", backPain, true);
    const travel = indexOf(back, "travel:other");
    expect(travel === -1 || travel > indexOf(back, "symptom:headache")).toBe(true);
  });
});

describe("a live history screens the systems away from the complaint one question a system", () => {
  it("asks a system's symptoms two at a time (a denial reaches both); the benchmark one a turn", () => {
    const live = decisions("I've had a cough for a few days.", cough, true);
    const constitutional = live[indexOf(live, "symptom:unexplained weight loss")]!;
    expect(constitutional).toEqual(["symptom:unexplained weight loss", "symptom:bedridden"]);
    expect(Math.max(...live.map((asks) => asks.length))).toBeLessThanOrEqual(2);
    const benchmark = decisions("I've had a cough for a few days.", cough, false);
    expect(benchmark[indexOf(benchmark, "symptom:unexplained weight loss")]).toEqual([
      "symptom:unexplained weight loss",
    ]);
  });

  it("screens fever and chills, whatever the complaint, before the background", () => {
    const live = decisions("I've had a cough for a few days.", cough, true);
    expect(live[indexOf(live, "medical_history:other") - 1]).toEqual(["symptom:fever", "symptom:chills"]);
  });

  it("does not finish a fever screen alone when the complaint already asked about fevers (a tiredness: no lone 'chills?')", () => {
    const tired = decisions(
      "I've been feeling really tired for a month.",
      { positive_symptom: [{ value: "fatigue" }] },
      true,
    );
    expect(indexOf(tired, "symptom:fever")).toBeLessThan(indexOf(tired, "medical_history:other"));
    const chills = indexOf(tired, "symptom:chills");
    expect(chills === -1 || chills > indexOf(tired, "medical_history:other")).toBe(true);
  });

  it("asks the complaint's own system two symptoms a question, the benchmark one a turn (a cough: breathlessness, wheeze)", () => {
    const live = decisions("I've had a cough for a few days.", cough, true);
    expect(live[indexOf(live, "symptom:dyspnea")]).toEqual(["symptom:dyspnea", "symptom:wheezing"]);
    expect(indexOf(live, "symptom:dyspnea")).toBeLessThan(indexOf(live, "medical_history:other"));
    const benchmark = decisions("I've had a cough for a few days.", cough, false);
    expect(benchmark[indexOf(benchmark, "symptom:dyspnea")]).toEqual(["symptom:dyspnea"]);
  });

  it("screens the neighbouring system (a cough: the heart) in one question before the background, and never asks it again", () => {
    const live = decisions("I've had a cough for a few days.", cough, true);
    const background = indexOf(live, "medical_history:other");
    const heart = [
      "symptom:chest pain",
      "symptom:palpitations",
      "symptom:dizziness",
      "symptom:syncope",
      "symptom:swelling",
    ];
    const before = live.slice(0, background).filter((asks) => asks.some((ask) => heart.includes(ask)));
    expect(before).toEqual([["symptom:chest pain", "symptom:palpitations"]]);
    expect(live.slice(background).flat()).not.toContain("symptom:chest pain");
  });

  it("asks the complaint's own system before the background (a back pain: joint swelling, stiffness)", () => {
    const back = decisions("I've hurt my back.", backPain, true);
    expect(indexOf(back, "symptom:stiffness")).toBeLessThan(indexOf(back, "medical_history:other"));
  });
});

describe("the background's broad questions, worded by the clean NLG", () => {
  const reader = new ConversationReader(plan);
  const word = (slot: string, values: readonly string[]) =>
    realiseFromTemplates(inquire(values.map((value) => askOf(slot, value))));

  it("asks about medical conditions outright (not 'otherwise healthy?') with operations and hospital stays, reading back as both past-history items", () => {
    const text = word("medical_history", ["other"]);
    expect(text).toMatch(/do you have any medical conditions, or have you had any operations or hospital stays\?$/);
    const reading = reader.readDoctor(text);
    expect(reading.items).toEqual(expect.arrayContaining(["conditions", "hospitalization_surgery"]));
    // Both values read as asked, so the live history does not spend a turn on the operations question.
    expect(reading.values).toEqual(
      expect.arrayContaining([
        "hospitalization_surgery|hospitalization",
        "hospitalization_surgery|operative surgical procedures",
      ]),
    );
    // The benchmark's transcript wording is the training doctors': no operations in it.
    expect(realiseFromTemplates(inquire([askOf("medical_history", "other")]), false)).not.toMatch(/operation/);
  });

  it("screens the skin as a clinician words it (rashes or skin changes), reading back as the rash item alone", () => {
    const text = word("symptom", ["dermatologic problem"]);
    expect(text).toMatch(/have you had any rashes or skin changes\?$/);
    expect(reader.readDoctor(text).items).toEqual(["rash"]);
    // The benchmark's transcript wording stays the training doctors'.
    expect(realiseFromTemplates(inquire([askOf("symptom", "dermatologic problem")]), false)).not.toMatch(/skin/);
  });

  it("asks what runs in the family, reading back as the heart and cancer items", () => {
    const text = word("family_history", ["heart diseases", "lung diseases"]);
    expect(text).toMatch(/does anything run in your family/);
    expect(reader.readDoctor(text).items).toEqual(expect.arrayContaining(["family_heart_lung", "family_cancer"]));
  });
});
