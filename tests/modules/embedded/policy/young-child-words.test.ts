import { describe, expect, it } from "vitest";
import { loadMeditod } from "../../../../src/data/meditod.ts";
import { Conversation } from "../../../../src/dialogue-manager/conversation.ts";
import { buildEmbeddedEngine } from "../../../../src/modules/embedded/index.ts";

/**
 * "My toddler", "my baby": a parent who names a young child without an age still gets a young child's
 * history (feeding, wet nappies, behaviour, vaccinations) and never the adult tail (weight loss and
 * night sweats of a two-year-old), issue 20 item 5. The age the word tells is never written as an age.
 */

const engine = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });

/** The doctor's questions over a parent's answers, each "no" after the opening. */
async function questionsAfter(opening: string, turns = 6): Promise<string[]> {
  const chat = new Conversation(engine, { redFlags: null });
  const asked = [(await chat.say(opening)).doctor ?? ""];
  for (let turn = 1; turn < turns; turn += 1) asked.push((await chat.say("no")).doctor ?? "");
  return asked;
}

describe("a young child named without an age", () => {
  it.each([
    "my toddler has had a high temperature since yesterday",
    "my baby has had a high temperature since yesterday",
  ])("%s: the child's questions first, no weight loss or night sweats", async (opening) => {
    const asked = (await questionsAfter(opening)).join(" ");
    expect(asked).toMatch(/wet nappies/);
    expect(asked).not.toMatch(/weight loss|night sweats/);
  });

  it("negative control: 'my son' (any age) gets no nappy questions", async () => {
    expect((await questionsAfter("my son has had a high temperature since yesterday")).join(" ")).not.toMatch(
      /wet nappies/,
    );
  });

  it("the note gives no age the parent did not say", async () => {
    const chat = new Conversation(engine, { redFlags: null });
    await chat.say("my toddler has had a high temperature since yesterday");
    expect(chat.snapshot().informant).toMatchObject({ relation: "parent", patientAge: null, ageGroup: "toddler" });
  });
});
