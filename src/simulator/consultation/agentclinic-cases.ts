import type { AgentClinicCase, SheetValue } from "../../data/agentclinic.ts";
import {
  ageInYears,
  isPain,
  sexOf,
  type CaseFact,
  type CaseMeasurement,
  type ConsultCase,
  type FactSection,
} from "./consult-case.ts";
import { spokenFact, voiceFor, type PatientVoice } from "./patient-voice.ts";

/**
 * AgentClinic's cases as consultation cases. The doctor is told the case's objective; the patient's
 * sheet (`Patient_Actor`) is split into facts — each sentence of each field, a list of denials into
 * one fact per thing denied ("Denies fever, nausea, or vomiting." is three), a short social-history
 * list into its parts — each filed under the part of the history its field is; the examination
 * findings and test results are what the measurement role reads. The consultation ends with a
 * diagnosis in the doctor's words, scored against `Correct_Diagnosis`.
 */

/** Sentence ends: a full stop, `?` or `!`, then a space and a capital or a digit. */
const SENTENCE_END = /(?<=[.!?])\s+(?=[A-Z0-9])/;

/**
 * A sentence that denies a list of things, with what comes before the list, e.g. "Patient denies
 * experiencing any chest pain, palpitations, or recent infections."
 */
const DENIAL_LIST =
  /^((?:(?:the )?patient |he |she )?(?:denies|denied|reports no|no history of|negative for)(?: (?:having|experiencing))?(?: any)? )(.+)$/i;

/** The separators of a list: commas, "or", "and", "nor". */
const LIST_SEPARATOR = /\s*,\s*(?:(?:or|and|nor)\s+)?|\s+(?:or|and|nor)\s+/i;

/** The section each field of AgentClinic's patient sheet belongs to. */
const SECTIONS: Readonly<Record<string, FactSection>> = {
  demographics: "demographics",
  history: "history",
  primary_symptom: "complaint",
  secondary_symptoms: "symptoms",
  symptoms: "symptoms",
  past_medical_history: "past",
  social_history: "social",
  review_of_systems: "review",
  medications: "medications",
  current_medications: "medications",
  drug_history: "medications",
  family_history: "family",
  allergies: "allergies",
};

/** A field's value as sentences: text split at sentence ends, lists item by item, sub-fields as `Name: value`. */
function sentencesOf(value: SheetValue): string[] {
  if (value === null) return [];
  if (typeof value === "string")
    return value
      .split(SENTENCE_END)
      .map((text) => text.trim())
      .filter(Boolean);
  if (typeof value === "number" || typeof value === "boolean") return [String(value)];
  if (Array.isArray(value)) return value.flatMap(sentencesOf);
  return Object.entries(value).flatMap(([name, inner]) =>
    typeof inner === "string" ? [`${name.replace(/_/g, " ")}: ${inner}`] : sentencesOf(inner),
  );
}

/** A sentence split into the facts it holds: one per thing a denial list names; a short social list into its parts. */
export function splitSentence(sentence: string, section: FactSection | undefined): string[] {
  const text = sentence.replace(/[.\s]+$/, "");
  const denial = DENIAL_LIST.exec(text);
  if (denial) {
    const items = denial[2]!.split(LIST_SEPARATOR).filter((item) => item.trim() !== "");
    if (items.length > 1) return items.map((item) => `${denial[1]}${item.trim()}`);
  }
  if (section === "social") {
    const parts = text.split(/\s*,\s*/);
    const short = parts.every((part) => part.split(/\s+/).length <= 5 && /^[A-Za-z]/.test(part));
    if (parts.length > 1 && short) return parts.map((part) => `${part.charAt(0).toUpperCase()}${part.slice(1)}`);
  }
  return [text];
}

/** The section of a field, by its name (`Past_Medical_History` → past). */
function sectionOf(field: string): FactSection | undefined {
  return SECTIONS[field.toLowerCase()];
}

/** The facts of one field of the sheet, numbered within it; History's first sentence is the presenting complaint. */
function fieldFacts(field: string, value: SheetValue, voice: PatientVoice): CaseFact[] {
  if (field === "Symptoms" && value !== null && typeof value === "object" && !Array.isArray(value))
    return Object.entries(value).flatMap(([inner, innerValue]) => fieldFacts(inner, innerValue, voice));
  const section = sectionOf(field) ?? "history";
  const texts = sentencesOf(value).flatMap((sentence, index) =>
    splitSentence(sentence, section).map((text) => ({
      text,
      section: field === "History" && index === 0 ? ("complaint" as const) : section,
    })),
  );
  return texts.map(({ text, section: filed }, index) => ({
    id: `${field.toLowerCase()}.${index + 1}`,
    text,
    spoken: spokenFact(text, voice),
    section: filed,
  }));
}

/** Every recorded finding of a sheet, leaf by leaf, with its path from `root`. */
function measurementsOf(
  root: string,
  kind: CaseMeasurement["kind"],
  sheet: Readonly<Record<string, SheetValue>>,
): CaseMeasurement[] {
  const leaves: CaseMeasurement[] = [];
  const walk = (path: string[], value: SheetValue) => {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [name, inner] of Object.entries(value)) walk([...path, name], inner);
      return;
    }
    const text = Array.isArray(value) ? sentencesOf(value).join("; ") : String(value);
    leaves.push({ id: path.join("/"), kind, path, value: text });
  };
  walk([root], sheet);
  return leaves;
}

/** A sub-field of a field that has named sub-fields. */
function fieldOf(value: SheetValue | undefined, name: string): SheetValue | undefined {
  if (value === null || value === undefined || typeof value !== "object" || Array.isArray(value)) return undefined;
  return (value as { readonly [key: string]: SheetValue })[name];
}

/** The sheet's text of a field, if it is text. */
const textOf = (value: SheetValue | undefined): string | undefined => (typeof value === "string" ? value : undefined);

/** An AgentClinic case as a consultation case. */
export function agentClinicConsultCase(entry: AgentClinicCase): ConsultCase {
  const demographics = textOf(entry.patient.Demographics);
  const age = ageInYears(demographics);
  const sex = sexOf(demographics);
  const voice = voiceFor(age, sex);
  const facts = Object.entries(entry.patient).flatMap(([field, value]) => fieldFacts(field, value, voice));
  const primary = textOf(fieldOf(entry.patient.Symptoms, "Primary_Symptom"));
  const complaint = primary ?? facts.find((fact) => fact.section === "complaint")?.text ?? entry.objective;
  return {
    id: entry.id,
    source: "agentclinic",
    briefing: entry.objective,
    opening: null,
    facts,
    measurements: [
      ...measurementsOf("Physical_Examination_Findings", "examination", entry.examination),
      ...measurementsOf("Test_Results", "test", entry.tests),
    ],
    ending: { kind: "diagnosis", answer: entry.diagnosis },
    profile: {
      complaint,
      pain: isPain(complaint),
      ...(age !== undefined ? { age } : {}),
      ...(sex ? { sex } : {}),
    },
    voice,
  };
}
