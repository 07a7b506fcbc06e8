import { beforeAll, describe, expect, it } from "vitest";
import { loadMeditod } from "../../../src/data/meditod.ts";
import type { NluModule } from "../../../src/language/module-interfaces.ts";
import type { ConsultCase } from "../../../src/simulator/consultation/consult-case.ts";
import type { DoctorMove, DoctorRole, StateTracker } from "../../../src/simulator/consultation/consult-roles.ts";
import {
  loadAgentClinicConsultations,
  loadMediqConsultations,
} from "../../../src/simulator/consultation/consult-dataset.ts";
import {
  runConsultation,
  runFullInformation,
  type ConsultationRecord,
} from "../../../src/simulator/consultation/consultation-loop.ts";
import { complaintBlindDoctor } from "../../../src/simulator/consultation/controls.ts";
import { EMBEDDED_PATIENT } from "../../../src/simulator/consultation/embedded-patient.ts";
import { nluStateTracker } from "../../../src/simulator/consultation/state-tracker.ts";
import { workerStateTracker } from "../../../src/simulator/consultation/tracking-worker.ts";
import { consultEngine } from "../../../eval/suites/consult/consult-engine.ts";

/**
 * The tracked states of a consultation are the same however they are tracked: on this thread turn by
 * turn (as a doctor that reads them is given them), on this thread while the consultation goes on,
 * on the bundle's worker thread, and on this thread again when the worker cannot start or dies.
 */

const mediqCase = loadMediqConsultations().splits.icraft![3]!;
const clinicCase = loadAgentClinicConsultations().splits.medqa![1]!;
/** The compiled worker (`npm run build`), as the CLI starts it. */
const BUNDLED_WORKER = new URL("../../../dist/bundle/consult-tracking-worker.js", import.meta.url);
const EXITING_WORKER = new URL("../../fixtures/tracking-worker-that-exits.mjs", import.meta.url);

/** A doctor that answers `A` when told to; `reads` says whether it reads the tracked states. */
function answerer(reads: boolean): DoctorRole {
  const answer: DoctorMove = { kind: "answer", text: "ANSWER: A", answer: "A" };
  return {
    id: "answerer",
    start: () => ({
      next: async () => answer,
      decide: async () => answer,
      ...(reads ? {} : { readsTrackedStates: false }),
    }),
  };
}

/** A case's floor (the complaint-blind questions, answered by the embedded patient) and ceiling. */
async function arms(patientCase: ConsultCase, tracker: StateTracker, reads: boolean): Promise<ConsultationRecord[]> {
  const setup = {
    doctor: complaintBlindDoctor(answerer(reads)),
    patient: EMBEDDED_PATIENT,
    tracker,
    limits: { maxQuestions: 60, maxTurns: 60 },
  };
  return Promise.all([
    runConsultation(patientCase, setup),
    runFullInformation(patientCase, { ...setup, doctor: answerer(reads) }),
  ]);
}

/** An NLU that answers later the earlier it was asked: out of order, unless the tracker keeps the order. */
function slowFirst(nlu: NluModule): NluModule {
  let calls = 0;
  return {
    ...nlu,
    understand: async (input, options) => {
      const delay = Math.max(0, 20 - calls++);
      await new Promise((resolve) => setTimeout(resolve, delay));
      return nlu.understand(input, options);
    },
  };
}

describe("state tracking off the doctor's path", () => {
  let nlu: NluModule;
  let expected: Map<ConsultCase, string>;
  beforeAll(async () => {
    nlu = (await consultEngine(loadMeditod())).modules.nlu;
    expected = new Map();
    for (const patientCase of [mediqCase, clinicCase])
      expected.set(patientCase, JSON.stringify(await arms(patientCase, nluStateTracker(nlu), true)));
  }, 120_000);

  it("records a state on every patient turn, with the key order of a turn tracked as it was said", () => {
    const [floor] = JSON.parse(expected.get(mediqCase)!) as ConsultationRecord[];
    const patientTurns = floor!.turns.filter((turn) => turn.speaker === "patient");
    expect(patientTurns.length).toBeGreaterThan(20);
    for (const turn of patientTurns) expect(Object.keys(turn)).toEqual(["speaker", "text", "revealed", "state"]);
    expect(floor!.turns.at(-1)).toMatchObject({ speaker: "doctor", move: "answer" });
  });

  it("on this thread, read while the consultation goes on, in order even when the NLU answers out of order", async () => {
    for (const patientCase of [mediqCase, clinicCase]) {
      expect(JSON.stringify(await arms(patientCase, nluStateTracker(nlu), false))).toBe(expected.get(patientCase));
      const slow = nluStateTracker(slowFirst(nlu));
      expect(JSON.stringify(await arms(patientCase, slow, false))).toBe(expected.get(patientCase));
    }
  });

  it("on the bundle's worker thread (built by the tests' global setup), as on this one", async () => {
    let fellBack = false;
    const tracker = workerStateTracker(BUNDLED_WORKER, () => {
      fellBack = true;
      return nluStateTracker(nlu);
    });
    try {
      for (const patientCase of [mediqCase, clinicCase])
        expect(JSON.stringify(await arms(patientCase, tracker, false))).toBe(expected.get(patientCase));
    } finally {
      await tracker.close();
    }
    expect(fellBack).toBe(false);
  }, 120_000);

  it("on this thread when the worker cannot start, or dies with turns still to read", async () => {
    for (const url of [new URL("../../fixtures/no-such-worker.mjs", import.meta.url), EXITING_WORKER]) {
      let fellBack = 0;
      const tracker = workerStateTracker(url, () => {
        fellBack += 1;
        return nluStateTracker(nlu);
      });
      try {
        for (const patientCase of [mediqCase, clinicCase])
          expect(JSON.stringify(await arms(patientCase, tracker, false))).toBe(expected.get(patientCase));
      } finally {
        await tracker.close();
      }
      expect(fellBack).toBeGreaterThan(0);
    }
  });
});
