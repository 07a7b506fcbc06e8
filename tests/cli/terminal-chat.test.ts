import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { loadMeditod } from "../../src/data/meditod.ts";
import { runTerminalChat } from "../../cli/shared/terminal-chat.ts";
import { answerFailuresWith } from "../../src/modules/builders/backend-failure-fallback.ts";
import { buildEmbeddedEngine } from "../../src/modules/embedded/index.ts";
import type { DialogueModules } from "../../src/language/module-interfaces.ts";

const embedded = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });

/** An LLM backend that is down: every call fails, and is counted. */
function deadBackend(): DialogueModules & { calls: number } {
  const dead = {
    calls: 0,
    nlu: {
      id: "openai:dead",
      understand: async () => {
        dead.calls += 1;
        throw new Error("connect ECONNREFUSED 127.0.0.1:9");
      },
    },
    policy: {
      id: "openai:dead",
      nextActions: async () => {
        dead.calls += 1;
        throw new Error("connect ECONNREFUSED 127.0.0.1:9");
      },
    },
    nlg: {
      id: "openai:dead",
      realise: async () => {
        dead.calls += 1;
        throw new Error("connect ECONNREFUSED 127.0.0.1:9");
      },
    },
  };
  return dead;
}

describe("a turn whose backend failed, in the terminal chat", () => {
  it("is answered by the embedded engine, which the chat says; the dead backend is not retried every stage", async () => {
    const dead = deadBackend();
    let clock = 0;
    const modules = answerFailuresWith(dead, embedded, {
      backendId: "openai:dead",
      cooldownMs: 30_000,
      now: () => clock,
    });
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = "";
    output.on("data", (chunk: Buffer) => (printed += chunk.toString()));
    const done = runTerminalChat({ modules, input, output });
    input.end("I've had a cough for two weeks.\nNo blood.\n");
    await done;
    expect(printed).toContain(
      "(offline engine answered: openai:dead failed at nlu: connect ECONNREFUSED 127.0.0.1:9; /retry asks openai:dead again)",
    );
    // The second turn, within the cooldown: the backend is not asked, and the notice says why.
    expect(printed).toMatch(
      /\(offline engine answered: openai:dead failed at nlu: not asked: it failed 0 s ago \(connect ECONNREFUSED 127\.0\.0\.1:9\); \/retry asks openai:dead again\)/,
    );
    expect(printed.match(/^doctor: /gm)).toHaveLength(3);
    expect(printed).toMatch(/doctor: OK, and [^\n]*cough/);
    // One real attempt; every later stage within the cooldown goes straight to the embedded engine.
    expect(dead.calls).toBe(1);
    clock = 31_000;
    await modules.nlu.understand({ history: [], utterance: "hello" });
    expect(dead.calls).toBe(2);
  });

  it("takes /retry, which asks the backend again for a turn the embedded engine answered", async () => {
    let down = true;
    const flaky: DialogueModules = {
      nlu: {
        id: "llm:openai:m",
        understand: async (input, call) =>
          down
            ? Promise.reject(new Error("no response within 300 ms (timeout)"))
            : embedded.nlu.understand(input, call),
      },
      policy: embedded.policy,
      nlg: { id: "llm:openai:m", realise: async () => ({ text: "LLM: how long have you had it?", latencyMs: 0 }) },
    };
    const modules = answerFailuresWith(flaky, embedded, { backendId: "openai:m" });
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = "";
    output.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
      // The backend recovers once the offline engine has answered.
      if (printed.includes("/retry asks openai:m again)")) down = false;
    });
    const done = runTerminalChat({ modules, input, output });
    input.end("I've had a cough for two weeks.\n/retry\n/retry\n");
    await done;
    expect(printed).toContain(
      "(offline engine answered: openai:m failed at nlu: no response within 300 ms (timeout); /retry asks openai:m again)",
    );
    expect(printed.match(/^doctor: /gm)).toHaveLength(3);
    expect(printed).toMatch(/\/retry\ndoctor: LLM: how long have you had it\?\n/);
    expect(printed).toContain("(nothing to retry: the last turn was answered by the configured backend)");
  });

  it("is not answered by the fallback when the turn was cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    const cancelled: DialogueModules = {
      ...embedded,
      nlu: {
        id: "x",
        understand: async () => {
          throw new Error("aborted");
        },
      },
    };
    const modules = answerFailuresWith(cancelled, embedded);
    await expect(
      modules.nlu.understand({ history: [], utterance: "hi" }, { signal: controller.signal }),
    ).rejects.toThrow("aborted");
  });
});
