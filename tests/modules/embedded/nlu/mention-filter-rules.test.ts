import { describe, expect, it } from "vitest";
import { filterAfterStatus, filterBeforeStatus } from "../../../../src/modules/embedded/nlu/passes/mention-filters.ts";
import { NLU_PASSES } from "../../../../src/modules/embedded/nlu/pipeline.ts";
import { MENTION_FILTER_RULES } from "../../../../src/modules/embedded/nlu/rules/mention-filters.ts";
import { readTurn, spanText } from "./nlu-harness.ts";

/** Runs the example with listeners on both filter passes; returns which rule dropped which phrase. */
function drops(example: (typeof MENTION_FILTER_RULES)[number]["example"]): Array<{ rule: string; phrase: string }> {
  const dropped: Array<{ rule: string; phrase: string }> = [];
  const passes = NLU_PASSES.map((pass) => {
    if (pass.name === "filters before status")
      return {
        ...pass,
        run: (turn: Parameters<typeof pass.run>[0]) =>
          filterBeforeStatus(turn, (rule, reading) =>
            dropped.push({ rule: rule.name, phrase: spanText(turn, reading.mention) }),
          ),
      };
    if (pass.name === "filters after status")
      return {
        ...pass,
        run: (turn: Parameters<typeof pass.run>[0]) =>
          filterAfterStatus(turn, (rule, reading) =>
            dropped.push({ rule: rule.name, phrase: spanText(turn, reading.mention) }),
          ),
      };
    return pass;
  });
  readTurn(example, undefined, passes);
  return dropped;
}

describe("mention filter rules (nlu/rules/mention-filters.ts): each rule drops the phrase of its own example", () => {
  for (const rule of MENTION_FILTER_RULES) {
    it(`${rule.name}: "${rule.example.utterance}" after "${rule.example.question}"`, () => {
      expect(drops(rule.example)).toContainEqual({ rule: rule.name, phrase: rule.example.phrase });
    });
  }

  it("have unique names", () => {
    expect(new Set(MENTION_FILTER_RULES.map((rule) => rule.name)).size).toBe(MENTION_FILTER_RULES.length);
  });
});
