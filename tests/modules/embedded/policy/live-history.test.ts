import { describe, expect, it } from "vitest";
import type { DialogueState } from "../../../../src/cmas/schemas.ts";
import { asked, play, plannerFrom, turns } from "./helpers.ts";

/**
 * What a live history (chat, self-play) asks beyond the training doctors' habits, as a clinician
 * would: night sweats once a constitutional symptom is found, a pain's severity, a medication's dose
 * and response. The MediTOD benchmark (no `askOn`) keeps the learned doctors' moves.
 */

const planner = plannerFrom();
const everyAsk = (steps: ReturnType<typeof play>["steps"]) => steps.flatMap((step) => asked(step.decision.actions));

describe("a live history screens constitutional symptoms for night sweats", () => {
  const cough = "I've had a cough for a few days.";
  const afterWeightLoss = turns(
    "What brings you in today?",
    cough,
    "Is the cough dry or wet?",
    "Dry.",
    "Does anything make it better or worse?",
    "No.",
    "Have you lost any weight?",
    "Yes, about ten pounds without trying.",
    "When did the weight loss start?",
    "A couple of months ago.",
    "Does anything make the weight loss better or worse?",
    "No.",
  );
  const state: DialogueState = {
    positive_symptom: [
      {
        value: "coughing",
        onset: "a few days ago",
        positive_characteristics: ["dry"],
        not_aggravating_factor: ["anything"],
      },
      { value: "unexplained weight loss", onset: "a couple of months ago", not_aggravating_factor: ["anything"] },
    ],
  };

  it("asks night sweats right after unexplained weight loss is found", () => {
    expect(asked(planner.decide(afterWeightLoss, state, { askOn: true }).actions)).toEqual(["symptom:night sweats"]);
  });

  it("leaves the benchmark's move to the learned doctors (their respiratory review has no night sweats)", () => {
    expect(asked(planner.decide(afterWeightLoss, state).actions)).not.toContain("symptom:night sweats");
  });

  it("asks night sweats of a cough of three months, once, and not of a cough of a few days", () => {
    const long = play(
      planner,
      "I've had a cough for three months.",
      { positive_symptom: [{ value: "coughing", onset: "three months ago" }] },
      undefined,
      90,
      true,
    );
    expect(long.steps.at(-1)!.decision.reason).toBe("closing");
    expect(everyAsk(long.steps).filter((ask) => ask === "symptom:night sweats")).toHaveLength(1);
    const short = play(
      planner,
      cough,
      { positive_symptom: [{ value: "coughing", onset: "a few days ago" }] },
      undefined,
      90,
      true,
    );
    expect(short.steps.at(-1)!.decision.reason).toBe("closing");
    expect(everyAsk(short.steps)).not.toContain("symptom:night sweats");
  });
});

describe("a live history asks the attributes a clinician needs", () => {
  const backPain: DialogueState = { positive_symptom: [{ value: "pain", location: ["back"], onset: "a week ago" }] };

  it("asks a pain's severity and what makes it better or worse, each once; the benchmark keeps the learned rate", () => {
    const live = everyAsk(play(planner, "I've had back pain for a week.", backPain, undefined, 90, true).steps);
    expect(live.filter((ask) => ask === "symptom:pain/severity")).toHaveLength(1);
    expect(live.filter((ask) => ask === "symptom:pain/ana_factors")).toHaveLength(1);
    expect(everyAsk(play(planner, "I've had back pain for a week.", backPain).steps)).not.toContain(
      "symptom:pain/severity",
    );
  });

  it("asks a medication's dose, what it is for and whether it helps, once each", () => {
    const history = turns(
      "What brings you in today?",
      "I've been tired all the time.",
      "Are you taking any medications?",
      "Yes, levothyroxine.",
    );
    const state: DialogueState = {
      positive_symptom: [{ value: "bedridden", onset: "three months ago" }],
      positive_medication: [{ value: "levothyroxine" }],
    };
    expect(planner.decide(history, state, { askOn: true })).toMatchObject({ reason: "follow-up" });
    const { steps } = play(planner, "I've been tired all the time.", state, undefined, 90, true);
    const medication = everyAsk(steps).filter((ask) => ask.startsWith("medication:levothyroxine/"));
    expect(medication.sort()).toEqual([
      "medication:levothyroxine/frequency",
      "medication:levothyroxine/impact",
      "medication:levothyroxine/respone_to",
    ]);
  });

  it("asks whether tiredness is getting better or worse, and who in the family had a disease, once each", () => {
    const tired: DialogueState = { positive_symptom: [{ value: "bedridden", onset: "three months ago" }] };
    const live = everyAsk(
      play(planner, "I've been tired all the time for three months.", tired, undefined, 90, true).steps,
    );
    expect(live.filter((ask) => ask === "symptom:bedridden/progression")).toHaveLength(1);
    const history = turns(
      "What brings you in today?",
      "I've been tired all the time.",
      "Does anyone in your family have heart problems?",
      "Yes, heart disease.",
    );
    const family: DialogueState = { ...tired, positive_family_history: [{ value: "heart diseases" }] };
    expect(asked(planner.decide(history, family, { askOn: true }).actions)).toEqual([
      "family_history:heart diseases/relation",
    ]);
    const asked_ = [
      ...history,
      { speaker: "doctor" as const, text: "Who in your family had heart problems?" },
      { speaker: "patient" as const, text: "Not sure." },
    ];
    expect(asked(planner.decide(asked_, family, { askOn: true }).actions)).not.toContain(
      "family_history:heart diseases/relation",
    );
  });

  it("never repeats a question in a whole live history", () => {
    const histories: Array<[string, DialogueState]> = [
      ["I've had back pain for a week.", backPain],
      ["I've had a cough for three months.", { positive_symptom: [{ value: "coughing", onset: "three months ago" }] }],
    ];
    for (const [opening, state] of histories) {
      const { steps } = play(planner, opening, state, undefined, 90, true);
      const questions = steps.map((step) => asked(step.decision.actions).join(" ")).filter((ask) => ask !== "");
      expect(
        questions.filter((ask, index) => questions.indexOf(ask) !== index),
        opening,
      ).toEqual([]);
      expect(steps.at(-1)!.decision.reason, opening).toBe("closing");
    }
  });
});

describe("a live history with no complaint heard yet invites it once", () => {
  it("asks an open question after a greeting or a vague opening, not the history's routine questions", () => {
    for (const opening of ["hi", "I just feel a bit off"]) {
      const decision = planner.decide(turns("What brings you in today?", opening), {}, { askOn: true });
      expect(decision.reason).toBe("invite");
      expect(decision.actions).toEqual([{ action: "inquire" }]);
    }
  });

  it("invites only once, and never once a symptom is heard or in the benchmark (negative controls)", () => {
    const again = turns(
      "What brings you in today?",
      "hi",
      "Could you tell me a little more about what's been troubling you?",
      "Nothing much.",
    );
    expect(planner.decide(again, {}, { askOn: true }).reason).not.toBe("invite");
    const cough = turns("What brings you in today?", "I have a cough.");
    const state: DialogueState = { positive_symptom: [{ value: "coughing" }] };
    expect(planner.decide(cough, state, { askOn: true }).reason).not.toBe("invite");
    expect(planner.decide(turns("What brings you in today?", "hi"), {}).reason).not.toBe("invite");
  });
});
