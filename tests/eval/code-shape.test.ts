import { describe, expect, it } from "vitest";
import { checkCodeShape } from "../../test-support/code-shape.ts";

describe("the runner's code shape (bench/function-lengths.ts --dir eval)", () => {
  it("has no function over 60 lines and no unnamed regular expression over 120 characters, nor have the bench and score commands", () => {
    const runner = checkCodeShape("eval", { maxFunctionLines: 60, maxRegexChars: 120 });
    expect(runner.problems).toEqual([]);
    expect(runner.functions).toBeGreaterThan(200);
    const commands = checkCodeShape("cli/commands", { maxFunctionLines: 60, maxRegexChars: 120 });
    expect(commands.problems.filter((problem) => /cli\/commands\/(?:bench|score)\.ts/.test(problem))).toEqual([]);
  });
});
