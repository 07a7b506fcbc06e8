import { describe, expect, it } from "vitest";
import { ConversationReader } from "../../../../src/modules/embedded/policy/conversation-reader.ts";
import { compileHistoryPlan } from "../../../../src/language/history-plan.ts";
import { readBundledJson } from "../../../../src/foundation/package-paths.ts";
import { plan, turns } from "./helpers.ts";

const planJson = () => readBundledJson("ontology/history-plan.json") as Record<string, unknown>;

describe("history plan (ontology/history-plan.json)", () => {
  it("puts the sections in OSCE order", () => {
    expect(plan.sectionOrder).toEqual([
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
      "residence",
    ]);
  });

  it("rejects items the CMAS ontology does not allow, naming the item", () => {
    const broken = planJson();
    (broken.items as Array<Record<string, unknown>>)[1]!.check = { type: "relation" };
    expect(() => compileHistoryPlan(broken)).toThrow(
      /item 'dyspnea': check type 'relation' is not allowed for symptom/,
    );
    const unknownItem = planJson();
    (unknownItem.areas as Array<{ review_of_systems: string[][] }>)[0]!.review_of_systems[0]!.push("nonexistent");
    expect(() => compileHistoryPlan(unknownItem)).toThrow(/unknown item 'nonexistent'/);
    type Live = { screens: Array<{ item: string; when: unknown }>; follow_up: Record<string, string[]> };
    const unknownScreen = planJson();
    (unknownScreen.live_history as Live).screens[0]!.item = "nonexistent";
    expect(() => compileHistoryPlan(unknownScreen)).toThrow(/live_history.screens names unknown item 'nonexistent'/);
    const badCriterion = planJson();
    (badCriterion.live_history as Live).screens[0]!.when = {
      finding: { slot: "symptom", values: ["fever"], attributes: { colour: "red" } },
    };
    expect(() => compileHistoryPlan(badCriterion)).toThrow(
      /live_history.screens 'night_sweats': symptom has no attribute 'colour'/,
    );
    const silentCompanion = planJson();
    type Template = { id: string; steps: Array<Array<{ value: string; asked_cues?: string[] }>> | "cmas" };
    const headache = (silentCompanion.complaints as Template[]).find((complaint) => complaint.id === "headache")!;
    for (const part of (headache.steps as Array<Array<{ value: string; asked_cues?: string[] }>>).flat())
      if (part.value === "photophobia") delete part.asked_cues;
    expect(() => compileHistoryPlan(silentCompanion)).toThrow(
      /complaint 'headache': companion 'photophobia' has no plan item and no asked_cues/,
    );
    const badFollowUp = planJson();
    (badFollowUp.live_history as Live).follow_up.medication = ["severity"];
    expect(() => compileHistoryPlan(badFollowUp)).toThrow(
      /live_history.follow_up: 'severity' is not a check type of medication/,
    );
  });

  it("uses canonical lower-case values", () => {
    for (const item of plan.items) for (const value of item.values) expect(value).toBe(value.toLowerCase());
  });
});

describe("reading the doctor's questions", () => {
  const reader = new ConversationReader(plan);

  it.each([
    // Items in the order the question names them; the cough is mentioned too.
    ["Have you noticed any blood when you cough?", ["hemoptysis", "coughing"]],
    ["How about feeling like your heart's racing?", ["palpitations"]],
    ["Any lightheadedness or feeling like you might pass out?", ["presyncope"]],
    ["And have you been in the hospital or had any surgeries?", ["hospitalization_surgery"]],
    ["Does anyone in your family have heart or lung problems?", ["family_heart_lung"]],
    ["How about alcohol, do you drink?", ["alcohol"]],
    ["Can you tell me a bit about your living situation?", ["residence"]],
  ])("%s → %j", (question, items) => {
    expect(reader.readDoctor(question).items).toEqual(items);
  });

  it("tells which values of a two-valued item a question named, and which attribute it asked", () => {
    const reading = reader.readDoctor("Have you had any fevers?");
    expect(reading.items).toEqual(["fever"]);
    expect(reading.values).toEqual(["fever|fever"]);
    expect(reader.readDoctor("When did the shortness of breath start?").checks).toContain("onset");
  });

  it("takes an attribute question that names nothing to be about what the patient just reported", () => {
    const history = turns(
      "What brings you in?",
      "A cough.",
      "Any change in your smell?",
      "Yes, I can't smell my food.",
      "When did you notice that?",
      "Two days ago.",
    );
    const conversation = reader.read(history, (value) => value === "anosmia");
    expect(conversation.doctor.at(-1)!.topics).toEqual(["smell"]);
    expect(reader.read(history, () => false).doctor.at(-1)!.topics).toEqual([]);
  });

  it("recognises the closing moves", () => {
    expect(
      reader.readDoctor("Those were all the questions I had. Do you have any questions for me?").closingQuestion,
    ).toBe(true);
    expect(
      reader.readDoctor(
        "So it is most likely a viral infection; we will do a swab today and you should hear back about the results in a day or two, and come back if it gets worse.",
      ).explanation,
    ).toBe(true);
  });
});
