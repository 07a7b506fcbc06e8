import { describe, expect, it } from "vitest";
import { loadMeditod } from "../../src/data/meditod.ts";
import { Conversation } from "../../src/dialogue-manager/conversation.ts";
import { buildEmbeddedEngine } from "../../src/modules/embedded/index.ts";
import { countRepeats } from "../../src/simulator/self-play.ts";

/**
 * A live chat with the embedded doctor when the patient asks to repeat or explain: the question is
 * asked again more plainly once, then the history moves on; urgent-care advice the patient asks
 * about is said again, word for word. Through the Conversation API, as the web and terminal chats talk.
 */

const engine = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });
const inquiries = (actions: readonly { action: string }[] | null) =>
  JSON.stringify((actions ?? []).filter((action) => action.action === "inquire"));

describe("a chat patient who asks the doctor to repeat", () => {
  it("hears the question again, then the doctor moves on if they ask again", async () => {
    const chat = new Conversation(engine);
    const first = await chat.say("I've had a cough for a week.");
    expect(inquiries(first.actions)).not.toBe("[]");
    const again = await chat.say("Sorry, can you repeat that?");
    expect(inquiries(again.actions)).toBe(inquiries(first.actions));
    expect(again.doctor).toMatch(/^(?:Of course, let me ask again\.|Sorry, let me put it more simply\.) /);
    const onward = await chat.say("Sorry, I still don't understand.");
    expect(onward.doctor).toMatch(/^That's alright, let's move on\. [A-Z].*\?$/);
    expect(inquiries(onward.actions)).not.toBe(inquiries(first.actions));
    expect(inquiries(onward.actions)).not.toBe("[]");
  });

  it("explains a term it asked about when the patient asks what it means", async () => {
    const chat = new Conversation(engine);
    let reply = await chat.say("I've had a cough for a week.");
    // Answer until the doctor asks about sputum (a few turns into a cough history, after the patient's ideas and worries).
    for (let turn = 0; turn < 9 && !/\bsputum\b/i.test(reply.doctor ?? ""); turn += 1) reply = await chat.say("No.");
    expect(reply.doctor).toMatch(/\bsputum\b/i);
    const explained = await chat.say("What do you mean by phlegm?");
    expect(explained.doctor).toMatch(/^By phlegm, I mean the stuff you cough up from your chest\. .*\bphlegm\b.*\?$/);
    expect(inquiries(explained.actions)).toBe(inquiries(reply.actions));
  });

  it("repeats urgent-care advice when asked right after it, and asks the question again", async () => {
    const chat = new Conversation(engine);
    await chat.say("I've had a cough for a week.");
    const flagged = await chat.say("Yes, and I've been coughing up blood.");
    expect(flagged.escalation).toHaveLength(1);
    const [advice, question] = flagged.doctor!.split("\n\n");
    const again = await chat.say("Sorry, what do you mean?");
    expect(again.doctor!.split("\n\n")[0]).toBe(advice);
    expect(again.doctor).toContain("let me ask again");
    expect(inquiries(again.actions)).toBe(inquiries(flagged.actions));
    expect(question).toBeTruthy();
    expect(chat.snapshot().redFlags).toHaveLength(1);
    // The advice said again is not a question asked: the history goes on from the re-asked question, without advice.
    const next = await chat.say("No.");
    expect(next.doctor).not.toContain(advice!);
    expect(inquiries(next.actions)).not.toBe(inquiries(flagged.actions));
  });

  it("does not repeat the advice for a request after a later question", async () => {
    const chat = new Conversation(engine);
    await chat.say("I've had a cough for a week.");
    const flagged = await chat.say("Yes, and I've been coughing up blood.");
    const [advice] = flagged.doctor!.split("\n\n");
    await chat.say("No.");
    const again = await chat.say("Sorry, can you repeat that?");
    expect(again.doctor).not.toContain(advice!);
  });
});

describe("self-play's repeat count", () => {
  const fever = [{ action: "inquire", symptom: [{ value: "fever" }] }];
  it("counts a question asked again on the patient's request as no repeat, and any other as one", () => {
    expect(countRepeats([fever, fever, fever])).toBe(2);
    expect(countRepeats([fever, fever, fever], [false, true, false])).toBe(1);
  });
});
