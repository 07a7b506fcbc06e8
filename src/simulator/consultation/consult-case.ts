import type { ScriptedCase } from "../scripted-patient.ts";
import type { PatientVoice } from "./patient-voice.ts";

/**
 * A consultation case, whatever benchmark it comes from: what the doctor is told before it starts,
 * what the patient may say (facts, each in the case's words and in the patient's voice), what an
 * examination or a test shows, and how the consultation must end (an option letter, or a diagnosis).
 * MediQ, AgentClinic and our library are each turned into this shape (`mediq-cases.ts`,
 * `agentclinic-cases.ts`), so one loop runs them all.
 */

/** The part of a patient's story a fact belongs to (AgentClinic's fields; the opening statement). */
export type FactSection =
  | "demographics"
  | "complaint"
  | "history"
  | "symptoms"
  | "past"
  | "medications"
  | "allergies"
  | "family"
  | "social"
  | "review";

/** One thing the patient may reveal. */
export interface CaseFact {
  /** Unique in its case: MediQ's fact number, or the sheet field and a count (`history.2`). */
  readonly id: string;
  /** As the case writes it. */
  readonly text: string;
  /** As the patient says it: the same words in the first person (or a parent's). */
  readonly spoken: string;
  readonly section?: FactSection;
}

/** What an examination or a test shows, as the case records it. */
export interface CaseMeasurement {
  /** Unique in its case: the path of its field, e.g. `Test_Results/Blood_Tests/Acetylcholine_Receptor_Antibodies`. */
  readonly id: string;
  readonly kind: "examination" | "test";
  /** The field names from the top, as the case names them. */
  readonly path: readonly string[];
  readonly value: string;
}

/** How a consultation ends: one option letter (MediQ), or a free-text diagnosis (AgentClinic, our library). */
export type CaseEnding =
  | {
      readonly kind: "choice";
      readonly question: string;
      /** Letter → option text. */
      readonly options: Readonly<Record<string, string>>;
      /** The letter scored as right. */
      readonly answer: string;
    }
  | {
      readonly kind: "diagnosis";
      /** The diagnosis scored as right; null when the case says no diagnosis is supportable. */
      readonly answer: string | null;
      /** Other names the case accepts for it (our library states them by hand). */
      readonly accepted?: readonly string[];
    };

/** What the OSCE checklist needs to know of a patient (the checklist's `ChecklistCase`). */
export interface CaseProfile {
  readonly complaint: string;
  readonly pain: boolean;
  readonly age?: number;
  readonly sex?: "female" | "male";
  readonly system?: string;
}

/** A consultation case; see the module comment. */
export interface ConsultCase {
  /** Unique in its split: MediQ's id, AgentClinic's place in the file, a library case's id. */
  readonly id: string;
  readonly source: "mediq" | "agentclinic" | "library";
  /** What the doctor is told before the consultation (AgentClinic's objective); null when nothing. */
  readonly briefing: string | null;
  /** What the patient says first, unasked (MediQ's initial information), and the facts it reveals; null when the doctor opens. */
  readonly opening: { readonly text: string; readonly facts: readonly string[] } | null;
  readonly facts: readonly CaseFact[];
  readonly measurements: readonly CaseMeasurement[];
  readonly ending: CaseEnding;
  readonly profile: CaseProfile;
  readonly voice: PatientVoice;
  /** A library case's profile and lay script: its embedded patient speaks from the script (`scripted-patient.ts`). */
  readonly scripted?: ScriptedCase;
}

/** Age in years from the words a case gives it in (`22 years`, `6 months`, `35-year-old female`); undefined when none. */
export function ageInYears(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const match = AGE.exec(text);
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = match[2]!.toLowerCase();
  if (unit.startsWith("year")) return amount;
  if (unit.startsWith("month")) return amount / 12;
  if (unit.startsWith("week")) return amount / 52;
  return amount / 365;
}

/** An age in words, e.g. `22 years`, `6-month-old`, `3 days old`. */
const AGE = /(\d+(?:\.\d+)?)[- ]?(years?|months?|weeks?|days?)\b/i;

/** The sex a case gives in words (`male`, `Female`, `a 4-year-old boy`); undefined when none. */
export function sexOf(text: string | undefined): "female" | "male" | undefined {
  if (!text) return undefined;
  if (FEMALE.test(text)) return "female";
  if (MALE.test(text)) return "male";
  return undefined;
}

/** Words for a female patient, e.g. `Female`, `a 30-year-old woman`, `girl`. */
const FEMALE = /\b(?:female|woman|girl|lady|she|her)\b/i;
/** Words for a male patient, e.g. `Male`, `a 22-year-old man`, `boy`. */
const MALE = /\b(?:male|man|boy|gentleman|he|his)\b/i;

/** Whether a complaint is pain (the checklist then asks for its site, character, radiation, …). */
export function isPain(complaint: string): boolean {
  return PAIN.test(complaint);
}

/** Pain in a complaint, e.g. `chest pain`, `painful lesions`, `aching`, `sore throat`, `tender`. */
const PAIN = /\b(?:pain|pains|painful|ache|aches|aching|sore|tender|hurts?|cramp(?:s|ing)?|colic)\b/i;
