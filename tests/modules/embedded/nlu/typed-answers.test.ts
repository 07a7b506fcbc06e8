import { beforeAll, describe, expect, it } from "vitest";
import type { NluFrame } from "../../../../src/cmas/schemas.ts";
import { loadMeditod } from "../../../../src/data/meditod.ts";
import type { NluModule } from "../../../../src/language/module-interfaces.ts";
import { buildEmbeddedNlu } from "../../../../src/modules/embedded/nlu.ts";
import { createSpellingCorrector } from "../../../../src/modules/embedded/nlu/spelling.ts";
import { loadTrainingData } from "../../../../src/modules/embedded/training-data.ts";

/**
 * A patient who types by ear (found trying the chat; none from a MediTOD dialogue): "yelow fleghm" to
 * "is the cough dry or wet?" was lost, so a later "no" to "any sputum?" made the note deny it; "its
 * getting wose" became the cough's character "getting wose". Each reading beside a negative control.
 */

let nlu: NluModule;
beforeAll(() => {
  nlu = buildEmbeddedNlu(loadTrainingData(loadMeditod(), "train"));
});

/** The first positive symptom entries of `answer` to `question` after a cough was reported. */
async function aboutTheCough(question: string, answer: string): Promise<Record<string, unknown>[]> {
  const history = [
    { speaker: "doctor" as const, text: "What brings you in today?" },
    { speaker: "patient" as const, text: "Ive got a cough." },
    { speaker: "doctor" as const, text: question },
  ];
  const { frames } = await nlu.understand({ history, utterance: answer });
  return (frames ?? []).flatMap(
    (frame: NluFrame) => (frame.slots?.positive_symptom ?? []) as Record<string, unknown>[],
  );
}

describe("words misspelt by ear", () => {
  it("a word spelt as it sounds starts in another letter: 'fleghm' is phlegm, 'kronic' chronic, 'numonia' pneumonia", () => {
    const corrector = createSpellingCorrector(["phlegm", "chronic", "pneumonia", "fever"]);
    expect(["fleghm", "kronic", "numonia"].map((word) => corrector.correct(word))).toEqual([
      "phlegm",
      "chronic",
      "pneumonia",
    ]);
  });

  it("negative control: a known word with such an opening is never bent ('feeling', 'sunday', 'nicely')", () => {
    const corrector = createSpellingCorrector(["phlegm", "psoriasis", "pneumonia"], ["feeling", "sunday"]);
    expect(["feeling", "sunday", "nicely"].map((word) => corrector.correct(word))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("'yelow fleghm' to 'is the cough dry or wet?' is sputum", async () => {
    expect((await aboutTheCough("Is the cough dry or wet?", "yelow fleghm")).map((entry) => entry.value)).toContain(
      "colored/excess sputum",
    );
  });
});

describe("a short answer that tells the course is no character", () => {
  it("'its getting wose' to 'is the cough dry or wet?' is no character 'getting wose'", async () => {
    expect(await aboutTheCough("Is the cough dry or wet?", "its getting wose")).not.toContainEqual(
      expect.objectContaining({ positive_characteristics: expect.anything() }),
    );
  });

  it("negative controls: 'uh harsh' is the character; 'its getting worse' is the course", async () => {
    expect(await aboutTheCough("How would you describe the cough?", "uh harsh")).toEqual([
      { value: "coughing", positive_characteristics: ["harsh"] },
    ]);
    expect(await aboutTheCough("Is the cough dry or wet?", "its getting worse")).toEqual([
      { value: "coughing", progression: "gradually getting worse over time" },
    ]);
  });
});

describe("'sweaty' said of a chest pain (found trying the chat: it was lost, a feature of a heart attack)", () => {
  it("'yeah a bit sweaty sometimes' is sweating; negative control: 'not sweaty no' denies it", async () => {
    const history = [
      { speaker: "doctor" as const, text: "What brings you in today?" },
      { speaker: "patient" as const, text: "ive had chest pain on and off for a few days" },
      { speaker: "doctor" as const, text: "Any other symptoms?" },
    ];
    const said = async (utterance: string) =>
      Object.assign({}, ...((await nlu.understand({ history, utterance })).frames ?? []).map((frame) => frame.slots));
    expect((await said("yeah a bit sweaty sometimes")).positive_symptom).toContainEqual({ value: "sweating" });
    expect((await said("not sweaty no")).negative_symptom).toContainEqual({ value: "sweating" });
  });
});

describe("'I'm 10 minutes late' is no age (found trying the chat)", () => {
  it("'Sorry Im 10 minutes late, I have a headache' records no age; negative control: 'Im 10 and I have a headache' is 10", async () => {
    const opened = async (utterance: string) =>
      Object.assign(
        {},
        ...(
          (await nlu.understand({ history: [{ speaker: "doctor", text: "What brings you in today?" }], utterance }))
            .frames ?? []
        ).map((frame) => frame.slots),
      );
    expect(await opened("Sorry Im 10 minutes late, I have a headache")).not.toHaveProperty("basic_information");
    expect((await opened("Im 10 and I have a headache")).basic_information).toEqual([{ age: "10" }]);
  });
});
