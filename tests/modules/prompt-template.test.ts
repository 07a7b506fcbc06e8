import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadPromptTemplate } from "../../src/modules/prompting/prompt-template.ts";
import { ontology } from "../../src/cmas/ontology.ts";

const scratch = mkdtempSync(join(tmpdir(), "anamnesis-prompts-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("prompt templates", () => {
  it("render the ontology's intents, slots, attributes and statuses into the NLU system message", () => {
    const template = loadPromptTemplate("nlu.v1");
    expect(template.version).toBe("nlu.v1");
    for (const intent of ontology.nlu_intents)
      expect(template.system).toContain(`- ${intent.name}: ${intent.description}`);
    expect(template.system).toContain("  - status: one of positive, negative, unknown");
    expect(template.system).toContain("  - respone_to:");
    expect(template.system).not.toContain("{{");
    expect(template.hash).toMatch(/^[0-9a-f]{12}$/);
    expect(template.user({ history: "doctor: hi", last_turn: "patient: cough" })).toBe(
      "[dialog history]\ndoctor: hi\n\n[last turn]\npatient: cough\n\n[output]",
    );
  });

  it("derive the NLU rules' slot and status lists from the ontology", () => {
    const system = loadPromptTemplate("nlu.v1").system;
    expect(system).toContain(
      "2. The `value` of symptom, medical_history, family_history, habit, exposure, medication and medical_test is a standard medical concept",
    );
    expect(system).toContain(
      "3. Give every symptom, medical_history, family_history, habit, exposure and medication entry a status of positive, negative or unknown, and every medical_test entry a status of avail or unavail.",
    );
    for (const version of ["policy.v1", "policy.v2"]) {
      expect(loadPromptTemplate(version).system).toContain(
        "2. The `value` of symptom, medical_history, family_history, habit, exposure, medication, medical_test and disease is a standard medical concept.",
      );
    }
  });

  it("render check types (and disease) for the policy", () => {
    const system = loadPromptTemplate("policy.v1").system;
    expect(system).toContain("- disease:");
    expect(system).toMatch(/check types: onset, initiation, location/);
    expect(system).toContain("also checkable: characteristics, ana_factors");
  });

  it("reject a template without sections or a missing value, with the file named", () => {
    writeFileSync(join(scratch, "nlu.v9.txt"), "no sections here");
    expect(() => loadPromptTemplate("nlu.v9", scratch)).toThrow(
      /nlu\.v9\.txt: expected a '=== system ===' then a '=== user ===' section/,
    );
    writeFileSync(join(scratch, "nlg.v9.txt"), "=== system ===\nSay {{nothing}}.\n=== user ===\n{{x}}\n");
    expect(() => loadPromptTemplate("nlg.v9", scratch)).toThrow(/no value for \{\{nothing\}\}/);
    expect(() => loadPromptTemplate("nlg.v404", scratch)).toThrow(/not found/);
  });
});
