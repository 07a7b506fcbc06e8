import { beforeAll, describe, expect, it } from "vitest";
import { loadRedFlags } from "../../src/clinical/red-flags.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import { Conversation } from "../../src/dialogue-manager/conversation.ts";
import { buildEmbeddedEngine, type EmbeddedEngine } from "../../src/modules/embedded/index.ts";

/**
 * Issue 20, flags whose advice did not fit the patient (found trying the chat): bleeding at 28 weeks
 * of pregnancy fired the ectopic-pregnancy flag, whose advice is for early pregnancy; and an elderly
 * man with diabetes who was newly confused, with no feature of ketoacidosis, fired the
 * ketoacidosis flag. Each is driven through the chat in-process, beside a negative control.
 */

let engine: EmbeddedEngine;
beforeAll(() => {
  engine = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });
});

/** The ids of the flags that fired over a conversation of the patient's `lines`. */
async function flagsFor(...lines: string[]): Promise<string[]> {
  const talk = new Conversation(engine, { maxDoctorTurns: 40 });
  for (const line of lines) await talk.say(line);
  return talk.snapshot().redFlags.map((flag) => flag.id);
}

describe("bleeding in pregnancy: early is the ectopic flag's, the second half the maternity unit's", () => {
  it("'28 weeks pregnant and some vaginal bleeding' fires the later-pregnancy flag, whose advice names the maternity unit, not the ectopic flag", async () => {
    const talk = new Conversation(engine, { maxDoctorTurns: 40 });
    const outcome = await talk.say("I am 28 weeks pregnant and I have some vaginal bleeding");
    expect(outcome.escalation.map((flag) => flag.id)).toEqual(["bleeding_in_later_pregnancy"]);
    expect(outcome.doctor).toMatch(/maternity unit or labour ward now/);
    expect(outcome.doctor).not.toMatch(/outside the womb/);
  });

  it("typed as people type it: 'Im 30 weeks and Ive started bleeding', '7 months pregnant', 'third trimester'", async () => {
    expect(await flagsFor("Im 30 weeks and Ive started bleeding")).toEqual(["bleeding_in_later_pregnancy"]);
    expect(await flagsFor("im 7 months pregnant and bleeding")).toEqual(["bleeding_in_later_pregnancy"]);
    expect(await flagsFor("I'm in my third trimester and bleeding a bit")).toEqual(["bleeding_in_later_pregnancy"]);
  });

  it("negative control: at 8 weeks, bleeding with pain low on one side is still the ectopic flag's", async () => {
    expect(
      await flagsFor("I am 8 weeks pregnant and I have some vaginal bleeding and a pain low down on my left side"),
    ).toEqual(["ectopic_pregnancy"]);
  });

  it("negative controls: 32 weeks with bleeding gums, and 30 weeks with a kicking baby, fire nothing", async () => {
    expect(await flagsFor("I'm 32 weeks pregnant and my gums bleed when I brush my teeth")).toEqual([]);
    expect(await flagsFor("I'm 30 weeks pregnant and the baby's kicking a lot")).toEqual([]);
  });

  it("the criteria over the tracked state read the pregnancy's start: 20 weeks ago is the second half, 8 weeks ago is not", () => {
    const rules = loadRedFlags();
    const ids = (starting: string, pain = true) =>
      rules
        .evaluate({
          positive_medical_history: [{ value: "pregnancy", starting }],
          positive_symptom: [{ value: "vaginal bleeding" }, ...(pain ? [{ value: "abdominal pain" }] : [])],
        })
        .map((flag) => flag.id);
    expect(ids("20 weeks ago")).toEqual(["bleeding_in_later_pregnancy"]);
    expect(ids("6 months ago")).toEqual(["bleeding_in_later_pregnancy"]);
    expect(ids("8 weeks ago")).toEqual(["ectopic_pregnancy"]);
    expect(ids("19 weeks ago")).toEqual(["ectopic_pregnancy"]);
    // Early bleeding without pain (a corpus near-miss: "6 weeks pregnant and a bit of spotting") is no emergency.
    expect(ids("8 weeks ago", false)).toEqual([]);
  });
});

describe("the semantic signal hears the later-pregnancy flag only when a later pregnancy is said", () => {
  const heard = (said: string) =>
    loadRedFlags().subjectHeard("bleeding_in_later_pregnancy", loadRedFlags().signs.readAll([said]));

  it("'6 weeks pregnant and a bit of spotting' (a corpus near-miss) is not its subject: bleeding alone is a modifier", () => {
    expect(heard("I'm 6 weeks pregnant and I had a bit of spotting.")).toBe(false);
  });

  it("negative control: '30 weeks and spotting' is", () => {
    expect(heard("I'm 30 weeks pregnant and I had a bit of spotting.")).toBe(true);
  });
});

describe("diabetes with new confusion: urgent, but not ketoacidosis without its features", () => {
  it("an 82-year-old with diabetes confused since this morning fires the diabetes-and-confusion flag, not ketoacidosis", async () => {
    const talk = new Conversation(engine, { maxDoctorTurns: 40 });
    const outcome = await talk.say("my dad is 82 and has diabetes and he has been confused since this morning");
    expect(outcome.escalation.map((flag) => flag.id)).toEqual(["diabetes_with_confusion_or_drowsiness"]);
    expect(outcome.doctor).toMatch(/check their blood sugar/);
    expect(outcome.doctor).not.toMatch(/ketoacidosis|pear drops/);
  });

  it("negative control: diabetes, confusion and vomiting is ketoacidosis (and not both flags)", async () => {
    expect(await flagsFor("my dad has diabetes and he's been vomiting all day and now he's confused")).toEqual([
      "diabetic_ketoacidosis",
    ]);
  });

  it("confusion said to come with normal sugar and ketones is not ketoacidosis (the tracked state cannot hold 'sugar fine', so the confusion flag may still fire: new confusion is urgent)", async () => {
    const fired = await flagsFor("my mum has diabetes, her sugar and ketones are fine but she's a bit confused");
    expect(fired).not.toContain("diabetic_ketoacidosis");
  });
});
