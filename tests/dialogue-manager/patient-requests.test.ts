import { describe, expect, it } from "vitest";
import { Conversation } from "../../src/dialogue-manager/conversation.ts";
import type { ConversationRecord } from "../../src/dialogue-manager/conversation-record.ts";
import type { DialogueModules, NluResult, PolicyInput } from "../../src/language/module-interfaces.ts";

/** Modules whose NLU answers from a script and whose policy remembers what it was given. */
function recordingModules(nlu: NluResult[]): DialogueModules & { policyInputs: PolicyInput[] } {
  const policyInputs: PolicyInput[] = [];
  return {
    policyInputs,
    nlu: {
      id: "test",
      understand: async () => nlu.shift() ?? { frames: [], latencyMs: 0 },
    },
    policy: {
      id: "test",
      nextActions: async (input) => (
        policyInputs.push(input),
        { actions: [{ action: "inquire", symptom: [{ value: "fever" }] }], latencyMs: 0 }
      ),
    },
    nlg: { id: "test", realise: async () => ({ text: "Any fevers?", latencyMs: 0 }) },
  };
}

const cough: NluResult = {
  frames: [{ intent: "inform", slots: { positive_symptom: [{ value: "coughing" }] } }],
  latencyMs: 0,
};

describe("the dialogue manager records who the history is about and what the patient asks", () => {
  it("keeps the latest informant, every request with its turn, and hands them to the policy", async () => {
    const modules = recordingModules([
      { ...cough, informant: { relation: "daughter", patientAge: null, patientSex: "female" } },
      { ...cough, informant: { relation: null, patientAge: "3 years", patientSex: null } },
      { frames: [], latencyMs: 0, requests: [{ kind: "question", text: "Is it cancer?" }] },
      { frames: [], latencyMs: 0, requests: [{ kind: "stop", text: "Can we stop here?" }] },
    ]);
    const conversation = new Conversation(modules);
    await conversation.say("My daughter has a cough.");
    await conversation.say("She's 3.");
    await conversation.say("Is it cancer?");
    await conversation.say("Can we stop here?");
    const informant = { relation: "daughter", patientAge: "3 years", patientSex: "female" };
    expect(conversation.snapshot().informant).toEqual(informant);
    expect(conversation.snapshot().patientRequests).toEqual([
      { kind: "question", text: "Is it cancer?", turn: 5 },
      { kind: "stop", text: "Can we stop here?", turn: 7 },
    ]);
    const [first, , third, fourth] = modules.policyInputs;
    expect(first).toMatchObject({ informant: { relation: "daughter" }, requests: [], patientQuestions: [] });
    expect(third).toMatchObject({ informant, requests: [{ kind: "question" }], patientQuestions: [{ turn: 5 }] });
    // Requests are the turn's own; questions are every question so far (a stop is not one).
    expect(fourth).toMatchObject({ requests: [{ kind: "stop" }], patientQuestions: [{ text: "Is it cancer?" }] });
    // The requests were no history: the profile holds the cough alone.
    expect(conversation.snapshot().state).toEqual({ positive_symptom: [{ value: "coughing" }] });
  });

  it("negative control: a patient speaking for themself, asking nothing, leaves both empty", async () => {
    const modules = recordingModules([cough]);
    const conversation = new Conversation(modules);
    await conversation.say("I have a cough.");
    expect(conversation.snapshot()).toMatchObject({ informant: null, patientRequests: [] });
    expect(modules.policyInputs[0]).not.toHaveProperty("informant");
    expect(modules.policyInputs[0]).toMatchObject({ requests: [], patientQuestions: [] });
  });

  it("resumes a snapshot stored before the informant and requests were kept", async () => {
    const original = new Conversation(recordingModules([cough]));
    await original.say("I have a cough.");
    const record = JSON.parse(JSON.stringify(original.record())) as ConversationRecord;
    const context = (record.snapshot as unknown as { context: Record<string, unknown> }).context;
    for (const field of ["informant", "patientRequests", "requests"]) delete context[field];
    const modules = recordingModules([{ ...cough, requests: [{ kind: "question", text: "Is it serious?" }] }]);
    const resumed = Conversation.resume(modules, record);
    expect(resumed.snapshot()).toMatchObject({ informant: null, patientRequests: [] });
    await resumed.say("Is it serious?");
    expect(resumed.snapshot().patientRequests).toEqual([{ kind: "question", text: "Is it serious?", turn: 3 }]);
  });
});
