import { describe, expect, it } from "vitest";
import type { DialogueState } from "../../../../src/cmas/schemas.ts";
import { loadDiagnoses } from "../../../../src/clinical/diagnoses.ts";
import { realiseFromTemplates } from "../../../../src/modules/embedded/nlg.ts";
import { diagnosisActions } from "../../../../src/modules/embedded/policy/closing.ts";
import { StateFacts } from "../../../../src/modules/embedded/policy/state-facts.ts";

/**
 * The embedded closing names a working diagnosis only when its required features hold and no
 * excluding one does (`ontology/diagnoses.json`); otherwise it summarises what it will pass on.
 */

const closing = (state: DialogueState) => diagnosisActions(state, new StateFacts(state));

describe("the closing names only a diagnosis it can defend", () => {
  it("a sore throat alone: no name, the sore throat passed on, no test", () => {
    const actions = closing({ positive_symptom: [{ value: "pharyngitis" }], negative_symptom: [{ value: "fever" }] });
    expect(actions).toEqual([{ action: "diagnosis", symptom: [{ value: "pharyngitis" }] }]);
    expect(realiseFromTemplates(actions)).toMatch(/can't put a single name/);
  });

  it("a sore throat with a runny nose and a cough names the viral infection (negative control)", () => {
    const actions = closing({
      positive_symptom: [{ value: "pharyngitis" }, { value: "rhinorrhea" }, { value: "coughing" }],
    });
    expect(actions).toEqual([{ action: "diagnosis", disease: [{ value: "viral respiratory infection" }] }]);
  });

  it("every negative example of every diagnosis closes without naming that diagnosis", () => {
    for (const diagnosis of loadDiagnoses().diagnoses)
      for (const negative of diagnosis.negative_examples) {
        const named = closing(negative.history).flatMap((action) =>
          Array.isArray(action.disease) ? action.disease : [],
        );
        expect(named, negative.why).not.toContainEqual({ value: diagnosis.disease });
      }
  });

  it("fever and cough after a sick contact: no COVID-19 and no PCR test; the findings passed on", () => {
    const actions = closing({
      positive_symptom: [{ value: "fever" }, { value: "coughing" }],
      positive_exposure: [{ value: "sick person" }],
    });
    expect(JSON.stringify(actions)).not.toMatch(/covid/);
    expect(actions).toEqual([{ action: "diagnosis", symptom: [{ value: "fever" }, { value: "coughing" }] }]);
  });
});
