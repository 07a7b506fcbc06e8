import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  ATTRIBUTE_EQUIVALENCE_PROMPT_FILE,
  createAttributeJudge,
  isPositiveVerdict,
  renderAttributeEquivalencePrompt,
} from "../../src/backends/llm-attribute-judge.ts";
import { exactJudge } from "../../src/metrics/attribute-judge.ts";
import { fakeServerForTest, hermeticOptions, tempDirForTest } from "./helpers.ts";

const OFFICIAL_PROMPT =
  'You are an expert in the English language. Your task is identifying whether two phrases have similar meanings. If the two phrases have similar meanings, say "positive." Otherwise, say "negative". Pay special attention to any medical terms present in the phrases. Here are the phrases.\n\nPhrase 1: two days ago\nPhrase 2: since monday\nAnswer (positive/negative):';

describe("attribute-equivalence prompt", () => {
  it("renders the official prompt with lower-cased phrases", () => {
    expect(renderAttributeEquivalencePrompt("Two days ago", "Since MONDAY")).toBe(OFFICIAL_PROMPT);
    expect(readFileSync(ATTRIBUTE_EQUIVALENCE_PROMPT_FILE, "utf8")).toContain("{{phrase1}}");
  });

  it("uses the official verdict rule: 'positive' in reply.lower()", () => {
    expect(isPositiveVerdict("Positive.")).toBe(true);
    expect(isPositiveVerdict("POSITIVE")).toBe(true);
    expect(isPositiveVerdict("negative")).toBe(false);
    expect(isPositiveVerdict("")).toBe(false);
  });
});

describe("createAttributeJudge", () => {
  /** A fake judge model that finds "since monday" equivalent and nothing else, and hermetic options for it: closed and removed when the test finishes. */
  async function judgeServer() {
    const server = await fakeServerForTest("openai", {
      respond: (call) => ({
        content: call.messages[0]!.content.includes("Phrase 2: since monday") ? "Positive." : "Negative",
      }),
    });
    return { server, options: hermeticOptions(server, tempDirForTest()) };
  }

  it("returns the exact judge for `exact`", async () => {
    expect(await createAttributeJudge("exact")).toBe(exactJudge);
  });

  it("asks the backend once per distinct pair, as a lone system message with max_tokens 10 and temperature 0", async () => {
    const { server, options } = await judgeServer();
    const judge = await createAttributeJudge("openai:gpt-3.5-turbo-0125", options);
    expect(judge.id).toBe("openai:gpt-3.5-turbo-0125");
    const pairs = [
      { gold: "two days ago", predicted: "Since Monday" },
      { gold: "two days ago", predicted: "last year" },
      { gold: "Two days ago", predicted: "since monday" },
    ];
    expect(await judge.equivalent(pairs)).toEqual([true, false, true]);
    expect(server.calls).toHaveLength(2);
    const call = server.calls.find((c) => c.messages[0]!.content.includes("since monday"))!;
    expect(call.messages).toEqual([{ role: "system", content: OFFICIAL_PROMPT }]);
    expect(call.body).toMatchObject({ model: "gpt-3.5-turbo-0125", temperature: 0, max_tokens: 10 });
  });

  it("caches verdicts like any response", async () => {
    const { server, options } = await judgeServer();
    const pairs = [{ gold: "two days ago", predicted: "since Monday" }];
    await (await createAttributeJudge("openai:gpt-4o-mini", options)).equivalent(pairs);
    const again = await (await createAttributeJudge("openai:gpt-4o-mini", options)).equivalent(pairs);
    expect(again).toEqual([true]);
    expect(server.calls).toHaveLength(1);
  });
});
