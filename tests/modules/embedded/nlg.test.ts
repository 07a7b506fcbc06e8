import { describe, expect, it } from "vitest";
import { loadMeditod } from "../../../src/data/meditod.ts";
import { buildEmbeddedNlg, realiseFromTemplates } from "../../../src/modules/embedded/nlg.ts";
import { aboutThePatientOf } from "../../../src/modules/embedded/nlg/proxy-wording.ts";
import { joinAlternatives, layTerm } from "../../../src/language/lay-terms.ts";
import { loadTrainingData } from "../../../src/modules/embedded/training-data.ts";
import type { DoctorAction } from "../../../src/cmas/schemas.ts";

const dataset = loadMeditod();
const training = loadTrainingData(dataset, "train");
const nlg = buildEmbeddedNlg(training);
const say = async (actions: DoctorAction[]) => (await nlg.realise({ history: [], actions })).text;

describe("embedded NLG", () => {
  it("reuses a training utterance for exactly its actions", async () => {
    const turn = dataset.dialogues.get("115")!.utterances[2]!;
    expect(turn.speaker).toBe("doctor");
    if (turn.speaker === "doctor") expect(await say(turn.actions)).toBe(turn.text);
  });

  it("rewords a training utterance of the same shape with the new value in lay terms", async () => {
    const text = await say([{ action: "inquire", symptom: [{ value: "nausea" }] }]);
    expect(text.toLowerCase()).toContain("nausea");
    expect(text).toMatch(/\?$/);
    const dyspnea = await say([{ action: "inquire", symptom: [{ value: "dyspnea", checks: [{ type: "onset" }] }] }]);
    expect(dyspnea).toContain("shortness of breath");
    expect(dyspnea).not.toContain("dyspnea");
  });

  it("says a short answer back before the next question, in transcript wording only", async () => {
    const actions: DoctorAction[] = [{ action: "inquire", symptom: [{ value: "nausea" }] }];
    const history = [
      { speaker: "doctor" as const, text: "Any chest pain?" },
      { speaker: "patient" as const, text: "Uh, no." },
    ];
    expect((await nlg.realise({ history, actions })).text).toMatch(/^No, OK\. And .*nausea/);
    // A long answer is not echoed, and the clean wording (the chat) never echoes.
    const long = [history[0]!, { speaker: "patient" as const, text: "No, I haven't had anything like that at all." }];
    expect((await nlg.realise({ history: long, actions })).text).not.toMatch(/^No/);
    expect((await buildEmbeddedNlg(training, "clean").realise({ history, actions })).text).toMatch(/^OK, and/);
    // Structure names are spoken as the body part.
    expect(layTerm("structure of calf of leg")).toBe("calf");
  });

  it("closes a chat: the questions are done, then the working diagnosis before the tests that confirm it", async () => {
    const clean = buildEmbeddedNlg(training, "clean");
    // The patient's idea, worry and wish already heard: the lone chit-chat is the closing.
    const history = [
      {
        speaker: "patient" as const,
        text: "I think it's a chest infection and I'm worried. I was hoping to get antibiotics.",
      },
      { speaker: "doctor" as const, text: "Where do you live?" },
      { speaker: "patient" as const, text: "In a house with my wife." },
    ];
    expect((await clean.realise({ history, actions: [{ action: "chit-chat" }] })).text).toMatch(
      /any questions for me\?$/,
    );
    // A chit-chat answering the patient's own question is not the closing.
    const asked = [
      ...history,
      { speaker: "doctor" as const, text: "OK." },
      { speaker: "patient" as const, text: "Is it serious?" },
    ];
    expect((await clean.realise({ history: asked, actions: [{ action: "chit-chat" }] })).text).not.toMatch(/questions/);
    const closing = await clean.realise({
      history,
      actions: [
        { action: "inquire", medical_test: [{ value: "pulmonary function tests" }, { value: "plain x-ray" }] },
        { action: "diagnosis", disease: [{ value: "chronic bronchitis" }] },
      ],
    });
    expect(closing.text).toBe(
      "From what you've told me, this could be chronic bronchitis. We'll arrange breathing tests and x-ray to confirm it.",
    );
  });

  it("words each kind of question the way a doctor asks it", () => {
    expect(realiseFromTemplates([{ action: "inquire", habit: [{ value: "smoking" }] }])).toBe("OK, and do you smoke?");
    expect(realiseFromTemplates([{ action: "inquire", medical_history: [{ value: "past experience" }] }])).toBe(
      "OK, and have you ever had anything like this before?",
    );
    expect(
      realiseFromTemplates([
        { action: "inquire", symptom: [{ value: "pain", checks: [{ type: "location", values: ["abdomen"] }] }] },
      ]),
    ).toBe("OK, and have you had any abdominal pain?");
  });

  it("words unseen shapes from the ontology templates and joins several actions", async () => {
    const text = await say([
      { action: "inquire", travel: [{ value: "other" }] },
      { action: "inquire", occupation: [{ value: "other" }] },
    ]);
    expect(text).toMatch(/travel/i);
    expect(text).toMatch(/work/i);
    expect(realiseFromTemplates([{ action: "inquire", symptom: [{ value: "fever" }, { value: "chills" }] }])).toBe(
      "OK, and have you had any fevers or chills?",
    );
    expect(
      realiseFromTemplates([{ action: "inquire", symptom: [{ value: "pain", checks: [{ type: "severity" }] }] }]),
    ).toBe("OK, and on a scale of one to ten, how bad is the pain?");
  });

  it("speaks placeholder values by slot and joins alternatives", () => {
    expect(realiseFromTemplates([{ action: "inquire", medication: [{ value: "other" }] }])).toBe(
      "OK, and are you taking any other medications?",
    );
    expect(layTerm("dyspnea")).toBe("shortness of breath");
    expect(layTerm("some rare finding")).toBe("some rare finding");
    expect(joinAlternatives(["a", "b", "c"])).toBe("a, b or c");
  });

  it("answers every doctor turn of the valid split with non-empty text", async () => {
    const turns = [...dataset.dialogues.get("317")!.utterances.entries()].filter(
      ([index, utterance]) => index > 0 && utterance.speaker === "doctor",
    );
    for (const [, utterance] of turns) {
      if (utterance.speaker !== "doctor") continue;
      const result = await nlg.realise({ history: [], actions: utterance.actions });
      expect(result.text.length).toBeGreaterThan(1);
    }
  });
});

describe("embedded NLG, clean wording (the chat)", () => {
  it("speaks from our templates, never from disfluent transcripts", async () => {
    const clean = buildEmbeddedNlg(training, "clean");
    const turn = dataset.dialogues.get("115")!.utterances[12]!;
    if (turn.speaker !== "doctor") throw new Error("expected a doctor turn");
    const text = (await clean.realise({ history: [], actions: turn.actions })).text;
    expect(text).toBe("OK, and when did the shortness of breath start?");
    expect(text).not.toBe(turn.text);
  });

  it("words an open question as an invitation to tell the complaint, then as a second, gentler one", async () => {
    const clean = buildEmbeddedNlg(training, "clean");
    const invite = [{ action: "inquire" as const }];
    const first = await clean.realise({
      history: [
        { speaker: "doctor", text: "What brings you in today?" },
        { speaker: "patient", text: "hi" },
      ],
      actions: invite,
    });
    expect(first.text).toBe("Could you tell me a little more about what's been troubling you?");
    // Negative control: later in the history a bare open question is the usual "anything else?".
    const later = [
      { speaker: "doctor" as const, text: "What brings you in today?" },
      { speaker: "patient" as const, text: "A cough." },
      { speaker: "doctor" as const, text: "When did it start?" },
      { speaker: "patient" as const, text: "Monday." },
      { speaker: "doctor" as const, text: "Is it dry?" },
      { speaker: "patient" as const, text: "Yes." },
    ];
    expect((await clean.realise({ history: later, actions: invite })).text).toBe(
      "Is there anything else you'd like to tell me?",
    );
  });
});

describe("what a confusion is like, asked in words a relative can answer", () => {
  const describeIt = (value: string): DoctorAction[] => [
    { action: "inquire", symptom: [{ value, checks: [{ type: "characteristics" }] }] },
  ];

  it("asks what the confusion is like, not to 'describe the confusion'", async () => {
    const text = (await buildEmbeddedNlg(training, "clean").realise({ history: [], actions: describeIt("confusion") }))
      .text;
    expect(text).toContain("what is the confusion like: mixed up about the time or where you are");
    // Negative control: another symptom keeps the general question.
    const cough = (await buildEmbeddedNlg(training, "clean").realise({ history: [], actions: describeIt("coughing") }))
      .text;
    expect(cough).toMatch(/describe the cough/);
  });
});

describe("the nappy question worded for the child's age", () => {
  it("asks a parent of a 4-year-old about weeing; negative control: a toddler of 18 months is asked about nappies", () => {
    const question = "have you had fewer wet nappies than usual in the last day?";
    const parent = (patientAge: string) => ({ relation: "parent" as const, patientAge, patientSex: "male" as const });
    expect(aboutThePatientOf(question, parent("4 years"))).toBe("has he been weeing less than usual in the last day?");
    expect(aboutThePatientOf(question, parent("18 months"))).toBe(
      "has he had fewer wet nappies than usual in the last day?",
    );
  });
});
