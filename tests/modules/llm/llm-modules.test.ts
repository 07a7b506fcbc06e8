import { describe, expect, it } from "vitest";
import type { ChatBackend, ChatMessage, GenerateObjectResult } from "../../../src/backends/spec.ts";
import { loadMeditod } from "../../../src/data/meditod.ts";
import { createLlmModules } from "../../../src/modules/llm/llm-modules.ts";

/** A backend whose replies are scripted, recording the prompts it gets. */
function scriptedBackend(reply: string, parsed: unknown): ChatBackend & { prompts: ChatMessage[][] } {
  const prompts: ChatMessage[][] = [];
  const base = {
    raw: reply,
    usage: { inputTokens: 1, outputTokens: 1 },
    latencyMs: 1,
    cached: false,
    repaired: parsed === null,
  };
  return {
    prompts,
    specificationVersion: "v1",
    id: "fake:model",
    provider: "fake",
    model: "model",
    capabilities: { structuredOutput: true, logprobs: false, embeddings: false },
    parameters: {},
    async generate(messages) {
      prompts.push([...messages]);
      return { text: reply, usage: base.usage, latencyMs: 1, cached: false };
    },
    async generateObject(messages) {
      prompts.push([...messages]);
      return (
        parsed === null
          ? {
              ...base,
              object: null,
              formatError: { kind: "schema_violation", message: "frames: expected object", issues: [] },
            }
          : { ...base, object: parsed }
      ) as GenerateObjectResult<never>;
    },
  };
}

const dataset = loadMeditod();
const history = [{ speaker: "doctor" as const, text: "Any fevers or chills?" }];

describe("in-context LLM modules", () => {
  it("convert the paper's frames to the data's and send five exemplars from train", async () => {
    const backend = scriptedBackend("", {
      frames: [{ intent: "inform", slots: { symptom: [{ value: "Fever", status: "negative" }] } }],
    });
    const { nlu } = createLlmModules(backend, dataset);
    const result = await nlu.understand({ history, utterance: "No fevers." });
    expect(result.frames).toEqual([{ intent: "inform", slots: { negative_symptom: [{ value: "fever" }] } }]);
    expect(result.exemplars).toHaveLength(5);
    expect(result.exemplars!.every((id) => id.startsWith("115:"))).toBe(true);
    const messages = backend.prompts[0]!;
    expect(messages[0]!.role).toBe("system");
    expect(messages).toHaveLength(1 + 2 * 5 + 1);
    expect(messages.at(-1)!.content).toContain("[last turn]\ndoctor: Any fevers or chills?\npatient: No fevers.");
  });

  it("salvage a bare JSON array the schema rejected, and keep a real format error as null", async () => {
    const bare = scriptedBackend('Sure! [{"intent": "chit-chat"}]', null);
    const salvaged = await createLlmModules(bare, dataset).nlu.understand({ history, utterance: "Thanks!" });
    expect(salvaged.frames).toEqual([{ intent: "chit-chat" }]);
    expect(salvaged.formatError).toBeUndefined();

    const broken = scriptedBackend("I cannot answer that.", null);
    const failed = await createLlmModules(broken, dataset).policy.nextActions({ history, state: {} });
    expect(failed.actions).toBeNull();
    expect(failed.formatError).toMatch(/frames/);
    expect(failed.raw).toBe("I cannot answer that.");
  });

  it("realise the doctor's words without an echoed speaker tag", async () => {
    const backend = scriptedBackend("Doctor: And any chills?", null);
    const { nlg } = createLlmModules(backend, dataset);
    const result = await nlg.realise({ history, actions: [{ action: "inquire", symptom: [{ value: "chills" }] }] });
    expect(result.text).toBe("And any chills?");
    expect(backend.prompts[0]!.at(-1)!.content).toContain('"value": "chills"');
  });

  it("never take exemplars from the dialogue being predicted", async () => {
    const backend = scriptedBackend("", { actions: [] });
    const { policy } = createLlmModules(backend, dataset, { exemplarSplit: ["115", "317"] });
    const result = await policy.nextActions({ history, state: {}, dialogueId: "115" });
    expect(result.exemplars!.every((id) => id.startsWith("317:"))).toBe(true);
  });
});
