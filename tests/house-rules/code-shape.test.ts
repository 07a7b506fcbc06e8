import { describe, expect, it } from "vitest";
import { checkCodeShape } from "../../test-support/code-shape.ts";

/** The code the house rules hold: the library, the runner, the server and the command. */
const CODE = ["src", "eval", "server", "cli"] as const;

describe("the code's shape (bench/function-lengths.ts)", () => {
  it.each(CODE)("%s/ has no function over 60 lines and no unnamed regular expression over 120 characters", (dir) => {
    const report = checkCodeShape(dir, { maxFunctionLines: 60, maxRegexChars: 120 });
    expect(report.problems).toEqual([]);
    expect(report.functions).toBeGreaterThan(100);
  });

  it("flags a long function and a long unnamed expression (the check can fail)", () => {
    const report = checkCodeShape("tests/fixtures/code-shape", { maxFunctionLines: 5, maxRegexChars: 20 });
    expect(report.problems).toEqual([
      expect.stringMatching(/^function tooLong is 6 lines/),
      expect.stringMatching(/^unnamed regular expression of 3\d characters/),
    ]);
  });
});
