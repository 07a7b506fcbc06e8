import { describe, expect, it } from "vitest";
import type { DialogueState } from "../../../../src/cmas/schemas.ts";
import { asked, plan, play, plannerFrom, turns } from "./helpers.ts";

/** Hand-written moments of a history and what the planner should do next. */

const planner = plannerFrom();
const cough = "I've had a cough for about a week and it's been getting worse.";
const coughState: DialogueState = {
  positive_symptom: [{ value: "coughing", onset: "a week ago", progression: "getting worse" }],
};

/** A history up to the background: complaint explored, review of systems done. */
const background = [
  "What brings you in today?",
  cough,
  "Is the cough dry or are you bringing up sputum?",
  "It's dry.",
  "Does anything make it better or worse?",
  "Not really.",
  "Any blood when you cough?",
  "No.",
  "Have you had anything like this before?",
  "No, never.",
];

describe("the embedded planner in hand-written scenarios", () => {
  it("explores the first symptom of the opening even when the opening words it its own way", () => {
    const history = turns(
      "What brings you in today?",
      "I've had this pain in my chest for over a week now and it's caused me to have trouble breathing.",
    );
    const decision = planner.decide(history, {
      positive_symptom: [
        { value: "chest pain", onset: "a week ago" },
        { value: "dyspnea", onset: "a week ago" },
      ],
    });
    expect(decision.reason).toBe("complaint");
    expect(asked(decision.actions)[0]).toMatch(/^symptom:chest pain\//);
  });

  it("asks the complaint's missing attributes, skipping the ones the patient already gave", () => {
    const history = turns("What brings you in today?", "I've been having this chest pain since yesterday.");
    const decision = planner.decide(history, { positive_symptom: [{ value: "chest pain", onset: "yesterday" }] });
    expect(decision.reason).toBe("complaint");
    expect(asked(decision.actions)).toEqual(["symptom:chest pain/characteristics"]);
    const next = planner.decide(
      [
        ...history,
        { speaker: "doctor", text: "What does the pain feel like?" },
        { speaker: "patient", text: "It's sharp." },
      ],
      {
        positive_symptom: [{ value: "chest pain", onset: "yesterday", positive_characteristics: ["sharp"] }],
      },
    );
    expect(asked(next.actions)).toEqual(["symptom:chest pain/location"]);
  });

  it("explores every symptom of the opening complaint before the review of systems", () => {
    const history = turns(
      "What brings you in?",
      "I've had a cough and I've been short of breath for a few months.",
      "When did the cough start?",
      "About two months ago.",
    );
    const state: DialogueState = {
      positive_symptom: [
        {
          value: "coughing",
          onset: "two months ago",
          positive_characteristics: ["wet cough"],
          aggravating_factor: ["morning"],
        },
        { value: "dyspnea", onset: "a few months ago" },
        { value: "colored/excess sputum", volume: "a teaspoon" },
      ],
      negative_symptom: [{ value: "hemoptysis" }],
    };
    // The cough is explored; shortness of breath, also in the opening, comes next (its onset is known).
    expect(asked(planner.decide(history, state).actions)).toEqual(["symptom:dyspnea/ana_factors"]);
  });

  it("moves from the review of systems to past history, medications, allergies, family history and habits", () => {
    const { steps } = play(planner, cough, coughState);
    const sectionOf = (item: string | undefined) => (item ? plan.itemsById.get(item)!.section : undefined);
    const firstOf = (section: string) => steps.findIndex((step) => sectionOf(step.decision.item) === section);
    const order = [
      "review_of_systems",
      "past_medical_history",
      "medications",
      "allergies",
      "family_history",
      "habits",
    ].map(firstOf);
    expect(order.every((index) => index > 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it("asks only the values of a question the state does not answer yet", () => {
    // The patient denied fevers on their own: the fever question shrinks to chills.
    const { steps } = play(
      planner,
      cough,
      { ...coughState, negative_symptom: [{ value: "fever" }] },
      (decision) => decision.item === "fever",
    );
    expect(steps.at(-1)!.decision.item).toBe("fever");
    expect(asked(steps.at(-1)!.decision.actions)).toEqual(["symptom:chills"]);
  });

  it("does not re-ask an item the doctor already asked, nor a symptom the patient denied unasked", () => {
    const history = turns(...background, "Any shortness of breath?", "No.", "Any wheezing?", "I don't think so.");
    const state: DialogueState = {
      ...coughState,
      negative_symptom: [{ value: "hemoptysis" }, { value: "dyspnea" }, { value: "colored/excess sputum" }],
    };
    // Wheezing was asked (the answer was not recorded): the respiratory block is finished, on to the heart.
    expect(asked(planner.decide(history, state).actions)).toEqual(["symptom:chest pain"]);
    // Had the patient already said "no chest pain" on their own, palpitations would come next.
    const denied: DialogueState = { ...state, negative_symptom: [...state.negative_symptom!, { value: "chest pain" }] };
    expect(asked(planner.decide(history, denied).actions)).toEqual(["symptom:palpitations"]);
  });

  it("follows up a positive answer: a symptom's onset, a habit's duration", () => {
    const breathless = planner.decide(turns(...background, "Any shortness of breath?", "Yes, quite a bit."), {
      ...coughState,
      positive_symptom: [...coughState.positive_symptom!, { value: "dyspnea" }],
    });
    expect(breathless).toMatchObject({ reason: "follow-up" });
    expect(asked(breathless.actions)).toEqual(["symptom:dyspnea/onset"]);
    const smoker = planner.decide(turns(...background, "Do you smoke?", "Yes, about a pack a day."), {
      ...coughState,
      positive_habit: [{ value: "smoking", frequency: "a pack a day" }],
    });
    expect(asked(smoker.actions)).toEqual(["habit:smoking/starting"]);
  });

  it("returns to the background after a stray symptom question", () => {
    const history = turns(
      ...background,
      "Do you have any medical conditions?",
      "No.",
      "Are you taking any medications?",
      "No.",
      "Oh, I forgot to ask, any headaches?",
      "No.",
    );
    const decision = planner.decide(history, { ...coughState, negative_symptom: [{ value: "headache" }] });
    expect(decision.item).toBe("allergies");
  });

  it("acknowledges a long unprompted story with a bare nod, but not a long answer to a question", () => {
    const story =
      "Well, it all started when my grandson came to visit, he had a cold and was coughing all the time, and a few days after he left I started feeling tired and achy, and then this cough came on and it has not let up since then.";
    const afterStatement = planner.decide(
      turns(...background, "OK, I understand, that must be frustrating.", story),
      coughState,
    );
    expect(afterStatement).toMatchObject({ reason: "nod", actions: [{ action: "nod_prompt_salutations" }] });
    const afterQuestion = planner.decide(turns(...background, "Has anyone around you been sick?", story), coughState);
    expect(afterQuestion.reason).not.toBe("nod");
  });

  it("answers a patient's question instead of asking on", () => {
    const decision = planner.decide(
      turns(...background, "Any chest pain?", "No. Is this something serious, doctor?"),
      coughState,
    );
    expect(decision).toMatchObject({ reason: "answer", actions: [{ action: "chit-chat" }] });
  });

  it("works from the plan alone when there is nothing to learn from", () => {
    const bare = plannerFrom({ dialogues: [], dialogueIds: [] });
    const history = turns("What brings you in today?", cough);
    // No check values are attached without examples, and severity keeps its prior chance of being asked.
    expect(asked(bare.decide(history, coughState).actions)).toEqual([
      "symptom:coughing/characteristics",
      "symptom:colored/excess sputum",
    ]);
    const { steps } = play(bare, cough, coughState, (decision) => decision.reason !== "complaint");
    expect(steps.flatMap((step) => asked(step.decision.actions))).toContain("symptom:coughing/severity");
  });
});
