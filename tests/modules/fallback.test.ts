import { describe, expect, it } from "vitest";
import { withFallback } from "../../src/modules/builders/format-error-fallback.ts";
import type { DialogueModules } from "../../src/language/module-interfaces.ts";

const broken: DialogueModules = {
  nlu: {
    id: "llm",
    understand: async () => ({ frames: null, formatError: "frames: expected array", raw: "oops", latencyMs: 5 }),
  },
  policy: { id: "llm", nextActions: async () => ({ actions: [{ action: "chit-chat" }], latencyMs: 2 }) },
  nlg: { id: "llm", realise: async () => ({ text: "  ", latencyMs: 1 }) },
};
const offline: DialogueModules = {
  nlu: { id: "embedded", understand: async () => ({ frames: [{ intent: "inform" }], latencyMs: 1 }) },
  policy: {
    id: "embedded",
    nextActions: async () => ({ actions: [{ action: "nod_prompt_salutations" }], latencyMs: 1 }),
  },
  nlg: { id: "embedded", realise: async () => ({ text: "OK.", latencyMs: 1 }) },
};

describe("withFallback", () => {
  const modules = withFallback(broken, offline);

  it("answers with the fallback on a format error, keeping the model's raw text and error", async () => {
    const result = await modules.nlu.understand({ history: [], utterance: "hi" });
    expect(result).toMatchObject({
      frames: [{ intent: "inform" }],
      formatError: "frames: expected array",
      raw: "oops",
      fallback: "embedded",
      latencyMs: 6,
    });
  });

  it("keeps valid output from the primary", async () => {
    expect((await modules.policy.nextActions({ history: [], state: {} })).actions).toEqual([{ action: "chit-chat" }]);
  });

  it("replaces empty text", async () => {
    expect((await modules.nlg.realise({ history: [], actions: [] })).text).toBe("OK.");
  });
});
