import { beforeAll, describe, expect, it } from "vitest";
import { embeddedNlu, slotsAfter } from "./nlu-harness.ts";

/**
 * Breathlessness and pain as a clinician hears them (issue 20, items 3 and 5): what brings them on
 * said as what the patient was doing ("out of breath climbing the stairs"), exercise tolerance told
 * by a landmark ("to the end of the road"), lying flat told by the pillows. Hand-written, none from a
 * MediTOD dialogue; each with a negative control.
 */

beforeAll(() => {
  embeddedNlu();
});

const slotsOf = slotsAfter;

const OPENING = "What brings you in today?";

describe("what the patient was doing when a symptom comes", () => {
  for (const [said, value] of [
    ["I get out of breath climbing the stairs.", "dyspnea"],
    ["I get chest pain walking up hills.", "chest pain"],
    ["I get short of breath walking to the shops.", "dyspnea"],
  ] as const)
    it(`"${said}": exertion brings on the ${value}`, async () => {
      expect(await slotsOf(OPENING, said)).toMatchObject({
        positive_symptom: [{ value, aggravating_factor: ["physical exertion"] }],
      });
    });

  it("negative controls: a pain's path is no activity, nor is it feeling run down", async () => {
    const slots = await slotsOf(OPENING, "I have a pain running down my leg.");
    expect(JSON.stringify(slots)).not.toContain("aggravating_factor");
    expect(JSON.stringify(slots)).not.toContain("bedridden");
    expect(await slotsOf(OPENING, "I feel run down and tired all the time.")).toMatchObject({
      positive_symptom: [{ value: "bedridden" }],
    });
  });
});

describe("exercise tolerance told by a landmark", () => {
  it('"I can only walk to the end of the road before I have to stop" grades the breathlessness', async () => {
    const slots = await slotsOf(
      OPENING,
      "I get short of breath.",
      "How far can you walk before you get short of breath?",
      "I can only walk to the end of the road before I have to stop.",
    );
    expect(slots).toMatchObject({ positive_symptom: [{ value: "dyspnea", severity: "to the end of the road" }] });
  });

  it("negative control: the same words answering where the patient lives are no distance", async () => {
    const slots = await slotsOf(OPENING, "I get short of breath.", "Where do you live?", "Near the end of the road.");
    expect(JSON.stringify(slots)).not.toContain("severity");
  });
});

describe("lying flat told by the pillows", () => {
  it('"I need to sleep on 3 pillows or I get breathless at night" is orthopnoea', async () => {
    expect(await slotsOf(OPENING, "I need to sleep on 3 pillows or I get breathless at night.")).toMatchObject({
      positive_symptom: expect.arrayContaining([{ value: "orthopnea" }]),
    });
  });

  it("negative control: a neck sore from too many pillows is not", async () => {
    const slots = await slotsOf(OPENING, "My neck hurts, I think I slept on too many pillows.");
    expect(JSON.stringify(slots)).not.toContain("orthopnea");
  });
});

describe("a heart's pain told as crushing", () => {
  it('"a crushing pain in my chest" is a chest pain of pressure', async () => {
    expect(await slotsOf(OPENING, "I've had this crushing pain in my chest for about an hour.")).toMatchObject({
      positive_symptom: [{ value: "chest pain", positive_characteristics: ["pressure"] }],
    });
  });

  it("negative control: a chest crushed in a car door is an injury, not a crushing pain", async () => {
    const slots = await slotsOf(OPENING, "My chest hurts, I crushed it in a car door.");
    expect(JSON.stringify(slots)).not.toContain("positive_characteristics");
  });
});
