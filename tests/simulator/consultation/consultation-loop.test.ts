import { describe, expect, it } from "vitest";
import type { ConsultCase } from "../../../src/simulator/consultation/consult-case.ts";
import type { DoctorMove, DoctorRole } from "../../../src/simulator/consultation/consult-roles.ts";
import {
  loadAgentClinicConsultations,
  loadMediqConsultations,
} from "../../../src/simulator/consultation/consult-dataset.ts";
import { runConsultation, runFullInformation } from "../../../src/simulator/consultation/consultation-loop.ts";
import { complaintBlindDoctor, complaintBlindQuestions } from "../../../src/simulator/consultation/controls.ts";
import { readDoctorReply } from "../../../src/simulator/consultation/doctor-reply.ts";
import { EMBEDDED_PATIENT } from "../../../src/simulator/consultation/embedded-patient.ts";
import { spokenFact, voiceFor } from "../../../src/simulator/consultation/patient-voice.ts";

/** The consultation loop's limits and endings, with scripted doctors; how replies are read; how facts are said. */

const mediqCase = loadMediqConsultations().splits.icraft![0]!;
const clinicCase = loadAgentClinicConsultations().splits.medqa![0]!;

/** A doctor that asks `question` every turn and, told to answer, answers `answer`. */
function asking(question: string, answer: string | null): DoctorRole {
  return {
    id: "scripted",
    start: () => ({
      next: async (_turns, context): Promise<DoctorMove> =>
        context.final ? { kind: "answer", text: `DIAGNOSIS: ${answer}`, answer } : { kind: "question", text: question },
      decide: async (): Promise<DoctorMove> => ({ kind: "answer", text: `ANSWER: ${answer}`, answer }),
    }),
  };
}

const setup = (doctor: DoctorRole) => ({
  doctor,
  patient: EMBEDDED_PATIENT,
  tracker: null,
  limits: { maxQuestions: 4, maxTurns: 5 },
});

describe("the consultation loop", () => {
  it("MediQ: a doctor that never commits asks its whole budget, then must answer, and the case is a timeout", async () => {
    const record = await runConsultation(mediqCase, setup(asking("Have you had a fever?", "A")));
    expect(record).toMatchObject({ answer: "A", ending: "timeout", timeout: true, questions: 4, requests: 0 });
    // The patient's opening statement, then four questions and answers, then the forced answer.
    expect(record.turns.map((turn) => turn.speaker)).toEqual([
      "patient",
      ...Array(4).fill(["doctor", "patient"]).flat(),
      "doctor",
    ]);
    expect(record.turns[0]!.revealed).toEqual(mediqCase.opening!.facts);
    expect(record.turns[2]).toMatchObject({ speaker: "patient", revealed: ["5"] });
  });

  it("AgentClinic: the last turn tells the doctor to answer; answering only then is a timeout", async () => {
    const record = await runConsultation(clinicCase, setup(asking("Do you smoke?", "myasthenia gravis")));
    expect(record).toMatchObject({ answer: "myasthenia gravis", ending: "timeout", timeout: true, questions: 4 });
    expect(record.turns.at(-1)).toMatchObject({ speaker: "doctor", move: "answer" });
    expect(record.turns[1]).toMatchObject({ speaker: "patient", text: "Non-smoker.", revealed: ["social_history.1"] });
  });

  it("AgentClinic: a request for a test is answered by the measurement reader from the findings", async () => {
    let turn = 0;
    const requester: DoctorRole = {
      id: "requester",
      start: () => ({
        next: async (): Promise<DoctorMove> => {
          turn += 1;
          if (turn === 1) return { kind: "request", text: "REQUEST TEST: EMG", request: "EMG" };
          if (turn === 2) return { kind: "request", text: "REQUEST TEST: skull X-ray", request: "skull X-ray" };
          return { kind: "answer", text: "DIAGNOSIS: myasthenia gravis", answer: "myasthenia gravis" };
        },
        decide: async (): Promise<DoctorMove> => ({ kind: "answer", text: "", answer: null }),
      }),
    };
    const record = await runConsultation(clinicCase, setup(requester));
    expect(record).toMatchObject({ ending: "answered", timeout: false, questions: 0, requests: 2 });
    expect(record.turns[1]).toMatchObject({
      speaker: "measurement",
      text: "RESULTS: Electromyography > Findings: Decreased muscle response with repetitive stimulation",
      revealed: ["Test_Results/Electromyography/Findings"],
    });
    expect(record.turns[3]).toMatchObject({ speaker: "measurement", text: "NORMAL READINGS", revealed: [] });
  });

  it("the floor asks the fixed list within the limit, and the ceiling is given every fact and finding", async () => {
    const floor = await runConsultation(clinicCase, setup(complaintBlindDoctor(asking("unused", null))));
    const asked = floor.turns
      .filter((turn) => turn.speaker === "doctor" && turn.move === "question")
      .map((turn) => turn.text);
    expect(asked).toEqual(complaintBlindQuestions().slice(0, 4));
    const ceiling = await runFullInformation(clinicCase, setup(asking("unused", "myasthenia gravis")));
    expect(ceiling.questions).toBe(0);
    expect(ceiling.turns[0]!.revealed).toEqual(clinicCase.facts.map((fact) => fact.id));
    expect(ceiling.turns[1]!.revealed).toEqual(clinicCase.measurements.map((measurement) => measurement.id));
    expect(ceiling.answer).toBe("myasthenia gravis");
  });
});

describe("reading an LLM doctor's reply", () => {
  const choice = { ending: mediqCase.ending, requests: false };
  const diagnosis = { ending: clinicCase.ending, requests: true };
  it.each([
    ["QUESTION: Do you smoke", choice, { kind: "question", text: "Do you smoke?" }],
    ["Any fever?", choice, { kind: "question", text: "Any fever?" }],
    ["ANSWER: C", choice, { kind: "answer", answer: "C" }],
    ["**Answer:** (b) Herpes", choice, { kind: "answer", answer: "B" }],
    ["ANSWER: Syphilis", choice, { kind: "answer", answer: "D" }],
    ["ANSWER: E", choice, { kind: "format_error", reason: "answer 'E' is not one of the options A, B, C, D" }],
    ["DIAGNOSIS: Chancroid", choice, { kind: "format_error", reason: "DIAGNOSIS: where ANSWER: is asked for" }],
    ["DIAGNOSIS READY: Myasthenia gravis", diagnosis, { kind: "answer", answer: "Myasthenia gravis" }],
    ["DIAGNOSIS: none", diagnosis, { kind: "answer", answer: null }],
    ["REQUEST TEST: Chest_X-Ray", diagnosis, { kind: "request", request: "Chest_X-Ray" }],
    ["", diagnosis, { kind: "format_error", reason: "an empty reply" }],
  ] as const)("%j", (reply, rules, expected) => {
    expect(readDoctorReply(reply, rules as never)).toMatchObject(expected);
  });
});

describe("a fact in the patient's voice", () => {
  const adult = voiceFor(30, "male");
  it.each([
    ["A 22-year-old man presented with complaints.", "I'm a 22-year-old man, and I presented with complaints."],
    ["The man had painful lesions on his penis.", "I had painful lesions on my penis."],
    ["The man denied having a fever.", "I haven't had a fever."],
    [
      "The man's female partner was diagnosed with chlamydia one year earlier.",
      "My female partner was diagnosed with chlamydia one year earlier.",
    ],
    ["Patient complains of fever.", "I have fever."],
    ["Drinks wine occasionally.", "I drink wine occasionally."],
    ["Double vision", "I've had double vision."],
    ["35-year-old female", "I'm a 35-year-old female."],
    [
      "She notes that these symptoms tend to worsen after physical activity.",
      "These symptoms tend to worsen after physical activity.",
    ],
  ])("%s → %s", (fact, said) => {
    expect(spokenFact(fact, adult)).toBe(said);
  });

  it("is said by a parent for a child under 12", () => {
    const parent = voiceFor(8, "male");
    expect(parent).toEqual({ kind: "parent", child: "son" });
    expect(spokenFact("An 8-year-old male child is brought to the clinic.", parent)).toBe(
      "My son, an 8-year-old male child, is brought to the clinic.",
    );
    expect(spokenFact("The child's vaccinations are up to date.", parent)).toBe(
      "My son's vaccinations are up to date.",
    );
  });
});

/** Every bundled case has facts to say and an ending to score. */
describe("the consultation cases", () => {
  it("turn every bundled case into facts, an opening or a briefing, and an answer key", () => {
    const all: ConsultCase[] = [
      ...loadMediqConsultations().splits.icraft!,
      ...loadAgentClinicConsultations().splits.medqa!,
    ];
    for (const patientCase of all) {
      expect(patientCase.facts.length).toBeGreaterThan(0);
      expect(new Set(patientCase.facts.map((fact) => fact.id)).size).toBe(patientCase.facts.length);
      expect(patientCase.opening ?? patientCase.briefing).not.toBeNull();
      expect(patientCase.ending.answer).not.toBeNull();
    }
  });
});

describe("the consultation loop and the event loop", () => {
  /** Resolves true once the event loop has reached its check phase (waiting I/O handled). */
  const ioTurn = () => {
    const passed = { value: false };
    setImmediate(() => (passed.value = true));
    return passed;
  };

  it("lets waiting I/O through during a long consultation of roles that answer at once", async () => {
    let passed = { value: false };
    let seenDuring = false;
    const busy: DoctorRole = {
      id: "busy",
      start: () => ({
        next: async (turns): Promise<DoctorMove> => {
          if (turns.length === 1) passed = ioTurn();
          // Each turn takes a while, as a control's turn with its patient does.
          const until = performance.now() + 0.5;
          while (performance.now() < until);
          seenDuring ||= passed.value;
          return { kind: "question", text: "Have you had a fever?" };
        },
        decide: async (): Promise<DoctorMove> => ({ kind: "answer", text: "ANSWER: A", answer: "A" }),
      }),
    };
    const record = await runConsultation(mediqCase, { ...setup(busy), limits: { maxQuestions: 30, maxTurns: 5 } });
    expect(record.questions).toBe(30);
    expect(seenDuring).toBe(true);
  });

  it("reads the replies that are waiting before it goes on after a model's reply", async () => {
    const seen: boolean[] = [];
    let passed = { value: false };
    const modelDoctor: DoctorRole = {
      id: "model",
      start: () => ({
        next: async (turns): Promise<DoctorMove> => {
          if (turns.length > 1) seen.push(passed.value);
          passed = ioTurn();
          return { kind: "question", text: "Have you had a fever?", info: { latencyMs: 1, cached: false } };
        },
        decide: async (): Promise<DoctorMove> => ({ kind: "answer", text: "ANSWER: A", answer: "A" }),
      }),
    };
    await runConsultation(mediqCase, setup(modelDoctor));
    expect(seen).toEqual([true, true, true]);
  });
});
