import { describe, expect, it } from "vitest";
import { countMessageTokens, countTokens, fitPrompt } from "../../src/modules/prompting/token-budget.ts";

describe("token budget", () => {
  it("counts cl100k_base tokens", () => {
    expect(countTokens("Hello, how long have you had the cough?")).toBe(10);
    expect(countMessageTokens([{ role: "user", content: "Hello, how long have you had the cough?" }])).toBe(3 + 4 + 10);
  });

  it("drops the least similar exemplars first, then shortens the history, and reports what it kept", () => {
    const exemplars = [1, 2, 3, 4, 5].map((n) => ({ id: `d:${n}`, user: "word ".repeat(100), assistant: "{}" }));
    const history = ["first turn", "second turn", "third turn"];
    const renderQuery = (keep: number) => [...history.slice(history.length - keep), "last turn"].join("\n");
    const roomy = fitPrompt({ system: "rules", exemplars, historyTurns: 3, renderQuery, budget: 4096, reserve: 512 });
    expect(roomy.exemplars).toEqual(["d:1", "d:2", "d:3", "d:4", "d:5"]);
    expect(roomy.droppedHistoryTurns).toBe(0);
    expect(roomy.messages).toHaveLength(1 + 2 * 5 + 1);

    const tight = fitPrompt({ system: "rules", exemplars, historyTurns: 3, renderQuery, budget: 350, reserve: 100 });
    expect(tight.exemplars).toEqual(["d:1", "d:2"]);
    expect(tight.promptTokens).toBeLessThanOrEqual(250);
    expect(tight.droppedHistoryTurns).toBe(0);

    const tiniest = fitPrompt({ system: "rules", exemplars, historyTurns: 3, renderQuery, budget: 30, reserve: 10 });
    expect(tiniest.exemplars).toEqual([]);
    expect(tiniest.messages.at(-1)!.content).toContain("last turn");
    expect(tiniest.droppedHistoryTurns).toBeGreaterThan(0);
  });
});
