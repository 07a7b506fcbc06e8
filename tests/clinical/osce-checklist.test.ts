import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isAnamnesisError } from "../../src/foundation/errors.ts";
import {
  inferComplaintSystem,
  scoreOsceChecklist,
  type ChecklistCase,
  type ChecklistResult,
  type ChecklistTurn,
} from "../../src/clinical/osce-checklist.ts";
import { loadOsceChecklist, parseOsceChecklist } from "../../src/clinical/osce-checklist-rules.ts";
import { contentWords, normaliseUtterance } from "../../src/clinical/checklist-text.ts";
import { BENCHMARKS_DOC, checklistTable } from "../../docs/osce-checklist-table.ts";
import {
  asConsultation,
  COMPLAINT_BLIND_QUESTIONS,
  FOCUSED_HISTORIES,
  ICE_QUESTIONS_AT_END,
} from "../../test-support/osce-histories.ts";

const checklist = loadOsceChecklist();
const chestPain: ChecklistCase = { complaint: "chest pain", pain: true, age: 40, sex: "female" };
const doctor = (text: string): ChecklistTurn => ({ speaker: "doctor", text });
const patient = (text: string): ChecklistTurn => ({ speaker: "patient", text });

const itemOf = (result: ChecklistResult, id: string) => result.items.find((item) => item.id === id)!;
const coveredIds = (result: ChecklistResult): string[] =>
  result.items.filter((item) => item.covered).map((item) => item.id);
const applicableIds = (patientCase: ChecklistCase): string[] =>
  scoreOsceChecklist([], patientCase)
    .items.filter((item) => item.applicable)
    .map((item) => item.id);

/** The ids of the items one doctor question covers, for the chest-pain case. */
function coveredBy(question: string, patientCase: ChecklistCase = chestPain): string[] {
  return coveredIds(scoreOsceChecklist([doctor(question)], patientCase));
}

describe("every checklist item's examples (ontology/osce-checklist.json)", () => {
  const cases = checklist.items.flatMap((item) => [
    ...item.examples.covers.map((question) => ({ id: item.id, question, covers: true })),
    ...item.examples.misses.map((question) => ({ id: item.id, question, covers: false })),
  ]);

  it("has at least one example and one near miss for every item", () => {
    for (const item of checklist.items) {
      expect(item.examples.covers.length, item.id).toBeGreaterThan(0);
      expect(item.examples.misses.length, item.id).toBeGreaterThan(0);
    }
  });

  it.each(cases)("$id: $covers ← $question", ({ id, question, covers }) => {
    expect(coveredBy(question).includes(id)).toBe(covers);
  });
});

describe("honesty: the checklist is not satisfied by asking generic questions", () => {
  it("has a complaint-blind list of 20 to 30 questions and a focused history for every body system", () => {
    expect(COMPLAINT_BLIND_QUESTIONS.length).toBeGreaterThanOrEqual(20);
    expect(COMPLAINT_BLIND_QUESTIONS.length).toBeLessThanOrEqual(30);
    expect(FOCUSED_HISTORIES.map((history) => history.system).sort()).toEqual([...checklist.systems.keys()].sort());
  });

  it.each(FOCUSED_HISTORIES)("$system: the complaint-blind list scores clearly below a focused history", (history) => {
    const focused = scoreOsceChecklist(asConsultation(history.questions), history.patient);
    const blind = scoreOsceChecklist(asConsultation(COMPLAINT_BLIND_QUESTIONS), history.patient);
    expect(focused.coverage).toBeGreaterThanOrEqual(0.9);
    expect(blind.coverage).toBeLessThanOrEqual(focused.coverage - 0.15);
    expect(focused.repeatedQuestions).toBe(0);
    expect(focused.offTopicBeforeComplaintDone).toBe(0);
  });

  it.each(FOCUSED_HISTORIES)(
    "$system: a history that never asks ideas, concerns or expectations gets none of them",
    (history) => {
      const withoutIce = history.questions.slice(0, -ICE_QUESTIONS_AT_END);
      const result = scoreOsceChecklist(asConsultation(withoutIce), history.patient);
      for (const id of ["ideas", "concerns", "expectations"]) expect(itemOf(result, id).covered, id).toBe(false);
      const all = scoreOsceChecklist(asConsultation(history.questions), history.patient);
      for (const id of ["ideas", "concerns", "expectations"]) expect(itemOf(all, id).covered, id).toBe(true);
    },
  );

  it("gives the blind list neither ideas nor expectations, nor the pain items it never asks", () => {
    const blind = scoreOsceChecklist(asConsultation(COMPLAINT_BLIND_QUESTIONS), chestPain);
    for (const id of ["ideas", "expectations", "pain_site", "pain_character", "pain_radiation", "pain_severity"])
      expect(itemOf(blind, id).covered, id).toBe(false);
  });

  it("credits radiation only for the presenting pain, not for another pain elsewhere", () => {
    for (const question of [
      "Any pain anywhere else?",
      "Do you have pain anywhere else in your body?",
      "Are you hurting anywhere else?",
    ])
      expect(coveredBy(question), question).not.toContain("pain_radiation");
    for (const question of [
      "Does the pain go anywhere else?",
      "Does it move into your arm or jaw?",
      "Do you feel it anywhere else?",
    ])
      expect(coveredBy(question), question).toContain("pain_radiation");
  });
});

describe("which items apply", () => {
  it("asks the pain items only of a pain", () => {
    expect(applicableIds({ complaint: "cough", pain: false })).not.toContain("pain_site");
    expect(applicableIds({ complaint: "knee pain", pain: true })).toContain("pain_site");
  });

  it("asks about pregnancy of women from 12 to 55 only, and not when age or sex is unknown", () => {
    const pregnancyApplies = (patientCase: ChecklistCase) => applicableIds(patientCase).includes("pregnancy");
    expect(pregnancyApplies({ complaint: "tummy pain", pain: true, age: 30, sex: "female" })).toBe(true);
    expect(pregnancyApplies({ complaint: "tummy pain", pain: true, age: 30, sex: "male" })).toBe(false);
    expect(pregnancyApplies({ complaint: "tummy pain", pain: true, age: 70, sex: "female" })).toBe(false);
    expect(pregnancyApplies({ complaint: "tummy pain", pain: true, age: 8, sex: "female" })).toBe(false);
    expect(pregnancyApplies({ complaint: "tummy pain", pain: true, sex: "female" })).toBe(false);
  });

  it("asks a young child's history of birth, development and immunisation instead of smoking, alcohol and work", () => {
    const toddler = applicableIds({ complaint: "a cough", pain: false, age: 2, sex: "male" });
    expect(toddler).toEqual(expect.arrayContaining(["immunisations", "birth_development", "living_situation"]));
    for (const id of ["smoking", "alcohol", "occupation"]) expect(toddler).not.toContain(id);
    const adult = applicableIds({ complaint: "a cough", pain: false, age: 40 });
    expect(adult).toEqual(expect.arrayContaining(["smoking", "alcohol", "occupation"]));
    expect(adult).not.toContain("immunisations");
    expect(applicableIds({ complaint: "a cough", pain: false })).toContain("smoking");
  });

  it("reviews the complaint's own system, without the symptom the patient came with", () => {
    const ids = applicableIds({ complaint: "central chest pain", pain: true, system: "cardiovascular" });
    expect(ids).toEqual(expect.arrayContaining(["review_cardio_palpitations", "review_cardio_breathlessness"]));
    expect(ids).not.toContain("review_cardio_chest_pain");
    expect(ids.some((id) => id.startsWith("review_gi_"))).toBe(false);
  });

  it("rejects a system it does not know with one clear error", () => {
    let error: unknown;
    try {
      scoreOsceChecklist([], { complaint: "cough", pain: false, system: "pulmonology" });
    } catch (caught) {
      error = caught;
    }
    expect(isAnamnesisError(error) && error.code).toBe("INVALID_ARGUMENT");
    expect((error as Error).message).toMatch(/^unknown body system 'pulmonology' \(one of: cardiovascular, /);
  });
});

describe("coverage and first turns", () => {
  it("reports every item in the file's order, with the index in the turns of the first doctor turn that covered it", () => {
    const turns = [
      doctor("Hello, I'm one of the doctors. What brings you in today?"),
      patient("I've got a pain in my chest."),
      doctor("I'm sorry to hear that. When did it start?"),
      patient("This morning."),
      doctor("And when did it start, exactly?"),
    ];
    const result = scoreOsceChecklist(turns, chestPain);
    expect(result.items.map((item) => item.id)).toEqual(checklist.items.map((item) => item.id));
    expect(itemOf(result, "presenting_complaint")).toMatchObject({ covered: true, firstTurn: 0, applicable: true });
    expect(itemOf(result, "onset")).toMatchObject({ covered: true, firstTurn: 2 });
    expect(itemOf(result, "family_history")).toMatchObject({ covered: false, firstTurn: null, applicable: true });
    const applicable = result.items.filter((item) => item.applicable);
    const covered = applicable.filter((item) => item.covered).length;
    expect(covered).toBe(3); // presenting complaint, onset, duration
    expect(result.coverage).toBe(covered / applicable.length);
  });

  it("scores an empty consultation 0", () => {
    expect(scoreOsceChecklist([], chestPain)).toMatchObject({
      coverage: 0,
      repeatedQuestions: 0,
      offTopicBeforeComplaintDone: 0,
    });
  });

  it("reads only the doctor's questions: not statements, the patient, or measurements", () => {
    expect(coveredBy("I'll ask about your family history in a moment.")).toEqual([]);
    expect(coveredBy("any allergies")).toContain("allergies");
    const turns: ChecklistTurn[] = [
      patient("Do you smoke, doctor?"),
      { speaker: "measurement", text: "Do you drink alcohol? Chest X-ray: clear." },
    ];
    expect(coveredIds(scoreOsceChecklist(turns, chestPain))).toEqual([]);
  });

  it("reads a question that points back together with the statements before it", () => {
    const lead = "Sometimes when people feel this low, they have thoughts of ending their life.";
    expect(coveredBy(`${lead} Have you had any thoughts like that?`)).toContain("review_psych_self_harm");
    expect(coveredBy("Have you had any thoughts like that?")).not.toContain("review_psych_self_harm");
    // A question that does not point back is read alone.
    expect(coveredBy("Thanks for telling me about your tablets. Do you smoke?")).toEqual(["smoking"]);
  });

  it("counts a symptom of the complaint's own system as an associated symptom, not one of another system", () => {
    expect(coveredBy("Are you short of breath?")).toContain("associated_symptoms");
    expect(coveredBy("Have you noticed any rashes?")).not.toContain("associated_symptoms");
    const backPain: ChecklistCase = { complaint: "low back pain", pain: true, system: "musculoskeletal" };
    expect(coveredBy("Did you hurt it lifting something or have a fall?", backPain)).not.toContain(
      "associated_symptoms",
    );
  });
});

describe("how a turn is read", () => {
  it("normalises case, quotes and contractions, and keeps possessives", () => {
    expect(
      normaliseUtterance(
        "What\u2019s brought you in?  I DON\u2019T know \u2014 can't say; the doctor's room, I\u2019m sure you\u2019ve seen it.",
      ),
    ).toBe("what is brought you in? i do not know - cannot say; the doctor's room, i am sure you have seen it.");
  });

  it("reduces a question to its content words, by stem", () => {
    const functionWords = new Set(["do", "you", "any", "at", "all", "have"]);
    expect([...contentWords("do you smoke at all?", functionWords)]).toEqual(["smoke"]);
    expect([...contentWords("have you smoked any cigarettes?", functionWords)]).toEqual(["smoke", "cigarett"]);
  });
});

describe("repeated questions", () => {
  const repeats = (turns: ChecklistTurn[]) => scoreOsceChecklist(turns, chestPain).repeatedQuestions;

  it("counts a question that asks nothing new of an item already asked", () => {
    expect(repeats([doctor("Do you smoke?"), patient("No."), doctor("Do you smoke?")])).toBe(1);
    expect(repeats([doctor("Do you smoke or drink?"), patient("Neither."), doctor("Do you smoke at all?")])).toBe(1);
    expect(repeats([doctor("Any allergies?"), doctor("Any allergies?"), doctor("Any allergies?")])).toBe(2);
  });

  it("does not count a question that names something new, or covers a new item", () => {
    expect(repeats([doctor("When did it start?"), patient("Monday."), doctor("When did the cough start?")])).toBe(0);
    expect(
      repeats([
        doctor("Do you smoke?"),
        patient("No."),
        doctor("How many cigarettes did you smoke before you stopped?"),
      ]),
    ).toBe(0);
    expect(repeats([doctor("Do you smoke?"), patient("No."), doctor("Do you smoke or drink?")])).toBe(0);
  });

  it("does not count asking again after the patient asked to repeat or explain, nor a check-back", () => {
    const asked = doctor("Do you have any allergies?");
    expect(repeats([asked, patient("Sorry, what do you mean?"), asked])).toBe(0);
    expect(repeats([asked, patient("Pardon?"), asked])).toBe(0);
    expect(repeats([asked, patient("No, none."), asked])).toBe(1);
    expect(repeats([doctor("Do you smoke?"), patient("No."), doctor("Just to confirm, you don't smoke at all?")])).toBe(
      0,
    );
  });

  it("never counts questions it cannot read", () => {
    expect(repeats([doctor("How are things?"), doctor("How are things?")])).toBe(0);
  });
});

describe("questions about unrelated systems before the complaint's own history is done", () => {
  const coreQuestions = [
    "When did it start?",
    "Is it getting worse?",
    "Where is the pain?",
    "What does it feel like?",
    "Does it spread anywhere?",
    "Is it there all the time?",
    "Does anything make it better or worse?",
    "How bad is it out of ten?",
    "Any other symptoms with it?",
  ];

  it("counts them only before the complaint's own items are done", () => {
    const early = ["What brings you in?", "Any rashes?", "Any diarrhoea?", ...coreQuestions, "Any rashes or itching?"];
    expect(scoreOsceChecklist(asConsultation(early), chestPain).offTopicBeforeComplaintDone).toBe(2);
    const late = ["What brings you in?", ...coreQuestions, "Any rashes?", "Any diarrhoea?"];
    expect(scoreOsceChecklist(asConsultation(late), chestPain).offTopicBeforeComplaintDone).toBe(0);
  });

  it("does not count questions on the complaint's related systems, constitutional symptoms, or with the complaint", () => {
    const questions = [
      "Do you have a cough?",
      "Any fevers?",
      "Have you lost weight?",
      "Do you feel sick with the pain?",
    ];
    expect(scoreOsceChecklist(asConsultation(questions), chestPain).offTopicBeforeComplaintDone).toBe(0);
    const tired: ChecklistCase = { complaint: "tired all the time", pain: false };
    expect(
      scoreOsceChecklist(asConsultation(["Any rashes?", "Any diarrhoea?"]), tired).offTopicBeforeComplaintDone,
    ).toBe(0);
  });
});

describe("the complaint's system, inferred from its words", () => {
  it("agrees with the body system the case library states for each of its cases", () => {
    const library = JSON.parse(readFileSync(new URL("../../data/cases/library.json", import.meta.url), "utf8")) as {
      cases: Array<{ id: string; system: string; title: string }>;
    };
    for (const libraryCase of library.cases)
      expect(inferComplaintSystem(libraryCase.title), libraryCase.id).toBe(libraryCase.system);
  });

  it.each([
    ["cough", "respiratory"],
    ["fever and a cough", "respiratory"],
    ["palpitations", "cardiovascular"],
    ["heartburn after meals", "gastrointestinal"],
    [
      "A 37-year-old woman with a history of diabetes presents complaining of blood in her urine and flank pain",
      "genitourinary",
    ],
    ["Double vision", "neurological"],
    ["my back hurts", "musculoskeletal"],
    ["an itchy rash on both arms", "dermatological"],
    ["low mood since the winter", "psychiatric"],
    ["feeling tired all the time", "general"],
    ["something is not right", "general"],
  ])("%s → %s", (complaint, system) => {
    expect(inferComplaintSystem(complaint)).toBe(system);
  });
});

describe("docs/benchmarks.md", () => {
  it("shows the checklist's current systems and items (npx tsx docs/osce-checklist-table.ts rewrites them)", () => {
    expect(readFileSync(BENCHMARKS_DOC, "utf8")).toContain(checklistTable());
  });
});

describe("the checklist file is checked when it is read", () => {
  const bundled = (): Record<string, unknown> & { items: Array<Record<string, unknown>> } =>
    JSON.parse(readFileSync(new URL("../../ontology/osce-checklist.json", import.meta.url), "utf8"));

  it("names the file and the problem", () => {
    const missingNearMiss = bundled();
    missingNearMiss.items[0]!.examples = { covers: ["What brings you in?"], misses: [] };
    expect(() => parseOsceChecklist(JSON.stringify(missingNearMiss))).toThrow(
      /^ontology\/osce-checklist\.json: items\.0\.examples\.misses/,
    );
    const unknownPattern = bundled();
    unknownPattern.items[0]!.rules = [{ all: ["{no_such_pattern}"] }];
    expect(() => parseOsceChecklist(JSON.stringify(unknownPattern))).toThrow(
      /item 'presenting_complaint': unknown named pattern \{no_such_pattern\}/,
    );
    const badRegex = bundled();
    badRegex.items[1]!.rules = [{ all: ["(unclosed"] }];
    expect(() => parseOsceChecklist(JSON.stringify(badRegex))).toThrow(
      /item 'onset': '\(unclosed' is not a regular expression/,
    );
    const unknownSystem = bundled();
    const review = unknownSystem.items.find((item) => item.review_of !== undefined)!;
    review.review_of = "ophthalmology";
    expect(() => parseOsceChecklist(JSON.stringify(unknownSystem))).toThrow(/unknown system 'ophthalmology'/);
    const badExample = bundled() as ReturnType<typeof bundled> & { patterns: Record<string, { example: string }> };
    badExample.patterns.you!.example = "Does anyone smoke?";
    expect(() => parseOsceChecklist(JSON.stringify(badExample))).toThrow(/pattern 'you' does not match its example/);
    const capital = bundled();
    capital.items[2]!.rules = [{ all: ["\\bWhen did\\b"] }];
    expect(() => parseOsceChecklist(JSON.stringify(capital))).toThrow(/item 'duration': .* has a capital letter/);
  });
});
