import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadDiagnoses, parseDiagnoses } from "../../src/clinical/diagnoses.ts";
import type { DialogueState } from "../../src/cmas/schemas.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import { realiseFromTemplates } from "../../src/modules/embedded/nlg.ts";
import { caseFromDialogue } from "../../src/simulator/patient-simulator.ts";

const rules = loadDiagnoses();
const named = (state: Parameters<typeof rules.workingImpression>[0]) =>
  rules.workingImpression(state)?.disease ?? "none";

describe("working diagnoses only with explicit criteria", () => {
  it("name each diagnosis for its example, across body systems", () => {
    expect(rules.diagnoses.length).toBeGreaterThanOrEqual(12);
    for (const diagnosis of rules.diagnoses) expect(named(diagnosis.example)).toBe(diagnosis.disease);
  });

  it("agree with the sample's doctors on the gold histories (115, 317, RES0001)", () => {
    const dataset = loadMeditod();
    const development = loadMeditod(fileURLToPath(new URL("../../data/meditod-dev/", import.meta.url)));
    expect(named(caseFromDialogue(dataset, "115").profile)).toBe("chronic bronchitis");
    expect(named(caseFromDialogue(dataset, "317").profile)).toBe("covid-19 virus disease");
    expect(rules.workingImpression(caseFromDialogue(development, "RES0001").profile)).toMatchObject({
      disease: "pulmonary embolism",
      evidence: expect.arrayContaining(["positive symptom: dyspnea", "positive symptom: swelling"]),
    });
  });

  it("never offer a respiratory diagnosis for the histories the issue reports (UTI, migraine with aura)", () => {
    const urinary: DialogueState = {
      positive_symptom: [
        { value: "dysuria" },
        { value: "fever" },
        { value: "chills" },
        { value: "pain", location: ["flank"] },
      ],
      negative_symptom: [{ value: "coughing" }],
    };
    expect(named(urinary)).toBe("pyelonephritis");
    expect(rules.workingImpression(urinary)!.tests).not.toContain("plain x-ray");
    expect(
      named({
        positive_symptom: [
          { value: "headache", location: ["behind the left eye"] },
          { value: "visual aura" },
          { value: "nausea" },
        ],
      }),
    ).toBe("migraine disorders");
  });

  it("name none where the history meets no criteria: a lone symptom, a denied key finding, an unknown complaint", () => {
    expect(named({ positive_symptom: [{ value: "headache" }] })).toBe("none");
    expect(
      named({
        positive_symptom: [{ value: "coughing" }, { value: "fever" }],
        negative_symptom: [{ value: "dyspnea" }, { value: "colored/excess sputum" }, { value: "chest pain" }],
      }),
    ).toBe("none");
    expect(named({ positive_symptom: [{ value: "earache" }, { value: "tinnitus" }] })).toBe("none");
    expect(named({ positive_symptom: [{ value: "pain" }, { value: "fever" }] })).toBe("none");
    expect(rules.supports({ positive_symptom: [{ value: "heartburn" }] }, "gastroesophageal reflux disease")).toBe(
      true,
    );
    expect(rules.supports({ positive_symptom: [{ value: "heartburn" }] }, "pneumonia")).toBe(false);
    expect(rules.supports({ positive_symptom: [{ value: "heartburn" }] }, "lupus")).toBe(false);
  });

  it("reject a file whose criteria name an unknown slot, or whose example names another diagnosis", () => {
    const file = () => JSON.parse(readFileSync(new URL("../../ontology/diagnoses.json", import.meta.url), "utf8"));
    const badSlot = file();
    badSlot.diagnoses[0].criteria = { finding: { slot: "sign", values: ["x"] } };
    expect(() => parseDiagnoses(JSON.stringify(badSlot))).toThrow(/unknown slot 'sign'/);
    const badExample = file();
    badExample.diagnoses[3].example = { positive_symptom: [{ value: "heartburn" }] };
    expect(() => parseDiagnoses(JSON.stringify(badExample))).toThrow(
      /pneumonia.*working impression is gastroesophageal reflux disease/,
    );
  });

  it("the closing without a diagnosis says so in plain words and offers no test", () => {
    const text = realiseFromTemplates([{ action: "diagnosis", symptom: [{ value: "dysuria" }, { value: "fever" }] }]);
    expect(text).toMatch(/can't put a single name/);
    expect(text).not.toMatch(/x-?ray|could be|pneumonia|infection/i);
    expect(realiseFromTemplates([{ action: "diagnosis" }])).toMatch(/can't name a single diagnosis/);
  });
});
