import { describe, expect, it } from "vitest";
import type { DialogueState } from "../../src/cmas/schemas.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import { BUNDLED } from "../../src/foundation/package-paths.ts";
import { Conversation } from "../../src/dialogue-manager/conversation.ts";
import { buildEmbeddedEngine } from "../../src/modules/embedded/index.ts";
import { PatientSimulator, caseFromDialogue } from "../../src/simulator/patient-simulator.ts";

/** `slot:value` → status (positive, negative, unknown, …) of a CMAS profile. */
function statuses(state: DialogueState): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, entries] of Object.entries(state)) {
    const match = /^(positive|negative|unknown|avail|unavail)_(.+)$/.exec(key);
    if (!match) continue;
    for (const entry of entries)
      if (typeof entry.value === "string") found.set(`${match[2]}:${entry.value}`, match[1]!);
  }
  return found;
}

/**
 * Whole histories taken by the embedded engine from simulated patients (the train, valid and
 * development cases):
 * what the chat records must agree with what the patient said, and the history must close.
 */
describe("a history taken from a simulated patient", () => {
  const dataset = loadMeditod();
  const engine = buildEmbeddedEngine(dataset, "train", { wording: "clean" });

  const development = loadMeditod(BUNDLED.meditodDev);

  it.each([
    ["115", dataset],
    ["317", dataset],
    ["RES0001", development],
  ] as const)("case %s: the profile never contradicts the case, and the chat closes", async (id, source) => {
    const patientCase = caseFromDialogue(source, id);
    const simulator = new PatientSimulator(patientCase);
    const conversation = new Conversation(engine, { maxDoctorTurns: 80 });
    let outcome = await conversation.say(simulator.openingStatement());
    let doctorTurns = 1;
    while (!outcome.ended && outcome.error === null) {
      outcome = await conversation.say(simulator.answer(outcome.actions));
      doctorTurns += 1;
    }
    expect(outcome.error).toBeNull();
    expect(doctorTurns).toBeLessThan(80);
    const truth = statuses(patientCase.profile);
    const recorded = statuses(outcome.state);
    expect(recorded.size).toBeGreaterThan(30);
    const contradictions = [...recorded].filter(
      ([key, status]) =>
        truth.has(key) && status !== "unknown" && truth.get(key) !== "unknown" && truth.get(key) !== status,
    );
    // A named operation the profile holds ("hysterectomy") is recorded by the NLU as the surgery it is.
    const operated = [...truth].some(
      ([key, status]) => status === "positive" && /^medical_history:\w+(?:ectomy|otomy|plasty)$/.test(key),
    );
    const named = (key: string) =>
      truth.has(key) || (operated && key === "medical_history:operative surgical procedures");
    const invented = [...recorded].filter(([key, status]) => status === "positive" && !named(key));
    expect(contradictions).toEqual([]);
    expect(invented).toEqual([]);
    // RES0001's chest pain with breathlessness is a red flag: advised once, and the history still closes.
    // Asked about her medical conditions, she names a hysterectomy of a few weeks ago (her profile's
    // `starting`): with her breathlessness, a possible clot in the lung.
    const flags = conversation.snapshot().redFlags.map((flag) => flag.id);
    expect(flags).toEqual(id === "RES0001" ? ["chest_pain_with_breathlessness_or_sweating", "pulmonary_embolism"] : []);
  });
});
