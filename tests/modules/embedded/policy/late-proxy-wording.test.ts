import { describe, expect, it } from "vitest";
import { loadMeditod } from "../../../../src/data/meditod.ts";
import { Conversation } from "../../../../src/dialogue-manager/conversation.ts";
import { buildEmbeddedEngine } from "../../../../src/modules/embedded/index.ts";

/**
 * A relative who says in the third patient turn whom they speak for: from then on the doctor asks
 * about the patient ("has he…"), the patient's age and sex are on record, and a family-history answer
 * is still family history. The negative control: a patient whose third turn names a relative's
 * illness keeps being asked about themself.
 */
describe("a proxy declared in the third patient turn, in a live history", () => {
  const engine = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });

  it("switches the doctor's wording to the patient and keeps family history working", async () => {
    const conversation = new Conversation(engine, { maxDoctorTurns: 80 });
    await conversation.say("It's about some confusion really.");
    const before = await conversation.say("Since yesterday morning.");
    expect(before.doctor).not.toMatch(/\b(?:he|his|him)\b/i);
    const after = await conversation.say("Sorry, I should say, I'm actually calling about my dad, he's 82.");
    expect(after.doctor).toMatch(/\b(?:he|his|him)\b/i);
    const snapshot = conversation.snapshot();
    expect(snapshot.informant).toEqual({ relation: "child", patientAge: "82 years", patientSex: "male" });
    expect(snapshot.state.basic_information).toEqual([{ age: "82", sex: "male" }]);
    expect(snapshot.state.positive_symptom).toEqual([expect.objectContaining({ value: "confusion" })]);
    expect(snapshot.state).not.toHaveProperty("positive_family_history");
  });

  it("negative control: a patient's own history with 'my dad had a stroke' in the third turn stays theirs", async () => {
    const conversation = new Conversation(engine, { maxDoctorTurns: 80 });
    await conversation.say("I've had a headache for three days.");
    await conversation.say("It came on gradually.");
    const outcome = await conversation.say("My dad had a stroke, so I'm a bit worried.");
    expect(outcome.doctor).not.toMatch(/\b(?:he|his|him)\b/i);
    expect(conversation.snapshot().informant).toBeNull();
  });
});
