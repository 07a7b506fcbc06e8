import { beforeAll, describe, expect, it } from "vitest";
import type { NluFrame } from "../../../../src/cmas/schemas.ts";
import { loadMeditod } from "../../../../src/data/meditod.ts";
import type { NluModule } from "../../../../src/language/module-interfaces.ts";
import { buildEmbeddedNlu } from "../../../../src/modules/embedded/nlu.ts";
import { loadTrainingData } from "../../../../src/modules/embedded/training-data.ts";

/**
 * A "no" about a symptom the patient has already affirmed (issue 20, item 3: polarity as a clinician
 * hears it). "Is the pain sharp?" — "No." says the pain is not sharp, not that there is no pain;
 * "Can he describe the confusion?" — "No." says he cannot, and "no" is no description. Hand-written,
 * none from a MediTOD dialogue; each with a negative control where the "no" does deny.
 */

let nlu: NluModule;
beforeAll(() => {
  nlu = buildEmbeddedNlu(loadTrainingData(loadMeditod(), "train"));
});

/** The merged slots of the last turn, after alternating turns (the doctor first). */
async function slotsAfter(...turns: string[]): Promise<Record<string, unknown>> {
  const history = turns
    .slice(0, -1)
    .map((text, index) => ({ speaker: index % 2 === 0 ? "doctor" : "patient", text }) as const);
  const { frames } = await nlu.understand({ history, utterance: turns.at(-1)! });
  return Object.assign({}, ...(frames ?? []).map((frame: NluFrame) => frame.slots ?? {}));
}

const OPENING = "What brings you in today?";

describe("a symptom affirmed by a yes to the doctor's question is affirmed, as one the patient named", () => {
  const asked = "Have you had any shortness of breath?";
  const factors = "Is there anything that makes the shortness of breath better or worse?";

  it("'any shortness of breath?' — 'yes' … 'anything that makes the shortness of breath better or worse?' — 'no': still breathless", async () => {
    const slots = await slotsAfter(
      asked,
      "yes",
      "When did the shortness of breath start?",
      "a week ago",
      factors,
      "no",
    );
    expect(slots).toEqual({ positive_symptom: [{ value: "dyspnea" }] });
  });

  it("'anything that makes your breathlessness better or worse?' (no 'the'): the 'no' is about what changes it", async () => {
    const slots = await slotsAfter(
      asked,
      "yes",
      "Is there anything that makes your breathlessness better or worse?",
      "no",
    );
    expect(slots).toEqual({ positive_symptom: [{ value: "dyspnea" }] });
  });

  it("negative control: after a 'no' to the breathlessness, the 'no' still denies it", async () => {
    expect(await slotsAfter(asked, "no", factors, "no")).toEqual({ negative_symptom: [{ value: "dyspnea" }] });
  });
});

describe("a 'no' about a symptom already affirmed keeps the symptom", () => {
  it("'Is the pain sharp?' — 'No': the tummy pain is still present", async () => {
    const slots = await slotsAfter(OPENING, "I've got pain in my tummy", "Is the pain sharp?", "No");
    expect(slots).toEqual({ positive_symptom: [{ value: "pain" }] });
  });

  it("'Can you describe the pain?' — 'No, not really': no denial", async () => {
    const slots = await slotsAfter(
      OPENING,
      "I've got pain in my tummy",
      "Can you describe the pain?",
      "No, not really",
    );
    expect(slots).not.toHaveProperty("negative_symptom");
  });

  it("'Does it hurt when you breathe in?' — 'no': the chest pain stays, breathing in is no trigger", async () => {
    const slots = await slotsAfter(OPENING, "I have chest pain", "Does it hurt when you breathe in?", "no");
    expect(slots).toEqual({
      positive_symptom: [{ value: "chest pain", not_aggravating_factor: [expect.any(String)] }],
    });
  });

  it("'Can he describe the confusion?' — 'No': confusion stays, and 'no' is not its description", async () => {
    const slots = await slotsAfter(OPENING, "My dad has been really confused", "Can he describe the confusion?", "No");
    expect(slots).toEqual({ positive_symptom: [{ value: "confusion" }] });
  });

  it("'Can you describe the cough?' — 'no': no characteristic 'no'", async () => {
    const slots = await slotsAfter(OPENING, "I have a cough", "Can you describe the cough?", "no");
    expect(JSON.stringify(slots)).not.toContain("characteristics");
  });
});

describe("negative controls: a 'no' that does deny", () => {
  it("'Do you still have the pain now?' — 'no': the pain has gone", async () => {
    const slots = await slotsAfter(OPENING, "I had chest pain", "Do you still have the pain now?", "no");
    expect(slots).toEqual({ negative_symptom: [{ value: "chest pain" }] });
  });

  it("'Any chest pain?' to a patient with a headache — 'no': denied, never affirmed", async () => {
    const slots = await slotsAfter(OPENING, "I have a headache", "Any chest pain?", "no");
    expect(slots).toEqual({ negative_symptom: [{ value: "chest pain" }] });
  });

  it("'Any light sensitivity or noise with that headache?' — 'No': several items asked, all denied", async () => {
    const slots = await slotsAfter(
      OPENING,
      "I get headaches",
      "Any sensitivity to light or loud sounds with that headache?",
      "No, nothing like that.",
    );
    expect(slots).toHaveProperty("negative_symptom");
  });

  it("'How would you describe the cough?' — 'Uh harsh.': a one-word description still counts", async () => {
    const slots = await slotsAfter(OPENING, "I have a cough", "How would you describe the cough?", "Uh harsh.");
    expect(slots).toMatchObject({ positive_symptom: [{ value: "coughing", positive_characteristics: ["harsh"] }] });
  });
});
