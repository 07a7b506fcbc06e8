import { describe, expect, it } from "vitest";
import { loadDiagnoses } from "../../src/clinical/diagnoses.ts";
import { loadPromptTemplate } from "../../src/modules/prompting/prompt-template.ts";

describe("the chat's in-context policy prompt (policy.v2) states the scope rules", () => {
  const prompt = loadPromptTemplate("policy.v2").system;

  it("names a diagnosis only by the data's criteria, and no test outside the evidence", () => {
    expect(prompt).toMatch(
      /Name a disease in a `diagnosis` action only when the dialogue state meets that disease's criteria below/,
    );
    expect(prompt).toMatch(/Never offer a disease or a test the history does not support/);
    expect(prompt).toMatch(/Whatever the complaint and its body system/);
  });

  it("lists every diagnosis of ontology/diagnoses.json with its criteria and tests", () => {
    for (const diagnosis of loadDiagnoses().diagnoses) expect(prompt).toContain(`- ${diagnosis.disease}: `);
    expect(prompt).toContain(
      "- urinary tract infection: positive symptom: dysuria or urinary frequency; never with any of (positive symptom: fever or chills or rigor or vaginal discharge; positive symptom: pain (location matching /flank|loin|kidney/)); tests: urinalysis",
    );
    expect(prompt).toMatch(
      /- pneumonia: all of \(positive symptom: fever or chills or rigor; positive symptom: coughing; /,
    );
  });

  it("leaves the benchmark's prompt (policy.v1, the paper's protocol) as it was", () => {
    const v1 = loadPromptTemplate("policy.v1").system;
    expect(v1).not.toMatch(/criteria/);
    expect(v1).toMatch(/4\. Reply with JSON only/);
  });
});
