import type { DialogueState, DoctorAction } from "../cmas/schemas.ts";
import { loadDiagnoses, type DiagnosisRules } from "./diagnoses.ts";

/**
 * The closing rules, whatever backend chose the actions: a `diagnosis` names only diseases whose
 * criteria the tracked state meets (`ontology/diagnoses.json`), and tests proposed with it are only
 * those listed for a disease it still names. A diagnosis left with no disease says so and carries
 * the positive symptoms to pass on, as the embedded closing does.
 */

/** Positive symptoms passed on with a diagnosis that names none (the most listed). */
const SUMMARY_LIMIT = 4;

function positiveSymptoms(state: DialogueState): string[] {
  return (state.positive_symptom ?? [])
    .map((entry) => entry.value)
    .filter((value): value is string => typeof value === "string" && value !== "general");
}

function diseasesOf(action: DoctorAction): string[] {
  const entries = action.disease;
  return Array.isArray(entries)
    ? entries.map((entry) => entry.value).filter((value): value is string => typeof value === "string")
    : [];
}

/** The actions with every unsupported disease and test taken out (unchanged when there is no diagnosis). */
export function enforceClosingScope(
  actions: readonly DoctorAction[],
  state: DialogueState,
  rules: DiagnosisRules = loadDiagnoses(),
): DoctorAction[] {
  if (!actions.some((action) => action.action === "diagnosis")) return [...actions];
  const named = actions.flatMap(diseasesOf).filter((disease) => rules.supports(state, disease));
  const allowedTests = new Set(
    rules.diagnoses.filter((diagnosis) => named.includes(diagnosis.disease)).flatMap((diagnosis) => diagnosis.tests),
  );
  const kept: DoctorAction[] = [];
  for (const action of actions) {
    if (action.action === "diagnosis") {
      if (named.length > 0) kept.push({ action: "diagnosis", disease: named.map((value) => ({ value })) });
      else {
        const heard = positiveSymptoms(state).slice(0, SUMMARY_LIMIT);
        kept.push(
          heard.length > 0
            ? { action: "diagnosis", symptom: heard.map((value) => ({ value })) }
            : { action: "diagnosis" },
        );
      }
      continue;
    }
    const tests = action.medical_test;
    if (action.action === "inquire" && Array.isArray(tests)) {
      const allowed = tests.filter((entry) => entry.value !== undefined && allowedTests.has(entry.value));
      if (allowed.length > 0) kept.push({ ...action, medical_test: allowed });
      else if (Object.keys(action).some((key) => key !== "action" && key !== "medical_test"))
        kept.push(Object.fromEntries(Object.entries(action).filter(([key]) => key !== "medical_test")) as DoctorAction);
      continue;
    }
    kept.push(action);
  }
  // One diagnosis action is enough: several named diseases were merged into the first.
  return kept.filter(
    (action, index) =>
      action.action !== "diagnosis" || kept.findIndex((other) => other.action === "diagnosis") === index,
  );
}
