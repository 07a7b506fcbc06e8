import { describe, expect, it } from "vitest";
import { checkTypes, slotDefinition } from "../../../../src/cmas/ontology.ts";
import { ATTRIBUTE_EXTRACTORS, SYMPTOM_ATTRIBUTES } from "../../../../src/modules/embedded/nlu/attributes/registry.ts";
import { IN_MENTION, IN_SENTENCE } from "../../../../src/modules/embedded/nlu/volunteered-attributes.ts";
import { nluResources, readTurn } from "./nlu-harness.ts";

describe("attribute registry (nlu/attributes/)", () => {
  it("names each attribute once, as a check type of every slot it applies to", () => {
    expect(new Set(ATTRIBUTE_EXTRACTORS.map((extractor) => extractor.name)).size).toBe(ATTRIBUTE_EXTRACTORS.length);
    for (const extractor of ATTRIBUTE_EXTRACTORS) {
      for (const slot of extractor.appliesTo)
        expect(checkTypes(slotDefinition(slot)!), `${extractor.name} of ${slot}`).toContain(extractor.name);
    }
  });

  it("derives the attributes that describe a symptom (asked about 'it', they refer to the symptom in focus)", () => {
    expect([...SYMPTOM_ATTRIBUTES].sort()).toEqual([
      "ana_factors",
      "characteristics",
      "color",
      "duration",
      "frequency",
      "initiation",
      "location",
      "onset",
      "progression",
      "severity",
      "volume",
    ]);
  });

  it("reads every volunteered attribute in the volunteered pass, and only registered ones", () => {
    const volunteered = ATTRIBUTE_EXTRACTORS.filter((extractor) => "readVolunteered" in extractor);
    expect(volunteered.map((extractor) => extractor.name).sort()).toEqual(
      [...new Set([...IN_MENTION, ...IN_SENTENCE].map((extractor) => extractor.name))].sort(),
    );
  });

  for (const extractor of ATTRIBUTE_EXTRACTORS) {
    const { example } = extractor as { example?: (typeof ATTRIBUTE_EXTRACTORS)[1]["example"] };
    if (!example) continue;
    it(`${extractor.name}: "${example.question}" is asked by its cue, and "${example.answer}" sets ${example.attribute}`, () => {
      const { reader } = nluResources();
      expect(reader.question(example.question).attribute).toBe(extractor.name);
      const turn = readTurn({ history: example.history ?? [], question: example.question, utterance: example.answer });
      const entries = turn.entries.all().filter((entry) => entry.attributes[example.attribute] !== undefined);
      expect(entries.map((entry) => entry.attributes[example.attribute])).toContainEqual(example.expected);
    });
  }
});
