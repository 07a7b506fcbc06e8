import { readFileSync } from "node:fs";
import { createActor, waitFor } from "xstate";
import { describe, expect, it } from "vitest";
import { Conversation } from "../../src/dialogue-manager/conversation.ts";
import type { LegacyConversationRecord } from "../../src/dialogue-manager/conversation-record.ts";
import { dialogueMachine } from "../../src/dialogue-manager/dialogue-machine.ts";
import type { StoredSessionsFixture } from "../server/stored-sessions-fixture.ts";
import type { DialogueModules, NluResult, PolicyResult } from "../../src/language/module-interfaces.ts";
import type { DoctorAction } from "../../src/cmas/schemas.ts";
import { loadRedFlags } from "../../src/clinical/red-flags.ts";
import { answerFailuresWith } from "../../src/modules/builders/backend-failure-fallback.ts";

/** A conversation record as the chat server stored it at 8ee4bf2 (hand-built, before version 2), the first at `stage`. */
function legacyRecord(stage: LegacyConversationRecord["stage"]): LegacyConversationRecord {
  const fixture = JSON.parse(
    readFileSync(new URL("../fixtures/stored-sessions-8ee4bf2.json", import.meta.url), "utf8"),
  ) as StoredSessionsFixture;
  const records = fixture.sessions.map(
    (session) => (session.record as { conversation: LegacyConversationRecord }).conversation,
  );
  return records.find((record) => record.stage === stage)!;
}

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
    nlu: {
      id: "test",
      understand: async ({ utterance }) => (
        calls.push(`nlu:${utterance}`),
        next(options.nlu, {
          frames: [{ intent: "inform", slots: { positive_symptom: [{ value: "coughing" }] } }],
          latencyMs: 0,
        })
      ),
    },
    policy: {
      id: "test",
      nextActions: async () => (calls.push("policy"), next(options.policy, { actions: ask, latencyMs: 0 })),
    },
    nlg: {
      id: "test",
      realise: async ({ actions }) => (
        calls.push(`nlg:${actions[0]?.action}`),
        { text: next(options.nlg, "Any fevers?"), latencyMs: 0 }
      ),
    },
  };
}

describe("the dialogue machine", () => {
  it("opens, then runs NLU → state → policy → NLG per patient turn", async () => {
    const modules = scriptedModules({});
    const conversation = new Conversation(modules);
    expect(conversation.opening).toBe("What brings you in today?");
    const outcome = await conversation.say("I've had a cough.");
    expect(modules.calls).toEqual(["nlu:I've had a cough.", "policy", "nlg:inquire"]);
    expect(outcome).toMatchObject({
      doctor: "Any fevers?",
      ended: false,
      error: null,
      state: { positive_symptom: [{ value: "coughing" }] },
    });
    expect(conversation.snapshot().history.map((turn) => turn.speaker)).toEqual(["doctor", "patient", "doctor"]);
  });

  it("keeps the profile unchanged after an NLU format error but still answers", async () => {
    const conversation = new Conversation(
      scriptedModules({
        nlu: [
          { frames: [{ intent: "inform", slots: { positive_symptom: [{ value: "coughing" }] } }], latencyMs: 0 },
          { frames: null, formatError: "bad", latencyMs: 0 },
        ],
      }),
    );
    await conversation.say("I cough.");
    const outcome = await conversation.say("???");
    expect(outcome.frames).toBeNull();
    expect(outcome.state).toEqual({ positive_symptom: [{ value: "coughing" }] });
    expect(outcome.doctor).toBe("Any fevers?");
  });

  it("tracks the profile as a value: an earlier turn's state is never changed, and first-mention order survives a status change", async () => {
    const frames = (slots: Record<string, Array<Record<string, string>>>) => ({
      frames: [{ intent: "inform" as const, slots }],
      latencyMs: 0,
    });
    const conversation = new Conversation(
      scriptedModules({
        nlu: [
          frames({ negative_symptom: [{ value: "fever" }] }),
          frames({ positive_symptom: [{ value: "coughing" }] }),
          frames({ positive_symptom: [{ value: "fever", onset: "yesterday" }] }),
        ],
      }),
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
    expect(modules.calls.filter((call) => call.startsWith("nlu:"))).toEqual([
      "nlu:I have a cough.",
      "nlu:I have a cough.",
    ]);
    expect(conversation.snapshot().history).toHaveLength(3);
  });

  it("fails on a dead policy and re-plans on retry without understanding again", async () => {
    const modules = scriptedModules({ policy: [new Error("timeout")] });
    const conversation = new Conversation(modules);
    expect((await conversation.say("Cough.")).error).toBe("timeout");
    expect((await conversation.retry()).doctor).toBe("Any fevers?");
    expect(modules.calls).toEqual(["nlu:Cough.", "policy", "policy", "nlg:inquire"]);
  });

  it("clears the error on a retry and counts the turn once: fail → retry (fails again) → retry → nothing left to retry", async () => {
    const modules = scriptedModules({ nlu: [new Error("down"), new Error("still down")] });
    const conversation = new Conversation(modules);
    expect((await conversation.say("I have a cough.")).error).toBe("down");
    expect(conversation.snapshot()).toMatchObject({ failed: true, error: "down" });
    const again = await conversation.retry();
    expect(again).toMatchObject({ doctor: null, error: "still down" });
    expect(conversation.snapshot()).toMatchObject({ failed: true, error: "still down" });
    const done = await conversation.retry();
    expect(done).toMatchObject({ doctor: "Any fevers?", error: null });
    expect(conversation.snapshot()).toMatchObject({ failed: false, error: null });
    await expect(conversation.retry()).rejects.toThrow(/did not fail/);
    expect(conversation.snapshot().history.map((turn) => turn.speaker)).toEqual(["doctor", "patient", "doctor"]);
    expect(modules.calls).toEqual([
      "nlu:I have a cough.",
      "nlu:I have a cough.",
      "nlu:I have a cough.",
      "policy",
      "nlg:inquire",
    ]);
  });

  it("resumes from its record as it was: between turns, after a failure, and ended", async () => {
    const modules = scriptedModules({
      nlu: [
        {
          frames: [
            {
              intent: "inform",
              slots: { positive_symptom: [{ value: "coughing" }], negative_symptom: [{ value: "fever" }] },
            },
          ],
          latencyMs: 0,
        },
        new Error("down"),
      ],
    });
    const original = new Conversation(modules);
    await original.say("Cough, no fever.");
    const listening = JSON.parse(JSON.stringify(original.record()));
    await original.say("Wheezing.");
    const failed = JSON.parse(JSON.stringify(original.record()));
    // The record is xstate's persisted snapshot of the machine, stopped at the failed stage.
    expect(failed).toMatchObject({
      version: 2,
      snapshot: { status: "active", value: "failed", children: {}, context: { pending: "Wheezing.", error: "down" } },
    });

    const resumed = Conversation.resume(modules, failed);
    expect(resumed.snapshot()).toMatchObject({ failed: true, error: "down", history: original.snapshot().history });
    expect((await resumed.retry()).doctor).toBe("Any fevers?");
    expect(modules.calls.at(-3)).toBe("nlu:Wheezing.");

    // The profile continues from the saved tracker: fever, denied before, moves to positive in its place.
    const fromListening = Conversation.resume(
      scriptedModules({
        nlu: [{ frames: [{ intent: "inform", slots: { positive_symptom: [{ value: "fever" }] } }], latencyMs: 0 }],
      }),
      listening,
    );
    expect((await fromListening.say("Actually I do have a fever.")).state).toEqual({
      positive_symptom: [{ value: "coughing" }, { value: "fever" }],
    });

    const ended = new Conversation(scriptedModules({}));
    ended.end();
    expect(Conversation.resume(modules, ended.record()).snapshot().ended).toBe(true);
  });

  it("accepts a new utterance after a failed NLG", async () => {
    const conversation = new Conversation(scriptedModules({ nlg: [new Error("nlg down")] }));
    expect((await conversation.say("Cough.")).error).toBe("nlg down");
    expect((await conversation.say("Still coughing.")).doctor).toBe("Any fevers?");
  });

  it("ends after a diagnosis, after the turn limit, or when asked", async () => {
    const diagnosis = new Conversation(
      scriptedModules({
        policy: [{ actions: [{ action: "diagnosis", disease: [{ value: "asthma" }] }], latencyMs: 0 }],
        nlg: ["It may be asthma."],
      }),
    );
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

describe("escalation on a red flag", () => {
  const chestPain: NluResult = {
    frames: [{ intent: "inform", slots: { positive_symptom: [{ value: "chest pain" }, { value: "dyspnea" }] } }],
    latencyMs: 0,
  };
  const nothingNew: NluResult = {
    frames: [{ intent: "inform", slots: { negative_symptom: [{ value: "fever" }] } }],
    latencyMs: 0,
  };
  const advice = loadRedFlags().flags.find((flag) => flag.id === "chest_pain_with_breathlessness_or_sweating")!.advice;

  it("advises urgent care once, as a doctor turn of its own before the next question, and records the flag", async () => {
    const modules = scriptedModules({ nlu: [chestPain, nothingNew] });
    const conversation = new Conversation(modules);
    const first = await conversation.say("Crushing chest pain and I can't breathe.");
    expect(first.escalation.map((flag) => flag.id)).toEqual(["chest_pain_with_breathlessness_or_sweating"]);
    expect(first.ended).toBe(false);
    const [said, asked] = first.doctor!.split("\n\n");
    expect(said).toContain(advice);
    expect(asked).toBe("Any fevers?");
    // The question stays the last doctor turn: the patient's next short answer is read against it.
    expect(conversation.snapshot().history.map((turn) => turn.speaker)).toEqual([
      "doctor",
      "patient",
      "doctor",
      "doctor",
    ]);
    expect(conversation.snapshot().history.at(-1)!.text).toBe("Any fevers?");
    expect(conversation.snapshot().redFlags).toMatchObject([
      { id: "chest_pain_with_breathlessness_or_sweating", turn: 1, urgency: "emergency" },
    ]);

    // The flag still holds on the next turn, but it is not advised again.
    const second = await conversation.say("No fevers.");
    expect(second.escalation).toEqual([]);
    expect(second.doctor).toBe("Any fevers?");
    expect(conversation.snapshot().redFlags).toHaveLength(1);
  });

  it("ends the history after the advice when asked to", async () => {
    const conversation = new Conversation(scriptedModules({ nlu: [chestPain] }), { afterEscalation: "end" });
    const outcome = await conversation.say("Chest pain, short of breath.");
    expect(outcome.ended).toBe(true);
    expect(outcome.doctor).toContain(advice);
    expect(outcome.doctor).not.toContain("Any fevers?");
    // It does not offer to go on with questions it will not ask.
    const { escalation } = loadRedFlags().file;
    expect(outcome.doctor!.endsWith(escalation.closingWhenEnding)).toBe(true);
    expect(outcome.doctor).not.toContain(escalation.closing);
  });

  it("ends the history after the advice for someone who cannot answer, whatever the setting", async () => {
    const collapsed: NluResult = {
      frames: [{ intent: "inform", slots: { positive_symptom: [{ value: "unresponsiveness" }] } }],
      latencyMs: 0,
    };
    const ambulance = loadRedFlags().flags.find((flag) => flag.id === "collapsed_and_unresponsive")!.advice;
    const conversation = new Conversation(scriptedModules({ nlu: [collapsed] }));
    const outcome = await conversation.say("My husband collapsed and I can't wake him.");
    expect(outcome.escalation.map((flag) => flag.id)).toEqual(["collapsed_and_unresponsive"]);
    expect(outcome.ended).toBe(true);
    expect(outcome.doctor).toContain(ambulance);
    expect(outcome.doctor).not.toContain("Any fevers?");
    expect(outcome.doctor!.endsWith(loadRedFlags().file.escalation.closingWhenEnding)).toBe(true);
    // Negative control: an emergency the patient can still talk through goes on with the history.
    const chest = await new Conversation(scriptedModules({ nlu: [chestPain] })).say("Chest pain, short of breath.");
    expect(chest.ended).toBe(false);
  });

  it("keeps the advice when the next stage fails, and does not repeat it on retry", async () => {
    const modules = scriptedModules({ nlu: [chestPain], policy: [new Error("backend down")] });
    const conversation = new Conversation(modules);
    expect((await conversation.say("Chest pain, short of breath.")).error).toBe("backend down");
    expect(conversation.snapshot().redFlags).toHaveLength(1);
    const retried = await conversation.retry();
    expect(retried.doctor!.match(/Before we go on/g)).toHaveLength(1);
    expect(conversation.snapshot().history.filter((turn) => turn.text.includes(advice))).toHaveLength(1);
  });

  it("can be turned off", async () => {
    const conversation = new Conversation(scriptedModules({ nlu: [chestPain] }), { redFlags: null });
    const outcome = await conversation.say("Chest pain, short of breath.");
    expect(outcome).toMatchObject({ doctor: "Any fevers?", escalation: [] });
    expect(conversation.snapshot().redFlags).toEqual([]);
  });
});

describe("the closing rules, whatever backend planned", () => {
  const wheeze: NluResult = {
    frames: [
      {
        intent: "inform",
        slots: {
          positive_symptom: [{ value: "wheezing" }, { value: "dyspnea" }],
          negative_symptom: [{ value: "fever" }],
        },
      },
    ],
    latencyMs: 0,
  };
  const unsupported: PolicyResult = {
    actions: [
      { action: "inquire", medical_test: [{ value: "plain x-ray" }, { value: "pulmonary function tests" }] },
      { action: "diagnosis", disease: [{ value: "pneumonia" }, { value: "asthma" }] },
    ],
    latencyMs: 0,
  };

  it("keep only diseases whose criteria the state meets, and only their tests", async () => {
    const outcome = await new Conversation(scriptedModules({ nlu: [wheeze], policy: [unsupported] })).say(
      "I wheeze and get breathless.",
    );
    expect(outcome.actions).toEqual([
      { action: "inquire", medical_test: [{ value: "pulmonary function tests" }] },
      { action: "diagnosis", disease: [{ value: "asthma" }] },
    ]);
  });

  it("turn an unsupported diagnosis into an honest 'none' that passes on the findings", async () => {
    const headache: NluResult = {
      frames: [{ intent: "inform", slots: { positive_symptom: [{ value: "headache" }] } }],
      latencyMs: 0,
    };
    const guess: PolicyResult = {
      actions: [
        { action: "inquire", medical_test: [{ value: "plain x-ray" }] },
        { action: "diagnosis", disease: [{ value: "viral respiratory infection" }] },
      ],
      latencyMs: 0,
    };
    const outcome = await new Conversation(scriptedModules({ nlu: [headache], policy: [guess] })).say("Headache.");
    expect(outcome.actions).toEqual([{ action: "diagnosis", symptom: [{ value: "headache" }] }]);
  });

  it("leave a test asked mid-history alone", async () => {
    const asked: PolicyResult = {
      actions: [{ action: "inquire", medical_test: [{ value: "body temperature measurement" }] }],
      latencyMs: 0,
    };
    const outcome = await new Conversation(scriptedModules({ policy: [asked] })).say("I feel hot.");
    expect(outcome.actions).toEqual(asked.actions);
  });
});

describe("the modules after an escalation", () => {
  it("never see the urgent-care advice: it is the dialogue manager's turn, not the policy's", async () => {
    const seen: string[][] = [];
    const chestPain: NluResult = {
      frames: [{ intent: "inform", slots: { positive_symptom: [{ value: "chest pain" }, { value: "dyspnea" }] } }],
      latencyMs: 0,
    };
    const modules = scriptedModules({ nlu: [chestPain] });
    const watched: DialogueModules = {
      ...modules,
      policy: {
        id: "watch",
        nextActions: async (input) => (
          seen.push(input.history.map((turn) => turn.text)),
          modules.policy.nextActions(input)
        ),
      },
    };
    const conversation = new Conversation(watched);
    await conversation.say("Chest pain and I can't breathe.");
    await conversation.say("No fever.");
    expect(seen[0]).toEqual(["What brings you in today?", "Chest pain and I can't breathe."]);
    expect(seen[1]).toEqual([
      "What brings you in today?",
      "Chest pain and I can't breathe.",
      "Any fevers?",
      "No fever.",
    ]);
    expect(conversation.snapshot().history.some((turn) => /Before we go on/.test(turn.text))).toBe(true);
  });
});

describe("a turn the offline engine answers for a failed backend", () => {
  const dead = (): DialogueModules => {
    const fail = async (): Promise<never> => {
      throw new Error("backend openai:m at http://127.0.0.1:9/v1: connection refused");
    };
    return {
      nlu: { id: "llm:openai:m", understand: fail },
      policy: { id: "llm:openai:m", nextActions: fail },
      nlg: { id: "llm:openai:m", realise: fail },
    };
  };

  it("goes through the closing rules like any other: the fallback's unsupported diagnosis becomes an honest 'none'", async () => {
    const headache: NluResult = {
      frames: [{ intent: "inform", slots: { positive_symptom: [{ value: "headache" }] } }],
      latencyMs: 0,
    };
    const guess: PolicyResult = {
      actions: [
        { action: "inquire", medical_test: [{ value: "plain x-ray" }] },
        { action: "diagnosis", disease: [{ value: "viral respiratory infection" }] },
      ],
      latencyMs: 0,
    };
    const modules = answerFailuresWith(
      dead(),
      scriptedModules({ nlu: [headache], policy: [guess], nlg: ["I can't say what it is."] }),
      { backendId: "openai:m" },
    );
    const outcome = await new Conversation(modules).say("Headache.");
    expect(outcome.actions).toEqual([{ action: "diagnosis", symptom: [{ value: "headache" }] }]);
    expect(outcome.fallback).toEqual({
      turn: 1,
      backend: "openai:m",
      stages: ["nlu", "policy", "nlg"],
      reason: "openai:m failed at nlu: backend openai:m at http://127.0.0.1:9/v1: connection refused",
    });
    expect(outcome.ended).toBe(true);
  });

  it("can be retried with the backend from the turn's start, even after a restart and even when it closed the history; the retry replaces it", async () => {
    let up = false;
    const llm = scriptedModules({ nlg: ["LLM: any fevers?"] });
    const flaky: DialogueModules = {
      nlu: {
        id: "llm",
        understand: (input, call) => (up ? llm.nlu.understand(input, call) : dead().nlu.understand(input, call)),
      },
      policy: {
        id: "llm",
        nextActions: (input, call) =>
          up ? llm.policy.nextActions(input, call) : dead().policy.nextActions(input, call),
      },
      nlg: {
        id: "llm",
        realise: (input, call) => (up ? llm.nlg.realise(input, call) : dead().nlg.realise(input, call)),
      },
    };
    const closing: PolicyResult = {
      actions: [{ action: "diagnosis", symptom: [{ value: "coughing" }] }],
      latencyMs: 0,
    };
    const modules = answerFailuresWith(
      flaky,
      scriptedModules({ policy: [closing], nlg: ["Offline: that is all I needed."] }),
      { backendId: "openai:m" },
    );
    const first = new Conversation(modules);
    const offline = await first.say("I cough.");
    expect(offline).toMatchObject({ doctor: "Offline: that is all I needed.", ended: true, fallback: { turn: 1 } });
    expect(first.snapshot()).toMatchObject({ retryable: true, failed: false, fallbacks: [offline.fallback] });

    // The record carries the turn's starting point: a restart can still retry it.
    const resumed = Conversation.resume(modules, JSON.parse(JSON.stringify(first.record())));
    expect(resumed.snapshot()).toMatchObject({ retryable: true, ended: true, fallbacks: [offline.fallback] });
    up = true;
    const retried = await resumed.retry();
    expect(retried).toMatchObject({ doctor: "LLM: any fevers?", ended: false, fallback: null, error: null });
    expect(resumed.snapshot()).toMatchObject({ retryable: false, fallbacks: [] });
    expect(resumed.snapshot().history.map((turn) => turn.text)).toEqual([
      "What brings you in today?",
      "I cough.",
      "LLM: any fevers?",
    ]);
    await expect(resumed.retry()).rejects.toThrow(/did not fail/);
  });

  it("is not retryable once the patient has said something else, or ended the history", async () => {
    const modules = answerFailuresWith(dead(), scriptedModules({}), { backendId: "openai:m" });
    const conversation = new Conversation(modules);
    await conversation.say("I cough.");
    expect(conversation.snapshot().retryable).toBe(true);
    conversation.end();
    expect(conversation.snapshot()).toMatchObject({ retryable: false, ended: true });
  });

  it("resumes a record written before fallbacks were recorded", async () => {
    const { fallbacks: _fallbacks, reaskBackend: _reask, ...old } = legacyRecord("failed");
    const resumed = Conversation.resume(scriptedModules({}), old);
    expect(resumed.snapshot()).toMatchObject({
      fallbacks: [],
      retryable: true,
      failed: true,
      error: "connection refused",
    });
    expect((await resumed.retry()).fallback).toBeNull();
  });
});

describe("the machine, xstate's way", () => {
  it("is stored as xstate's persisted snapshot, which createActor restores", async () => {
    const conversation = new Conversation(scriptedModules({}));
    await conversation.say("I've had a cough.");
    const { snapshot } = JSON.parse(JSON.stringify(conversation.record())) as ReturnType<Conversation["record"]>;
    const restored = createActor(dialogueMachine, { snapshot, input: {} }).start();
    expect(restored.getSnapshot().value).toBe("listening");
    expect(restored.getSnapshot().context).toMatchObject({
      history: conversation.snapshot().history,
      state: conversation.snapshot().state,
      doctorTurns: 1,
    });
  });

  it("runs no stage it was not given: without modules, the turn fails and says so", async () => {
    const actor = createActor(dialogueMachine, { input: {} }).start();
    actor.send({ type: "PATIENT_SAID", text: "I've had a cough." });
    const failed = await waitFor(actor, (snapshot) => snapshot.matches("failed"));
    expect(failed.context).toMatchObject({
      pending: "I've had a cough.",
      error: expect.stringMatching(/given no NLU module/),
    });
  });
});

describe("records stored before version 2 (hand-built)", () => {
  it("resume where they were, with the point a Retry re-asks the backend from, and are recorded again in today's format", async () => {
    const legacy = legacyRecord("listening");
    const withReask = { ...legacy, reask: { before: { ...legacy, stage: "listening" as const }, text: "I cough." } };
    const resumed = Conversation.resume(scriptedModules({}), withReask);
    expect(resumed.snapshot()).toMatchObject({
      history: legacy.history,
      state: legacy.state,
      redFlags: legacy.redFlags,
      retryable: true,
      failed: false,
    });
    const record = resumed.record();
    expect(record).toMatchObject({
      version: 2,
      snapshot: { value: "listening", context: { tracker: legacy.tracker } },
      reask: { before: { value: "listening" }, text: "I cough." },
    });
    // A Retry starts from the stored point: the history as it was, then the turn said again.
    const retried = await resumed.retry();
    expect(retried.doctor).toBe("Any fevers?");
    expect(resumed.snapshot().history).toEqual([
      ...legacy.history,
      { speaker: "patient", text: "I cough." },
      { speaker: "doctor", text: "Any fevers?" },
    ]);
  });
});
