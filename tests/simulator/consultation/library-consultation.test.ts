import { describe, expect, it } from "vitest";
import { loadMeditod } from "../../../src/data/meditod.ts";
import { createQuestionReader } from "../../../src/modules/builders/create-question-reader.ts";
import { caseFacts } from "../../../src/simulator/case-facts.ts";
import { loadCaseLibrary } from "../../../src/simulator/case-library.ts";
import { loadLibraryConsultations } from "../../../src/simulator/consultation/consult-dataset.ts";
import type { DoctorMove, DoctorRole } from "../../../src/simulator/consultation/consult-roles.ts";
import { runConsultation } from "../../../src/simulator/consultation/consultation-loop.ts";
import { complaintBlindDoctor } from "../../../src/simulator/consultation/controls.ts";
import { EMBEDDED_PATIENT, embeddedPatient } from "../../../src/simulator/consultation/embedded-patient.ts";
import { isCorrect } from "../../../eval/suites/consult/consult-scoring.ts";

/**
 * Our library as consultation cases: every fact of a case's profile, said in its lay script's words;
 * the hand-judged answer (with its other names, or none); the scripted patient answering a doctor's
 * words, read by the embedded question reader, and revealing only what its lines mark.
 */

const library = loadCaseLibrary();
const cases = loadLibraryConsultations().splits.library!;
const reader = await createQuestionReader(loadMeditod());

/** A doctor that asks its questions in order, then names `answer`. */
function asking(questions: readonly string[], answer: string | null): DoctorRole {
  return {
    id: "asking",
    start: () => {
      let asked = 0;
      return {
        next: async (): Promise<DoctorMove> =>
          asked < questions.length
            ? { kind: "question", text: questions[asked++]! }
            : { kind: "answer", text: `DIAGNOSIS: ${answer}`, answer },
        decide: async (): Promise<DoctorMove> => ({ kind: "answer", text: `DIAGNOSIS: ${answer}`, answer }),
      };
    },
  };
}

describe("library consultations", () => {
  it("turns every library case into its profile's facts, each said as its script line, and its hand-judged answer", () => {
    expect(cases.map((entry) => entry.id)).toEqual(library.map((entry) => entry.id));
    for (const [index, entry] of library.entries()) {
      const consult = cases[index]!;
      expect(consult.facts.map((fact) => fact.id)).toEqual(caseFacts(entry.profile).map((fact) => fact.id));
      for (const fact of consult.facts) {
        const line = entry.script!.lines[fact.id]!;
        expect(fact.spoken).toBe(typeof line === "string" ? line : line.says);
      }
      expect(consult.ending).toEqual({
        kind: "diagnosis",
        answer: entry.expected.diagnosis,
        accepted: entry.expected.alsoAccepted,
      });
      expect(consult.profile.system).toBe(entry.system);
    }
  });

  it("credits any accepted name of the expected diagnosis, and no diagnosis only where the case says none is supportable", () => {
    const named = library.find((entry) => entry.expected.alsoAccepted.length > 0)!;
    const none = library.find((entry) => entry.expected.diagnosis === null)!;
    const consultOf = (id: string) => cases.find((entry) => entry.id === id)!;
    expect(isCorrect(consultOf(named.id), named.expected.alsoAccepted[0]!)).toBe(true);
    expect(isCorrect(consultOf(named.id), named.expected.diagnosis)).toBe(true);
    expect(isCorrect(consultOf(named.id), null)).toBe(false);
    expect(isCorrect(consultOf(none.id), null)).toBe(true);
    expect(isCorrect(consultOf(none.id), "migraine")).toBe(false);
  });

  it("the scripted patient opens with its script's opening, and says only the lines of the facts it is asked", async () => {
    const setup = {
      patient: embeddedPatient(reader),
      tracker: null,
      limits: { maxQuestions: 30, maxTurns: 30 },
    };
    for (const [index, consult] of cases.entries()) {
      const script = library[index]!.script!;
      const record = await runConsultation(consult, {
        ...setup,
        doctor: complaintBlindDoctor(asking([], null)),
      });
      const patientTurns = record.turns.filter((turn) => turn.speaker === "patient");
      expect(patientTurns[0]).toMatchObject({ text: script.opening.says });
      for (const turn of patientTurns.slice(1)) {
        // What the lines said in this turn may reveal: their own facts, what they volunteer, and the entries of attributes.
        const allowed = new Set(
          consult.facts
            .filter((fact) => turn.text.includes(fact.spoken))
            .flatMap((fact) => {
              const line = script.lines[fact.id];
              return [fact.id, ...(typeof line === "object" ? (line.reveals ?? []) : [])];
            })
            .flatMap((id) => [id, id.split("#")[0]!]),
        );
        for (const id of turn.revealed ?? []) expect(allowed, `${consult.id}: ${id} in "${turn.text}"`).toContain(id);
      }
    }
  });

  it("a library case's embedded patient needs the question reader; it is refused without one", async () => {
    const playing = runConsultation(cases[0]!, {
      doctor: asking(["Do you smoke?"], null),
      patient: EMBEDDED_PATIENT,
      tracker: null,
      limits: { maxQuestions: 30, maxTurns: 5 },
    });
    await expect(playing).rejects.toThrow("needs the embedded question reader");
  });
});
