import { describe, expect, it } from "vitest";
import { learnStatistics } from "../../../../src/modules/embedded/policy/learned-statistics.ts";
import { PolicyModel } from "../../../../src/modules/embedded/policy/policy-model.ts";
import { plan, training } from "./helpers.ts";

/** What the planner learns from the training dialogue (MediTOD train split: dialogue 115). */

const stats = learnStatistics(plan, training.dialogues);
const model = new PolicyModel(plan, stats);
const empty = new PolicyModel(plan, learnStatistics(plan, []));

describe("learned statistics", () => {
  it("learns which check values doctors attach, and which complaint attributes they ask", () => {
    expect(model.checkValues("symptom", "coughing", "characteristics")).toEqual(["dry or wet"]);
    expect(model.checkValues("symptom", "coughing", "onset")).toBeUndefined();
    // The complaint (cough, shortness of breath) had onset and aggravating factors asked, never severity.
    expect(stats.complaintChecks.get("onset")).toEqual({ opportunities: 2, taken: 2 });
    expect(stats.complaintChecks.get("severity")).toEqual({ opportunities: 2, taken: 0 });
    expect(model.complaintCheckRate("severity")).toBeLessThan(0.5);
    expect(model.complaintCheckRate("ana_factors")).toBeGreaterThan(0.5);
  });

  it("learns how often a new positive finding is followed up, and with which check", () => {
    expect(stats.followUps.get("habit")).toMatchObject({ opportunities: 1, taken: 1 });
    expect(model.followUpRate("habit")).toBeGreaterThan(0.5);
    expect(model.followUpChecks("habit")[0]).toBe("starting");
    expect(model.followUpRate("family_history")).toBeLessThan(0.5);
  });

  it("learns that the doctor does not nod after long answers to questions", () => {
    expect(stats.nods.afterQuestion.opportunities).toBeGreaterThan(0);
    expect(stats.nods.afterQuestion.taken).toBe(0);
    expect(model.nodRate(true)).toBeLessThan(0.5);
    expect(model.nodRate(false)).toBe(plan.file.priors.nod_unprompted);
  });

  it("counts items per section and their order within each body system", () => {
    expect(model.quota("family_history")).toBe(2);
    const block = plan.reviewOfSystems.get("respiratory")!.blocks[1]!;
    // The training doctor asked chest pain, palpitations, lightheadedness in that order.
    const keys = ["chest_pain", "palpitations", "presyncope"].map((id) =>
      model.orderKey(plan.itemsById.get(id)!, block),
    );
    expect(keys).toEqual([...keys].sort((a, b) => a - b));
  });

  it("falls back to the plan's priors without training data", () => {
    expect(empty.quota("review_of_systems")).toBe(
      plan.file.sections.find((section) => section.id === "review_of_systems")!.typical_items,
    );
    expect(empty.followUpRate("symptom")).toBe(plan.file.follow_up.symptom!.prior);
    expect(empty.checkValues("symptom", "coughing", "characteristics")).toBeUndefined();
  });

  it("lets transitions override the plan only when several dialogues agree", () => {
    // One dialogue is one doctor's habit: chest pain → palpitations is seen once, not enough.
    expect(model.likelySuccessors("chest_pain")).toEqual([]);
    const agreeing = learnStatistics(plan, [training.dialogues[0]!, training.dialogues[0]!, training.dialogues[0]!]);
    expect(new PolicyModel(plan, agreeing).likelySuccessors("chest_pain")).toEqual(["palpitations"]);
  });
});
