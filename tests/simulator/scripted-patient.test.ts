import { describe, expect, it } from "vitest";
import type { DoctorAction } from "../../src/cmas/schemas.ts";
import type { QuestionReader } from "../../src/language/question-reader.ts";
import { loadCaseLibrary } from "../../src/simulator/case-library.ts";
import { caseFacts, type CaseFact } from "../../src/simulator/case-facts.ts";
import { scriptLine } from "../../src/simulator/lay-script.ts";
import { PatientSimulator } from "../../src/simulator/patient-simulator.ts";
import { ScriptedPatient, type ScriptedCase } from "../../src/simulator/scripted-patient.ts";

const library = loadCaseLibrary().map((entry) => ({ ...entry, script: entry.script! }));

/** A small case written for these tests: a cough with two details, a denial, a medicine and a job. */
const cough: ScriptedCase = {
  id: "cough",
  title: "A test case.",
  profile: {
    positive_symptom: [
      { value: "coughing", onset: "two weeks ago", aggravating_factor: ["night"] },
      { value: "fever" },
    ],
    negative_symptom: [{ value: "hemoptysis" }],
    positive_medication: [{ value: "ibuprofen" }],
    negative_medication: [{ value: "other" }],
    positive_family_history: [{ value: "asthma" }],
    occupation: [{ value: "baker", status: "true" }],
  },
  script: {
    speaker: "patient",
    opening: { says: "ive had this cough, two weeks now", reveals: ["symptom:coughing#onset"] },
    lines: {
      "symptom:coughing": "yeah a cough, a dry one",
      "symptom:coughing#onset": "two weeks, give or take",
      "symptom:coughing#aggravating_factor": "worse at night",
      "symptom:fever": { says: "and I've been hot and cold", reveals: ["symptom:coughing"] },
      "symptom:hemoptysis": "no blood, no",
      "medication:ibuprofen": "I take ibuprofen",
      "medication:other": "nothing else",
      "family_history:asthma": { says: "my sister has asthma", answers: ["family_history:lung diseases"] },
      occupation: "I bake bread, early shifts",
    },
    unsure: ["dunno", "not sure"],
  },
};

const ask = (slot: string, value?: string, check?: string): DoctorAction => ({
  action: "inquire",
  [slot]: [{ ...(value === undefined ? {} : { value }), ...(check ? { checks: [{ type: check }] } : {}) }],
});

describe("ScriptedPatient", () => {
  it("opens with the script's opening, revealing its facts (an attribute reveals its entry)", () => {
    const patient = new ScriptedPatient(cough);
    expect(patient.opening()).toEqual({
      text: "ive had this cough, two weeks now",
      revealed: ["symptom:coughing#onset", "symptom:coughing"],
    });
    expect([...patient.revealed]).toEqual(["symptom:coughing#onset", "symptom:coughing"]);
    expect(patient.facts).toEqual([
      "symptom:coughing",
      "symptom:coughing#onset",
      "symptom:coughing#aggravating_factor",
      "symptom:fever",
      "symptom:hemoptysis",
      "medication:ibuprofen",
      "medication:other",
      "family_history:asthma",
      "occupation",
    ]);
  });

  it("opens when the first question asks nothing of the case", () => {
    const patient = new ScriptedPatient(cough);
    expect(patient.answer({ actions: [{ action: "nod_prompt_salutations" }] }).text).toBe(
      "ive had this cough, two weeks now",
    );
    expect(patient.answer({ actions: [{ action: "nod_prompt_salutations" }] })).toEqual({
      text: "Okay.",
      revealed: [],
    });
    expect(patient.answer({ actions: [{ action: "diagnosis", disease: [{ value: "bronchitis" }] }] }).text).toBe(
      "Okay, thank you, doctor.",
    );
  });

  it("says the line of each fact asked, and the facts a line marks as volunteered", () => {
    const patient = new ScriptedPatient(cough);
    expect(patient.answer({ actions: [ask("symptom", "hemoptysis")] })).toEqual({
      text: "no blood, no",
      revealed: ["symptom:hemoptysis"],
    });
    expect(patient.answer({ actions: [ask("symptom", "fever")] })).toEqual({
      text: "and I've been hot and cold",
      revealed: ["symptom:fever", "symptom:coughing"],
    });
    // Two facts in one question: both lines, each ending a sentence.
    expect(patient.answer({ actions: [ask("symptom", "coughing", "onset"), ask("occupation")] }).text).toBe(
      "two weeks, give or take. I bake bread, early shifts",
    );
  });

  it("answers a question about a detail with the detail's line, and with 'not sure' when the case does not record it", () => {
    const patient = new ScriptedPatient(cough);
    expect(patient.answer({ actions: [ask("symptom", "coughing", "ana_factors")] })).toEqual({
      text: "worse at night",
      revealed: ["symptom:coughing#aggravating_factor", "symptom:coughing"],
    });
    // The cough's severity is not recorded: told already, so only "not sure".
    expect(patient.answer({ actions: [ask("symptom", "coughing", "severity")] })).toEqual({
      text: "dunno",
      revealed: [],
    });
    // The fever's onset is not recorded and the fever not yet told: its line, then "not sure".
    expect(new ScriptedPatient(cough).answer({ actions: [ask("symptom", "fever", "onset")] }).text).toBe(
      "and I've been hot and cold. dunno",
    );
    // A denied finding answers any check with its denial.
    expect(patient.answer({ actions: [ask("symptom", "hemoptysis", "onset")] }).text).toBe("no blood, no");
  });

  it("answers a broader question with the lines the script marks as answering it", () => {
    const patient = new ScriptedPatient(cough);
    expect(patient.answer({ actions: [ask("family_history", "lung diseases")] })).toEqual({
      text: "my sister has asthma",
      revealed: ["family_history:asthma"],
    });
    expect(patient.answer({ actions: [ask("family_history", "heart diseases")] }).text).toBe("dunno");
  });

  it("is not sure of anything the case does not state, and leaves it unanswered beside what it does", () => {
    const patient = new ScriptedPatient(cough);
    expect(patient.answer({ actions: [ask("symptom", "rash")] })).toEqual({ text: "dunno", revealed: [] });
    expect(patient.answer({ actions: [ask("family_history", "diabetes mellitus")] })).toEqual({
      text: "not sure",
      revealed: [],
    });
    expect(patient.answer({ actions: [ask("residence", "other")] }).text).toBe("dunno");
    // After the opening, a question read as asking no slot at all ("are you sexually active?") gets no "no".
    patient.opening();
    expect(patient.answer({ actions: [{ action: "inquire" }] }).text).toBe("not sure");
    expect(
      patient.answer({ actions: [{ action: "inquire", symptom: [{ value: "fever" }, { value: "chills" }] }] }).text,
    ).toBe("and I've been hot and cold");
  });

  it("answers an open question with the present entries not yet told, then with the case's own 'nothing else'", () => {
    const patient = new ScriptedPatient(cough);
    expect(patient.answer({ actions: [ask("medication", "other")] })).toEqual({
      text: "I take ibuprofen",
      revealed: ["medication:ibuprofen"],
    });
    expect(patient.answer({ actions: [ask("medication", "other")] })).toEqual({
      text: "nothing else",
      revealed: ["medication:other"],
    });
    // No open answer in the case: not sure.
    expect(patient.answer({ actions: [ask("habit", "other")] }).text).toBe("dunno");
  });

  it("reads a question given as text through its question reader, with the conversation so far", () => {
    const seen: number[] = [];
    const reader: QuestionReader = {
      read: (utterance, history = []) => {
        seen.push(history.length);
        return /job|work/.test(utterance) ? [ask("occupation")] : [];
      },
    };
    const patient = new ScriptedPatient(cough, { reader });
    expect(patient.answer({ text: "Hello, what brings you in?" }).text).toBe("ive had this cough, two weeks now");
    expect(patient.answer({ text: "What do you do for work?" }).text).toBe("I bake bread, early shifts");
    expect(seen).toEqual([0, 2]);
    // Actions, when given, are what was asked.
    expect(patient.answer({ text: "And for work?", actions: [ask("symptom", "hemoptysis")] }).text).toBe(
      "no blood, no",
    );
    expect(() => new ScriptedPatient(cough).answer({ text: "Any cough?" })).toThrow(/needs a question reader/);
  });

  it("lets the reader read later questions after an opening said without a question", () => {
    const histories: string[][] = [];
    const reader: QuestionReader = {
      read: (_utterance, history = []) => {
        histories.push(history.map((turn) => `${turn.speaker}: ${turn.text}`));
        return [ask("occupation")];
      },
    };
    const patient = new ScriptedPatient(cough, { reader });
    patient.opening();
    patient.answer({ text: "What do you do?" });
    patient.answer({ text: "And for work?" });
    expect(histories).toEqual([
      ["patient: ive had this cough, two weeks now"],
      ["patient: ive had this cough, two weeks now", "doctor: What do you do?", "patient: I bake bread, early shifts"],
    ]);
  });

  it("answers a question about 'the pain' with the case's own pain, and only a pain the case has", () => {
    const acs = library.find((entry) => entry.id === "chest-pain-acs")!;
    const where = new ScriptedPatient(acs).answer({ actions: [ask("symptom", "pain", "location")] });
    expect(where.revealed).toContain("symptom:chest pain#location");
    expect(where.text).toContain(scriptLine(acs.script, "symptom:chest pain#location")!.says);
    // A pain the case denies is not "the pain": what the case does not state gets "not sure".
    const painless = { ...cough, profile: { ...cough.profile, negative_symptom: [{ value: "chest pain" }] } };
    const script = { ...cough.script, lines: { ...cough.script.lines, "symptom:chest pain": "no chest pain" } };
    expect(new ScriptedPatient({ ...painless, script }).answer({ actions: [ask("symptom", "pain")] })).toEqual({
      text: "dunno",
      revealed: [],
    });
  });
});

/** The doctor's ideas, concerns and expectations questions, as the embedded doctor words them. */
const ICE_QUESTIONS = {
  ideas: "Have you had any thoughts yourself about what might be causing this?",
  concerns: "Is there anything in particular that's worrying you about it?",
  expectations: "What were you hoping we could do for you today?",
} as const;

/** An ICE question as self-play asks it: a lone chit-chat action and its words. */
const iceQuestion = (kind: keyof typeof ICE_QUESTIONS) => ({
  actions: [{ action: "chit-chat" } as DoctorAction],
  text: ICE_QUESTIONS[kind],
});

const coughWithIce: ScriptedCase = {
  ...cough,
  script: {
    ...cough.script,
    ice: {
      ideas: "I reckon its just a cold gone to my chest",
      concerns: "My dad had a cough like this and it was something bad",
    },
  },
};

describe("ScriptedPatient asked its ideas, concerns and expectations", () => {
  it("says the script's line for each kind asked, revealing no fact", () => {
    const patient = new ScriptedPatient(coughWithIce);
    patient.opening();
    expect(patient.answer(iceQuestion("ideas"))).toEqual({
      text: "I reckon its just a cold gone to my chest",
      revealed: [],
    });
    expect(patient.answer(iceQuestion("concerns"))).toEqual({
      text: "My dad had a cough like this and it was something bad",
      revealed: [],
    });
    expect([...patient.revealed]).toEqual(["symptom:coughing#onset", "symptom:coughing"]);
  });

  it("is not sure of a kind the script writes no line for, nor of any kind without an ice part", () => {
    const patient = new ScriptedPatient(coughWithIce);
    patient.opening();
    expect(patient.answer(iceQuestion("expectations"))).toEqual({ text: "dunno", revealed: [] });
    const plain = new ScriptedPatient(cough);
    plain.opening();
    for (const kind of ["ideas", "concerns", "expectations"] as const)
      expect(plain.answer(iceQuestion(kind)).text).toMatch(/^(dunno|not sure)$/);
  });

  it("says it again as a person does when asked a second time", () => {
    const patient = new ScriptedPatient(coughWithIce);
    patient.opening();
    patient.answer(iceQuestion("concerns"));
    expect(patient.answer(iceQuestion("concerns"))).toEqual({
      text: "Like I said, my dad had a cough like this and it was something bad",
      revealed: [],
    });
    // A line that starts with "I" keeps its capital.
    patient.answer(iceQuestion("ideas"));
    expect(patient.answer(iceQuestion("ideas")).text).toBe("Like I said, I reckon its just a cold gone to my chest");
  });

  it("answers two kinds asked at once, and the facts a question also asks before them", () => {
    const patient = new ScriptedPatient(coughWithIce);
    patient.opening();
    expect(
      patient.answer({
        actions: [{ action: "chit-chat" }],
        text: "What do you think is going on, and is anything worrying you?",
      }).text,
    ).toBe("I reckon its just a cold gone to my chest. My dad had a cough like this and it was something bad");
    const asked = new ScriptedPatient(coughWithIce).answer({
      actions: [ask("occupation")],
      text: "What do you do for work, and what do you think might be causing this?",
    });
    expect(asked).toEqual({
      text: "I bake bread, early shifts. I reckon its just a cold gone to my chest",
      revealed: ["occupation"],
    });
  });

  it("answers an ICE question given as text alone, read by its reader, with the line and not the reader's 'not sure'", () => {
    // A reader that hears a question about nothing the case holds in the ICE question: its "not sure" gives way.
    const reader: QuestionReader = { read: () => [{ action: "inquire", symptom: [{ value: "rash" }] }] };
    const patient = new ScriptedPatient(coughWithIce, { reader });
    patient.opening();
    expect(patient.answer({ text: ICE_QUESTIONS.ideas })).toEqual({
      text: "I reckon its just a cold gone to my chest",
      revealed: [],
    });
  });
});

describe("the scripted patient through the package entry, as docs/chat.md shows it", () => {
  it("answers a doctor's words read by the embedded engine's question reader", async () => {
    const { buildQuestionReader, loadCaseLibrary, loadMeditod, loadTrainingData, ScriptedPatient } =
      await import("../../index.ts");
    const reader = buildQuestionReader(loadTrainingData(loadMeditod(), "train"));
    const acs = loadCaseLibrary().find((entry) => entry.id === "chest-pain-acs")!;
    const patient = new ScriptedPatient({ ...acs, script: acs.script! }, { reader });
    patient.opening();
    const severity = patient.answer({ text: "How bad is the pain out of ten?" });
    expect(severity.revealed).toContain("symptom:chest pain#severity");
    expect(severity.text).toBe(scriptLine(acs.script!, "symptom:chest pain#severity")!.says);
    expect(patient.answer({ text: "Do you smoke?" }).revealed).toEqual(["habit:smoking"]);
  });

  it("answers the embedded doctor's ICE questions, read by the embedded reader, with the case's lines and no fact, for every case", async () => {
    const { buildQuestionReader, loadCaseLibrary, loadMeditod, loadTrainingData, ScriptedPatient } =
      await import("../../index.ts");
    const reader = buildQuestionReader(loadTrainingData(loadMeditod(), "train"));
    for (const entry of loadCaseLibrary()) {
      const patient = new ScriptedPatient({ ...entry, script: entry.script! }, { reader });
      patient.opening();
      for (const kind of ["ideas", "concerns", "expectations"] as const)
        expect(patient.answer({ text: ICE_QUESTIONS[kind] }), `${entry.id} ${kind}`).toEqual({
          text: entry.script!.ice![kind],
          revealed: [],
        });
    }
  });
});

/** A doctor's question that asks one fact of a case alone. */
function questionFor(fact: CaseFact): DoctorAction {
  if (fact.status === null) return ask(fact.slot);
  return ask(fact.slot, fact.value, fact.attribute);
}

describe("the scripted patients of the case library", () => {
  it("say, for every fact asked alone, its line and never a fact it was not asked about beyond what the line marks", () => {
    let checked = 0;
    for (const patientCase of library) {
      const facts = caseFacts(patientCase.profile);
      for (const fact of facts) {
        const patient = new ScriptedPatient(patientCase);
        // "Any other medicines?" is answered by the case's "nothing else" only once the present ones are told.
        if (fact.value === "other")
          for (const present of facts.filter((other) => other.slot === fact.slot && other.status === "positive"))
            patient.answer({ actions: [questionFor(present)] });
        const line = scriptLine(patientCase.script, fact.id)!;
        const answer = patient.answer({ actions: [questionFor(fact)] });
        const sameEntry = (id: string) => facts.find((other) => other.id === id)?.entry ?? id;
        const allowed = new Set([fact.id, fact.entry, ...line.reveals, ...line.reveals.map(sameEntry)]);
        // An attribute question may also ask the entry's other attributes of the same check ("onset" asks initiation too).
        const entryFacts = facts.filter((other) => fact.entry !== undefined && other.entry === fact.entry);
        const told = answer.revealed.filter((id) => !allowed.has(id) && !entryFacts.some((other) => other.id === id));
        expect(told, `${patientCase.id} ${fact.id}`).toEqual([]);
        expect(answer.revealed, `${patientCase.id} ${fact.id}`).toContain(fact.id);
        expect(answer.text, `${patientCase.id} ${fact.id}`).toContain(line.says);
        // Never the lexicon's words: the profile patient's answer to the same question is not what the script says.
        expect(answer.text).not.toBe(new PatientSimulator(patientCase).answer([questionFor(fact)]));
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it("say their own ideas, concerns and expectations when asked, and never reveal a fact with them", () => {
    for (const patientCase of library) {
      const patient = new ScriptedPatient(patientCase);
      patient.opening();
      const before = [...patient.revealed];
      for (const kind of ["ideas", "concerns", "expectations"] as const) {
        const line = patientCase.script.ice?.[kind];
        expect(line, `${patientCase.id} ${kind}`).toBeDefined();
        expect(patient.answer(iceQuestion(kind)), `${patientCase.id} ${kind}`).toEqual({ text: line, revealed: [] });
      }
      expect([...patient.revealed], patientCase.id).toEqual(before);
      // Not "not sure", and not a fact line of the case: an ICE line says something no fact line does.
      const lines = Object.keys(patientCase.script.lines).map((fact) => scriptLine(patientCase.script, fact)!.says);
      for (const line of Object.values(patientCase.script.ice ?? {})) {
        expect(patientCase.script.unsure ?? [], patientCase.id).not.toContain(line);
        expect(lines, patientCase.id).not.toContain(line);
      }
    }
  });

  it("volunteer nothing to a question about what their case does not hold", () => {
    for (const patientCase of library) {
      const patient = new ScriptedPatient(patientCase);
      const answer = patient.answer({ actions: [ask("symptom", "no such finding"), ask("medical_history", "gout")] });
      expect(answer.revealed).toEqual([]);
      expect(patientCase.script.unsure ?? ["I'm not sure."]).toContain(answer.text);
    }
  });
});
