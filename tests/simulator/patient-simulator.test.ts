import { describe, expect, it } from "vitest";
import { PatientSimulator, caseFromDialogue } from "../../src/simulator/patient-simulator.ts";
import { loadMeditod } from "../../src/data/meditod.ts";

const simulator = new PatientSimulator({
  id: "case",
  title: "cough",
  profile: {
    positive_symptom: [
      { value: "coughing", onset: "two weeks ago", severity: "6", aggravating_factor: ["lying down"] },
      { value: "fever" },
    ],
    negative_symptom: [{ value: "hemoptysis" }],
    unknown_symptom: [{ value: "wheezing" }],
    positive_habit: [{ value: "smoking", frequency: "a pack a day" }],
    basic_information: [{ age: "54" }],
    travel: [{ status: "not_traveled" }],
  },
});

describe("PatientSimulator", () => {
  it("opens with the chief complaint", () => {
    expect(simulator.openingStatement()).toBe(
      "I've been having cough that started two weeks ago, and I've also had some fevers.",
    );
  });

  it("says which of a choice it has, with its details: 'any cough or coughing up blood?' is never a bare yes", () => {
    expect(
      simulator.answer([{ action: "inquire", symptom: [{ value: "coughing" }, { value: "hemoptysis" }] }]),
    ).toMatch(/^Yes, the cough\. It started two weeks ago\..* But no /);
    // Negative control: one thing asked keeps its plain "Yes." before the details.
    expect(simulator.answer([{ action: "inquire", symptom: [{ value: "coughing" }] }])).toMatch(/^Yes\. It started/);
  });

  it("answers yes with the asked detail, no for negatives and for what the profile lacks, unsure for unknowns", () => {
    expect(
      simulator.answer([{ action: "inquire", symptom: [{ value: "coughing", checks: [{ type: "severity" }] }] }]),
    ).toBe("I'd say about 6 out of 10.");
    expect(
      simulator.answer([{ action: "inquire", symptom: [{ value: "coughing", checks: [{ type: "ana_factors" }] }] }]),
    ).toBe("It gets worse with lying down.");
    // A wh-question gets the asked detail, never a bare "Yes." ("how long has the cough been going on?").
    expect(
      simulator.answer([{ action: "inquire", symptom: [{ value: "coughing", checks: [{ type: "onset" }] }] }]),
    ).toBe("It started two weeks ago.");
    expect(
      simulator.answer([{ action: "inquire", symptom: [{ value: "coughing", checks: [{ type: "location" }] }] }]),
    ).toBe("Hmm, I'm not really sure.");
    expect(simulator.answer([{ action: "inquire", symptom: [{ value: "coughing" }] }])).toBe(
      "Yes. It started two weeks ago.",
    );
    expect(simulator.answer([{ action: "inquire", symptom: [{ value: "hemoptysis" }, { value: "chest pain" }] }])).toBe(
      "No, I haven't had coughing up blood or chest pain.",
    );
    expect(simulator.answer([{ action: "inquire", symptom: [{ value: "wheezing" }] }])).toBe(
      "I'm not sure about wheezing.",
    );
    expect(
      simulator.answer([{ action: "inquire", habit: [{ value: "smoking", checks: [{ type: "frequency" }] }] }]),
    ).toBe("It's a pack a day.");
    expect(simulator.answer([{ action: "inquire", habit: [{ value: "alcohol consumption" }] }])).toBe(
      "No, no alcohol.",
    );
    expect(simulator.answer([{ action: "inquire", family_history: [{ value: "heart diseases" }] }])).toBe(
      "No, nobody in my family has had heart problems.",
    );
    expect(simulator.answer([{ action: "inquire", medication: [{ value: "other" }] }])).toBe(
      "No, I'm not taking other medications.",
    );
  });

  it("answers a question about a site: yes where the complaint is, where it is instead, no where nothing is", () => {
    const knee = new PatientSimulator({
      id: "k",
      title: "Knee",
      profile: { positive_symptom: [{ value: "pain", location: ["left knee"], onset: "a year ago" }] },
    });
    expect(knee.openingStatement()).toBe("I've been having pain in my left knee that started a year ago.");
    const asked = (site: string) =>
      knee.answer([
        { action: "inquire", symptom: [{ value: "pain", checks: [{ type: "location", values: [site] }] }] },
      ]);
    expect(asked("knee")).toBe("It's in my left knee.");
    expect(asked("abdomen")).toBe("It's not in my abdomen, it's in my left knee.");
    expect(
      new PatientSimulator({ id: "n", title: "None", profile: {} }).answer([
        { action: "inquire", symptom: [{ value: "pain", checks: [{ type: "location", values: ["abdomen"] }] }] },
      ]),
    ).toBe("No, I haven't had abdominal pain.");
  });

  it("answers social and demographic questions and closes politely", () => {
    expect(simulator.answer([{ action: "inquire", basic_information: [{ value: "age" }] }])).toBe("I'm 54.");
    expect(simulator.answer([{ action: "inquire", travel: [{ value: "other" }] }])).toBe("No, I haven't travelled.");
    expect(simulator.answer([{ action: "diagnosis", disease: [{ value: "bronchitis" }] }])).toBe(
      "Okay, thank you, doctor.",
    );
    expect(simulator.answer(null)).toBe("Okay.");
  });

  it("builds cases from the final state of MediTOD dialogues", () => {
    const patientCase = caseFromDialogue(loadMeditod(), "115");
    expect(patientCase.title).toBe("MediTOD dialogue 115: coughing, dyspnea");
    expect(patientCase.profile.positive_symptom?.length).toBeGreaterThan(2);
  });
});
