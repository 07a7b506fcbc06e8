import { describe, expect, it } from "vitest";
import { Conversation } from "../../src/dm/conversation.ts";
import type { DialogueModules, NluResult, PolicyResult } from "../../src/modules/types.ts";
import type { DoctorAction } from "../../src/cmas/schemas.ts";

/** Modules scripted per call, to drive the machine down each of its paths. */
function scriptedModules(options: {
  nlu?: Array<NluResult | Error>;
  policy?: Array<PolicyResult | Error>;
  nlg?: Array<string | Error>;
}): DialogueModules & { calls: string[] } {
  const calls: string[] = [];
  const next = <T>(queue: Array<T | Error> | undefined, fallback: T): T => {
    const item = queue && queue.length > 0 ? queue.shift()! : fallback;
    if (item instanceof Error) throw item;
    return item;
  };
  const ask: DoctorAction[] = [{ action: "inquire", symptom: [{ value: "fever" }] }];
  return {
    calls,
    nlu: { id: "test", understand: async ({ utterance }) => (calls.push(`nlu:${utterance}`), next(options.nlu, { frames: [{ intent: "inform", slots: { positive_symptom: [{ value: "coughing" }] } }], latencyMs: 0 })) },
    policy: { id: "test", nextActions: async () => (calls.push("policy"), next(options.policy, { actions: ask, latencyMs: 0 })) },
    nlg: { id: "test", realise: async ({ actions }) => (calls.push(`nlg:${actions[0]?.action}`), { text: next(options.nlg, "Any fevers?"), latencyMs: 0 }) },
  };
}

describe("the dialogue machine", () => {
  it("opens, then runs NLU → state → policy → NLG per patient turn", async () => {
    const modules = scriptedModules({});
    const conversation = new Conversation(modules);
    expect(conversation.opening).toBe("What brings you in today?");
    const outcome = await conversation.say("I've had a cough.");
    expect(modules.calls).toEqual(["nlu:I've had a cough.", "policy", "nlg:inquire"]);
    expect(outcome).toMatchObject({ doctor: "Any fevers?", ended: false, error: null, state: { positive_symptom: [{ value: "coughing" }] } });
    expect(conversation.snapshot().history.map((turn) => turn.speaker)).toEqual(["doctor", "patient", "doctor"]);
  });

  it("keeps the profile unchanged after an NLU format error but still answers", async () => {
    const conversation = new Conversation(scriptedModules({ nlu: [{ frames: [{ intent: "inform", slots: { positive_symptom: [{ value: "coughing" }] } }], latencyMs: 0 }, { frames: null, formatError: "bad", latencyMs: 0 }] }));
    await conversation.say("I cough.");
    const outcome = await conversation.say("???");
    expect(outcome.frames).toBeNull();
    expect(outcome.state).toEqual({ positive_symptom: [{ value: "coughing" }] });
    expect(outcome.doctor).toBe("Any fevers?");
  });

  it("tracks the profile as a value: an earlier turn's state is never changed, and first-mention order survives a status change", async () => {
    const frames = (slots: Record<string, Array<Record<string, string>>>) => ({ frames: [{ intent: "inform" as const, slots }], latencyMs: 0 });
    const conversation = new Conversation(
      scriptedModules({ nlu: [frames({ negative_symptom: [{ value: "fever" }] }), frames({ positive_symptom: [{ value: "coughing" }] }), frames({ positive_symptom: [{ value: "fever", onset: "yesterday" }] })] }),
    );
    const first = await conversation.say("No fever.");
    const firstState = structuredClone(first.state);
    await conversation.say("A cough.");
    const third = await conversation.say("Actually a fever since yesterday.");
    expect(first.state).toEqual(firstState);
    expect(third.state).toEqual({ positive_symptom: [{ value: "fever", onset: "yesterday" }, { value: "coughing" }] });
  });

  it("fails on a dead NLU and retries the same utterance", async () => {
    const modules = scriptedModules({ nlu: [new Error("backend down")] });
    const conversation = new Conversation(modules);
    const failed = await conversation.say("I have a cough.");
    expect(failed).toMatchObject({ doctor: null, error: "backend down", ended: false });
    expect(conversation.snapshot().history).toHaveLength(1);
    const retried = await conversation.retry();
    expect(retried.doctor).toBe("Any fevers?");
    expect(modules.calls.filter((call) => call.startsWith("nlu:"))).toEqual(["nlu:I have a cough.", "nlu:I have a cough."]);
    expect(conversation.snapshot().history).toHaveLength(3);
  });

  it("fails on a dead policy and re-plans on retry without understanding again", async () => {
    const modules = scriptedModules({ policy: [new Error("timeout")] });
    const conversation = new Conversation(modules);
    expect((await conversation.say("Cough.")).error).toBe("timeout");
    expect((await conversation.retry()).doctor).toBe("Any fevers?");
    expect(modules.calls).toEqual(["nlu:Cough.", "policy", "policy", "nlg:inquire"]);
  });

  it("accepts a new utterance after a failed NLG", async () => {
    const conversation = new Conversation(scriptedModules({ nlg: [new Error("nlg down")] }));
    expect((await conversation.say("Cough.")).error).toBe("nlg down");
    expect((await conversation.say("Still coughing.")).doctor).toBe("Any fevers?");
  });

  it("ends after a diagnosis, after the turn limit, or when asked", async () => {
    const diagnosis = new Conversation(scriptedModules({ policy: [{ actions: [{ action: "diagnosis", disease: [{ value: "asthma" }] }], latencyMs: 0 }], nlg: ["It may be asthma."] }));
    expect(await diagnosis.say("Wheezy.")).toMatchObject({ doctor: "It may be asthma.", ended: true });
    await expect(diagnosis.say("Thanks")).rejects.toThrow(/ended/);

    const limited = new Conversation(scriptedModules({}), { maxDoctorTurns: 2 });
    expect((await limited.say("a")).ended).toBe(false);
    expect((await limited.say("b")).ended).toBe(true);

    const ended = new Conversation(scriptedModules({}));
    ended.end();
    expect(ended.snapshot().ended).toBe(true);
  });

  it("refuses an empty utterance", async () => {
    await expect(new Conversation(scriptedModules({})).say("   ")).rejects.toThrow(/nothing/);
  });
});
