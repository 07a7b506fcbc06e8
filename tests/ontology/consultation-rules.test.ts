import { describe, expect, it } from "vitest";
import { diagnosisMatcher } from "../../src/metrics/diagnosis-match.ts";
import { loadOntologyFile } from "../../src/ontology/ontology-files.ts";
import type { CaseFact } from "../../src/simulator/consultation/consult-case.ts";
import { factMatcher } from "../../src/simulator/consultation/fact-matcher.ts";
import { measurementReader } from "../../src/simulator/consultation/measurement-reader.ts";

/**
 * The consultation suites' rules kept as data, each checked by the examples its file gives: a test is
 * generated from every example that must match and every one that must not.
 */

describe("ontology/diagnosis-synonyms.json: the offline diagnosis judge", () => {
  for (const example of loadOntologyFile("diagnosis-synonyms.json").examples) {
    it(`${example.match ? "matches" : "does not match"} "${example.predicted}" with "${example.gold}"`, () => {
      expect(diagnosisMatcher().matches(example.gold, example.predicted)).toBe(example.match);
    });
  }

  it("reads every synonym as its concept's name, both ways", () => {
    for (const { name, also } of loadOntologyFile("diagnosis-synonyms.json").synonyms)
      for (const alias of also) {
        expect(diagnosisMatcher().matches(name, alias), `${alias} → ${name}`).toBe(true);
        expect(diagnosisMatcher().matches(alias, name), `${name} → ${alias}`).toBe(true);
      }
  });
});

describe("ontology/patient-answer-rules.json: the topics a patient's answer covers", () => {
  for (const topic of loadOntologyFile("patient-answer-rules.json").topics) {
    const { question, fact, not_question: notQuestion } = topic.examples;
    // The example fact alone in a case, filed under the topic's first section, or as the complaint for a
    // topic of the complaint's (its question asks about the presenting complaint).
    const section = (topic.fact_sections[0] ?? (topic.scope === "complaint" ? "complaint" : undefined)) as CaseFact["section"];
    const facts: CaseFact[] = [{ id: "1", text: fact, spoken: fact, ...(section ? { section } : {}) }];
    it(`${topic.id}: "${question}" is answered by "${fact}", "${notQuestion}" is not`, () => {
      expect(factMatcher().answering(question, facts)).toEqual(["1"]);
      expect(factMatcher().answering(notQuestion, facts)).toEqual([]);
    });
  }
});

describe("ontology/test-names.json: the measurement reader's requests", () => {
  for (const example of loadOntologyFile("test-names.json").examples) {
    it(`${example.matches ? "finds" : "does not find"} ${example.field} for "${example.request}"`, () => {
      const path = example.field.split("/");
      const measurement = { id: example.field, kind: "test" as const, path, value: "recorded" };
      const found = measurementReader().select(example.request.replace(/^REQUEST TEST:\s*/, ""), [measurement]);
      expect(found.length > 0).toBe(example.matches);
    });
  }
});
