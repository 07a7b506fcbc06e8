import { describe, expect, it } from "vitest";
import type { DialogueState } from "../../src/cmas/schemas.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import { Conversation } from "../../src/dialogue-manager/conversation.ts";
import { buildEmbeddedEngine } from "../../src/modules/embedded/index.ts";

/**
 * A bare "yes" to a question that offers a choice of findings ("any fevers or weight loss?") says
 * that one of them is there, not which (issue 20): the embedded doctor asks which before it goes on,
 * and a red flag that needs two findings together (weight loss with night sweats) waits for the
 * answer. Through the Conversation API, as the web and terminal chats talk.
 */

const engine = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });

/** The statuses the state holds for a symptom: "positive", "negative", "unknown" (none: absent). */
function statusOf(state: DialogueState, value: string): string[] {
  return Object.entries(state)
    .filter(([slot, entries]) => slot.endsWith("_symptom") && entries.some((entry) => entry.value === value))
    .map(([slot]) => slot.replace(/_symptom$/, ""));
}

/** A chat about tiredness up to the doctor's paired question about fevers and weight loss. */
async function atFeverOrWeightLoss(): Promise<Conversation> {
  const chat = new Conversation(engine);
  await chat.say("I've been feeling really tired for about two months");
  const asked = await chat.say("yes");
  expect(asked.doctor).toMatch(/\bfevers or weight loss\?$/);
  return chat;
}

describe("a bare yes to a choice of findings", () => {
  it("is asked which; the finding named is present and the other absent", async () => {
    const chat = await atFeverOrWeightLoss();
    const which = await chat.say("yes");
    expect(which.doctor).toBe("Which have you had: fevers or weight loss, or both?");
    expect(statusOf(which.state, "fever")).toEqual(["unknown"]);
    expect(statusOf(which.state, "unexplained weight loss")).toEqual(["unknown"]);
    const picked = await chat.say("just the weight loss");
    expect(statusOf(picked.state, "unexplained weight loss")).toEqual(["positive"]);
    expect(statusOf(picked.state, "fever")).toEqual(["negative"]);
    expect(picked.doctor).not.toMatch(/^Which/);
  });

  it("a yes with words that name neither ('yes, it started a few weeks ago') is asked which too", async () => {
    const chat = await atFeverOrWeightLoss();
    const which = await chat.say("yes, it started a few weeks ago");
    expect(which.doctor).toBe("Which have you had: fevers or weight loss, or both?");
  });

  it("a red flag that needs two findings waits for the pick, and fires on it", async () => {
    const chat = await atFeverOrWeightLoss();
    await chat.say("yes");
    const sweats = await chat.say("just the weight loss");
    expect(sweats.doctor).toMatch(/\bnight sweats or loss of appetite\?$/);
    const yes = await chat.say("yes");
    expect(yes.escalation).toEqual([]);
    expect(yes.doctor).toBe("Which have you had: night sweats or loss of appetite, or both?");
    const named = await chat.say("the night sweats");
    expect(named.escalation.map((flag) => flag.id)).toEqual(["weight_loss_with_night_sweats"]);
    expect(statusOf(named.state, "loss of appetite")).toEqual(["negative"]);
  });

  it("'yes, both' is no choice left open; 'no' denies both; 'not sure' is asked nothing more (negative controls)", async () => {
    const both = await atFeverOrWeightLoss();
    const reply = await both.say("yes, both");
    expect(statusOf(reply.state, "fever")).toEqual(["positive"]);
    expect(statusOf(reply.state, "unexplained weight loss")).toEqual(["positive"]);
    expect(reply.doctor).not.toMatch(/^Which/);
    const no = await atFeverOrWeightLoss();
    const denied = await no.say("no");
    expect(statusOf(denied.state, "fever")).toEqual(["negative"]);
    expect(denied.doctor).not.toMatch(/^Which/);
    const unsure = await atFeverOrWeightLoss();
    expect((await unsure.say("not sure")).doctor).not.toMatch(/^Which/);
  });

  it("a bare yes to one finding is that finding (negative control)", async () => {
    const chat = new Conversation(engine);
    await chat.say("I've been feeling really tired for about two months");
    const reply = await chat.say("yes");
    expect(reply.doctor).not.toMatch(/^Which/);
    expect(reply.state).toHaveProperty("positive_symptom");
  });
});

/** The NLU's reading of an answer to one doctor question, as "status:value" of its symptom entries. */
async function readAnswer(question: string, answer: string): Promise<string[]> {
  const history = [
    { speaker: "doctor" as const, text: "What brings you in today?" },
    { speaker: "patient" as const, text: "My heart keeps racing since yesterday." },
    { speaker: "doctor" as const, text: question },
  ];
  const { frames } = await engine.nlu.understand({ history, utterance: answer });
  return (frames ?? []).flatMap((frame) =>
    Object.entries(frame.slots ?? {})
      .filter(([slot]) => slot.endsWith("_symptom"))
      .flatMap(([slot, entries]) => entries.map((entry) => `${slot.replace(/_symptom$/, "")}:${String(entry.value)}`)),
  );
}

describe("the NLU's reading of a yes to a choice", () => {
  it("'yes' to 'any dizziness or fainting?' leaves both unknown; to 'any dizziness?' affirms it (negative control)", async () => {
    expect(await readAnswer("OK, and have you had any dizziness or fainting?", "yes")).toEqual([
      "unknown:dizziness",
      "unknown:syncope",
    ]);
    expect(await readAnswer("OK, and have you had any dizziness?", "yes")).toEqual(["positive:dizziness"]);
  });

  it("a yes that names none of the findings ('yes she is drinking ok') leaves them unknown; one that names one picks it (negative control)", async () => {
    const question = "OK, and has she had any weight loss or night sweats?";
    expect(await readAnswer(question, "yes she is drinking ok")).toEqual([
      "unknown:unexplained weight loss",
      "unknown:night sweats",
    ]);
    expect(await readAnswer(question, "yes she's been sweating at night")).toEqual(["positive:night sweats"]);
  });

  it("to 'which have you had?', 'both' picks both and a named one excludes the other", async () => {
    const which = "Which have you had: dizziness or fainting, or both?";
    expect(await readAnswer(which, "both of them")).toEqual(["positive:dizziness", "positive:syncope"]);
    expect((await readAnswer(which, "i fainted once")).sort()).toEqual(["negative:dizziness", "positive:syncope"]);
  });
});
