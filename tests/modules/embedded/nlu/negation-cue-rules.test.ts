import { describe, expect, it } from "vitest";
import { NEGATION_CUE_RULES } from "../../../../src/modules/embedded/nlu/rules/negation-cues.ts";
import { readTurn } from "./nlu-harness.ts";

describe("negation and uncertainty cue rules (nlu/rules/negation-cues.ts): each example reads as its rule says", () => {
  for (const rule of NEGATION_CUE_RULES) {
    const { utterance, value, status } = rule.example;
    it(`${rule.name} (${rule.kind}): "${utterance}" → ${value} ${status}`, () => {
      const turn = readTurn({ question: "What brings you in today?", utterance }, "certainty");
      const reading = turn.readings.find((candidate) => candidate.concept.value === value);
      expect(reading?.status).toBe(status);
    });
  }

  it("give every cue phrase to one rule of its kind only", () => {
    const phrases = NEGATION_CUE_RULES.flatMap((rule) =>
      rule.phrases.map((phrase) => `${rule.kind}: ${phrase.join(" ")}`),
    );
    expect(new Set(phrases).size).toBe(phrases.length);
  });
});
