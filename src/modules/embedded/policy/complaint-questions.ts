import type { HistoryPlan, HistoryPlanFile } from "../../../language/history-plan.ts";
import type { AgeGroup, Informant } from "../../../language/informant.ts";
import type { ComplaintFocus } from "./chief-complaint.ts";
import { locationsOf, type StateFacts } from "./state-facts.ts";

/**
 * The questions a presenting complaint calls for in a live history, before any generic review
 * (`live_history.complaint_questions` of `ontology/history-plan.json`): the length of a pain's
 * episodes, lying-flat breathlessness, the FeverPAIN items of a sore throat, the
 * pregnancy question of a woman of child-bearing age with lower abdominal pain, a child's feeding
 * and nappies. Who the patient is comes from the state (age, sex) or from the informant when a
 * relative speaks for them.
 */

export type ComplaintQuestions = HistoryPlanFile["live_history"]["complaint_questions"][number];

/** What the history knows of the patient: age in years (fractional for months), sex. */
export interface PatientFacts {
  readonly ageYears: number | null;
  readonly sex: "female" | "male" | null;
}

/** Number words patients use for ages ("three", "eighteen months"). */
const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  eighteen: 18,
  twenty: 20,
};

/**
 * An age as said, with its unit: "3", "3 years", "eighteen months", "6 weeks old", "a 2-year-old".
 * Group 1: the number (digits or a word); group 2: the unit, when said.
 */
const AGE_PATTERN = /\b(\d{1,3}(?:\.\d)?|[a-z]+)[\s-]*(years?|yrs?|months?|mos?|weeks?|days?)?\b/;

/** An age as said ("3 years", "18 months", "40") in years, or null when it says no number. */
export function ageInYears(said: string): number | null {
  for (const match of said.toLowerCase().matchAll(new RegExp(AGE_PATTERN, "g"))) {
    const number = /^\d/.test(match[1]!) ? Number(match[1]) : NUMBER_WORDS[match[1]!];
    if (number === undefined) continue;
    const unit = match[2] ?? "years";
    if (unit.startsWith("mo")) return number / 12;
    if (unit.startsWith("w")) return number / 52;
    if (unit.startsWith("d")) return number / 365;
    return number;
  }
  return null;
}

const SEX_WORDS: Readonly<Record<string, "female" | "male">> = {
  female: "female",
  f: "female",
  woman: "female",
  girl: "female",
  male: "male",
  m: "male",
  man: "male",
  boy: "male",
};

/** An age in years for a young child's age group, for the plan's age limits only (a toddler is 1 to 3). */
const AGE_GROUP_YEARS: Readonly<Record<AgeGroup, number>> = { baby: 0.5, toddler: 2 };

/** The patient's age and sex from the state's basic information, else from the informant (its age group last). */
export function patientFacts(facts: StateFacts, informant?: Informant | null): PatientFacts {
  let ageYears: number | null = null;
  let sex: "female" | "male" | null = null;
  for (const { entry } of facts.entries("basic_information")) {
    const age = entry.age;
    if (ageYears === null && typeof age === "string") ageYears = ageInYears(age);
    const said = entry.sex ?? entry.gender;
    if (sex === null && typeof said === "string") sex = SEX_WORDS[said.toLowerCase().trim()] ?? null;
  }
  if (ageYears === null && informant?.patientAge) ageYears = ageInYears(informant.patientAge);
  if (ageYears === null && informant?.ageGroup) ageYears = AGE_GROUP_YEARS[informant.ageGroup];
  return { ageYears, sex: sex ?? informant?.patientSex ?? null };
}

/** Whether the patient is a child, as the plan counts one (unknown age: no). */
function isChild(plan: HistoryPlan, patient: PatientFacts): boolean {
  return patient.ageYears !== null && patient.ageYears <= plan.file.live_history.child.max_age;
}

/** The plan items never asked of this patient: a child's (smoking, work), and a young child's too (night sweats). */
export function skippedItems(plan: HistoryPlan, patient: PatientFacts): ReadonlySet<string> {
  const { child } = plan.file.live_history;
  if (!isChild(plan, patient)) return new Set();
  const young = patient.ageYears! <= child.young.max_age;
  return new Set([...child.skip_items, ...(young ? child.young.skip_items : [])]);
}

function patientMatches(filter: ComplaintQuestions["patient"], patient: PatientFacts): boolean {
  if (!filter) return true;
  if (filter.sex && patient.sex !== filter.sex) return false;
  if (filter.min_age !== undefined || filter.max_age !== undefined) {
    if (patient.ageYears === null) return false;
    if (filter.min_age !== undefined && patient.ageYears < filter.min_age) return false;
    if (filter.max_age !== undefined && patient.ageYears > filter.max_age) return false;
  }
  return true;
}

/** The complaint symptom a set of questions is about (the first complaint symptom it names), or null when it does not apply. */
function complaintSymptom(questions: ComplaintQuestions, focus: ComplaintFocus, facts: StateFacts): string | null {
  const complaint = questions.complaint;
  if (!complaint) return focus.symptoms[0] ?? null;
  const sites = complaint.locations ? new RegExp(complaint.locations.join("|"), "i") : null;
  // A set that chooses the review is for the main complaint only: a swollen leg beside chest pain is no injury.
  const candidates = questions.review ? focus.symptoms.slice(0, 1) : focus.symptoms;
  for (const symptom of candidates) {
    if (!complaint.symptoms.includes(symptom)) continue;
    if (sites && !locationsOf(facts, symptom).some((location) => sites.test(location))) continue;
    return symptom;
  }
  return null;
}

/** A set of complaint questions that applies, with the complaint symptom its checks are asked of. */
export interface AppliedQuestions {
  readonly questions: ComplaintQuestions;
  readonly symptom: string | null;
}

/** Every set of complaint questions that applies to this complaint and patient, in plan order. */
export function applicableQuestions(
  plan: HistoryPlan,
  focus: ComplaintFocus,
  facts: StateFacts,
  patient: PatientFacts,
): AppliedQuestions[] {
  return plan.file.live_history.complaint_questions.flatMap((questions) => {
    if (!patientMatches(questions.patient, patient)) return [];
    const symptom = complaintSymptom(questions, focus, facts);
    if (questions.complaint && symptom === null) return [];
    return [{ questions, symptom }];
  });
}

/**
 * The focus of a live history: the complaint phase also covers the values its questions ask (so that
 * asking about lying flat keeps the doctor on the complaint), and the review is the complaint's own
 * when one of its question sets chooses it.
 */
export function liveFocus(
  plan: HistoryPlan,
  focus: ComplaintFocus,
  applied: readonly AppliedQuestions[],
): ComplaintFocus {
  const phaseValues = new Set(focus.phaseValues);
  const companions = new Set<string>();
  for (const { questions } of applied)
    for (const ask of questions.asks)
      if ("item" in ask)
        for (const value of plan.itemsById.get(ask.item)!.values) {
          phaseValues.add(value);
          companions.add(value);
        }
  // What the complaint's own questions ask of (breathless lying flat beside breathlessness) is a yes or
  // no about the main complaint, not a second complaint to explore: only the main one stays whatever it is.
  const [main, ...others] = focus.symptoms;
  const symptoms = main === undefined ? [] : [main, ...others.filter((symptom) => !companions.has(symptom))];
  const chosen = applied.find(({ questions }) => questions.review !== undefined)?.questions;
  return chosen?.review
    ? { ...focus, symptoms, phaseValues, review: { id: chosen.id, items: chosen.review } }
    : { ...focus, symptoms, phaseValues };
}
