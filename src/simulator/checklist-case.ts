import type { ChecklistCase } from "../clinical/osce-checklist.ts";
import type { SelfPlayCase } from "./case-library.ts";

/**
 * A case as the OSCE checklist reads it, shared by self-play and the consultation suites' library
 * cases (which load without the dialogue manager that self-play drives).
 */

/**
 * A presenting complaint that is a pain, by its CMAS value.
 * Example: "chest pain", "pain", "headache", "earache" (not "heartburn").
 */
const PAIN_COMPLAINT = /\bpain\b|ache$/;

/** What the OSCE checklist needs of a case: its presentation in words, whether the complaint is a pain, age, sex and system. */
export function checklistCaseOf(patientCase: SelfPlayCase): ChecklistCase {
  const complaint = String(patientCase.profile.positive_symptom?.[0]?.value ?? "");
  const basics = patientCase.profile.basic_information?.[0] ?? {};
  const age = Number(basics.age);
  const sex = basics.sex === "female" || basics.sex === "male" ? basics.sex : undefined;
  return {
    complaint: patientCase.title,
    pain: PAIN_COMPLAINT.test(complaint),
    ...(Number.isFinite(age) && basics.age !== undefined ? { age } : {}),
    ...(sex ? { sex } : {}),
    system: patientCase.system,
  };
}
