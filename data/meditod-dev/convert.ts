/**
 * Converts the annotation tool's sample dialogue RES0001 (dair-iitd/MediTOD `labeling_interface/`,
 * bundled in `data/meditod/labeling_interface/sample.json` and `sample_annotations.json`) into
 * MediTOD's canonical `dialogs.json` format, as a development dialogue.
 *
 *   npx tsx data/meditod-dev/convert.ts           # writes data/meditod-dev/dialogs.json
 *   npx tsx data/meditod-dev/convert.ts --check   # exits 1 when dialogs.json is not what this script writes
 *
 * This is OUR conversion, not an official annotation. It is mechanical — the tables below map the tool's
 * slots, fields, statuses and values to CMAS — except for the utterances in {@link CORRECTIONS}, whose
 * raw annotations are replaced (in the tool's own vocabulary, before the mapping) where they cannot be
 * mapped as they are or contradict the transcript. The conventions were learnt from the train and valid
 * dialogues of the public sample (115 and 317), `ontology/cmas.json`, `ontology/lexicon.json`, the tool's
 * value lists and its annotation guidelines; never from the test dialogue. `dialog_state` is computed
 * with our tracker (`src/cmas/dialogue-state.ts`), which reproduces every state of the public sample.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DialogueStateTracker } from "../../src/cmas/dialogue-state.ts";
import type { NluIntentName } from "../../src/cmas/cmas-names.ts";
import { prefixedSlotNames } from "../../src/cmas/ontology.ts";
import type { DialogueState, DoctorAction, NluFrame, SlotEntry } from "../../src/cmas/schemas.ts";

export const DIALOGUE_ID = "RES0001";
const RAW_DIR = new URL("../meditod/labeling_interface/", import.meta.url);
export const RAW_DIALOGUE_PATH = fileURLToPath(new URL("sample.json", RAW_DIR));
export const RAW_ANNOTATIONS_PATH = fileURLToPath(new URL("sample_annotations.json", RAW_DIR));
export const OUTPUT_PATH = fileURLToPath(new URL("dialogs.json", import.meta.url));

// ---------------------------------------------------------------------------------------------------
// The raw formats
// ---------------------------------------------------------------------------------------------------

export interface RawUtterance {
  speaker: string;
  uttr_id: number;
  text: string;
  keywords: string[];
}
export interface RawDialogue {
  dlg_id: string;
  utterances: RawUtterance[];
}
/** One annotation of the tool, without its `uid`: the other keys are questionnaire fields. */
export interface Annotation {
  intent: string;
  slot?: string;
  [field: string]: string | boolean | undefined;
}
/** One annotation of the tool as stored: `uid` is the utterance's `uttr_id`. */
export interface RawAnnotation extends Annotation {
  uid: string;
}

// ---------------------------------------------------------------------------------------------------
// Mapping tables: the tool's vocabulary → CMAS
// ---------------------------------------------------------------------------------------------------

/** Tool intent → MediTOD patient NLU intent (null: not an NLU intent). */
const PATIENT_INTENTS: Record<string, NluIntentName | null> = {
  inform: "inform",
  "chit-chat": "chit-chat",
  salutations: "nod_prompt_salutations",
  nod_prompt: "nod_prompt_salutations",
  inquire: null,
  diagnosis: null,
  other: null,
};

/** Tool intent → MediTOD doctor action ("drop": doctor informs have no action in MediTOD). */
const DOCTOR_ACTIONS: Record<string, string> = {
  inquire: "inquire",
  diagnosis: "diagnosis",
  "chit-chat": "chit-chat",
  salutations: "nod_prompt_salutations",
  nod_prompt: "nod_prompt_salutations",
  other: "other",
  inform: "drop",
};

/** Tool slot → CMAS slot. Chit-chat slots (medical / non-medical discussion) carry only a topic: dropped. */
const SLOTS: Record<string, string> = {
  "basic information": "basic_information",
  symptom: "symptom",
  "symptom (dermatology)": "symptom",
  "medical history": "medical_history",
  "family history": "family_history",
  habit: "habit",
  exposure: "exposure",
  medication: "medication",
  "medical test": "medical_test",
  occupation: "occupation",
  residence: "residence",
  travel: "travel",
  disease: "disease",
};

/**
 * Tool field → CMAS attribute (and doctor check type), per tool slot. `characteristics` and
 * `ana_factors` are families: in NLU frames their status field picks the attribute
 * ({@link CHARACTERISTIC_STATUS}, {@link ANA_FACTOR_STATUS}); in doctor actions they are check types.
 */
const FIELDS: Record<string, Record<string, string>> = {
  "basic information": { name: "name", age: "age", sex: "sex" },
  symptom: {
    location: "location",
    when: "onset",
    how: "initiation",
    duration: "duration",
    severity: "severity",
    characteristics: "characteristics",
    "ana factors": "ana_factors",
    progression: "progression",
    volume: "volume",
    color: "color",
    frequency: "frequency",
  },
  "symptom (dermatology)": { swollen: "rash_swollen", size: "lesion_size", "peel off": "lesions_peel_off", itching: "itching", location: "location", color: "color" },
  "medical history": { when: "starting", frequency: "frequency" },
  "family history": { relation: "relation" },
  // `frquency` is the tool's own spelling.
  habit: { frquency: "frequency", frequency: "frequency", when: "starting" },
  exposure: { when: "when", where: "where" },
  medication: { "response to": "respone_to", "since when": "start", frequency: "frequency", impact: "impact" },
  "medical test": { when: "when" },
  occupation: { exposure: "exposure" },
  residence: { "household size": "household_size" },
  travel: { destination: "destination", when: "date" },
  disease: {},
};

/** The field holding the slot value, when it is not `value`. */
const VALUE_FIELD: Record<string, string> = { "medical test": "name" };

/** Fields CMAS has no attribute for: dropped (`other` is free text; `topic` names a chit-chat topic). */
const DROPPED_FIELDS = new Set(["other", "other information", "topic"]);

/** Tool status → status prefix of the slot name (medical slots), lower-cased. */
const STATUS_PREFIX: Record<string, Record<string, string>> = {
  symptom: { yes: "positive", no: "negative", "not sure": "unknown", maybe: "unknown" },
  "medical history": {
    yes: "positive",
    no: "negative",
    maybe: "unknown",
    "the patient still suffers from the condition.": "positive",
    "the patient sufferred from the condition in the past.": "positive",
    "the patient did not suffer from the condition in the past.": "negative",
    "the patient is not sure about the status of the condition.": "unknown",
  },
  "family history": { yes: "positive", no: "negative", maybe: "unknown" },
  habit: { yes: "positive", no: "negative", maybe: "unknown" },
  exposure: { yes: "positive", no: "negative", maybe: "unknown" },
  // MediTOD has no "past" status for medications: 115 #69 (antibiotics six months ago) is positive.
  medication: { "currently taking": "positive", "took in the past": "positive", yes: "positive", no: "negative", maybe: "unknown" },
  // The tool asks whether the patient has the test's results.
  "medical test": { yes: "avail", no: "unavail" },
};
STATUS_PREFIX["symptom (dermatology)"] = STATUS_PREFIX.symptom!;

/** Tool status → the `status` attribute of the social slots (115 #75, #79; 317 #95, #99, #101). */
const STATUS_ATTRIBUTE: Record<string, Record<string, string>> = {
  occupation: { yes: "true", no: "false" },
  residence: { yes: "living", no: "not_living" },
  travel: { yes: "traveled", no: "not_traveled" },
};

/** Status of a characteristic (the tool's aux select) → CMAS attribute; none given means it has it. */
const CHARACTERISTIC_STATUS: Record<string, string> = {
  "": "positive_characteristics",
  yes: "positive_characteristics",
  no: "negative_characteristics",
  "may be": "unknown_characteristics",
};

/** Status of an alleviating/aggravating factor (the tool's aux select) → CMAS attribute. */
const ANA_FACTOR_STATUS: Record<string, string> = {
  "yes alleviating": "alleviating_factor",
  "no alleviating": "not_alleviating_factor",
  "yes aggravating": "aggravating_factor",
  "no aggravating": "not_aggravating_factor",
  "neither allevating nor aggrevating": "not_alleviating_aggravating_factor",
  "may be": "unknown_ana_factor",
};

/** `impact` of a medication: the tool's Yes/No/Maybe, lower-cased as in 115 #25 and 317 #13. */
const IMPACT: Record<string, string> = { yes: "yes", no: "no", maybe: "maybe" };

/**
 * Slot values: tool value (lower-cased) → canonical MediTOD value, per CMAS slot. Canonical names are
 * the ones dialogues 115 and 317 use; where they have none, the concept names of `ontology/lexicon.json`;
 * the few concepts neither has are marked NEW (see {@link NEW_CONCEPTS}).
 */
const VALUES: Record<string, Record<string, string>> = {
  symptom: {
    "chest pain": "chest pain", // 115 #34
    dyspnea: "dyspnea", // 115 #1
    soboe: "dyspnea", // shortness of breath on exertion: dyspnea + aggravating physical exertion (115 #15), see IMPLIED
    trauma: "trauma", // lexicon
    fever: "fever", // 115 #29
    cough: "coughing", // 115 #1, 317 #1
    hemoptysis: "hemoptysis", // 115 #11
    "colored/excess sputum": "colored/excess sputum", // 115 #5
    wheez: "wheezing", // 115 #45, 317 #23
    all: "all", // doctor actions only (317 #18); in NLU frames "all" is expanded, see ALL_SYMPTOMS
    "sleep hydrosis": "night sweats", // lexicon
    "unexplained weight loss": "unexplained weight loss", // 317 #57
    "vision problem": "visual impairment", // 317 #43
    "hearing problem": "hearing impairment", // 317 #43
    "smell problem": "sense of smell altered", // 317 #45 ("a change in my smell")
    "nasal congestion": "nasal congestion", // 317 #45
    "runny nose": "rhinorrhea", // 115 #41, 317 #45
    palpitation: "palpitations", // 115 #37, 317 #33
    pain: "pain", // 115 #47
    swelling: "swelling", // 317 #35
    "bowel movement": "change in faeces/bowel movements", // 115 #51, 317 #63
    urination: "difficulty passing urine", // 115 #49, 317 #69
    "head ache": "headache", // 115 #43
    confusion: "confusion", // 317 #71
    fainting: "syncope", // 317 #39
    dizzyness: "dizziness", // 317 #39
  },
  medical_history: {
    "past experience": "past experience", // 115 #17, 317 #21
    copd: "chronic obstructive airway disease", // 317 #97, lexicon
    "congestive heart failure": "congestive heart failure", // lexicon
    surgery: "operative surgical procedures", // 115 #71, 317 #75
    hysterectomy: "hysterectomy", // NEW
    bleeding: "uterine hemorrhage", // NEW; the bleeding that led to the hysterectomy (#75)
    fibroids: "uterine fibroids", // NEW
    cancer: "malignant neoplasms", // 115 #99, 317 #87
    "allergy medication": "drug allergy", // 115 #65
    vaccinations: "immunization", // 115 #73, 317 #83
  },
  family_history: {
    "lung disease": "lung diseases", // 317 #85
    "heart disease": "heart diseases", // 317 #85
    "heart attack": "myocardial infarction", // lexicon
    "pulmonary embolism": "pulmonary embolism", // lexicon
    dvts: "deep vein thrombosis", // lexicon
  },
  habit: {
    smoking: "smoking", // 115 #81
    marijuana: "marijuana use", // 317 #91
    marijuama: "marijuana use", // the raw annotation's typo at #95
    "recreational drugs": "illicit drug use history", // 115 #95
    alcoholism: "alcohol abuse", // 115 #93, 317 #93
  },
  exposure: {
    person: "sick person", // 317 #97, #99
  },
  medication: {
    tylenol: "acetaminophen", // lexicon
    advil: "ibuprofen", // lexicon
  },
  medical_test: {
    "pulmonary function tests": "pulmonary function tests", // 115 #102
  },
  occupation: {
    "administrator at a bank": "administrator at a bank", // free text, as 115 #79 "desk job", 317 #99 "sales"
  },
  disease: {
    "pulmonary embolism": "pulmonary embolism",
  },
};

/** Canonical values used here that neither dialogue 115 or 317 nor `ontology/lexicon.json` names. */
export const NEW_CONCEPTS = ["hysterectomy", "uterine hemorrhage", "uterine fibroids"] as const;

/** The dermatology slot has no value field: its canonical value (115 #53, 317 #61). */
const DERMATOLOGY_VALUE = "dermatologic problem";

/** Attributes a tool value implies when the patient confirms it (`soboe`: dyspnea on exertion, as 115 #15 writes it). */
const IMPLIED: Record<string, Record<string, SlotEntry>> = {
  symptom: { soboe: { aggravating_factor: ["physical exertion"] } },
};

/** Locations → canonical body parts (115 #47, #55; 317 #35, #37). */
const LOCATIONS: Record<string, string> = {
  chest: "chest",
  "chest area": "chest",
  calf: "structure of calf of leg", // 317 #37
  "left leg": "left leg", // laterality kept (317 #35 has "leg" for both legs)
};

/** Characteristics → canonical (317 #7 "dry cough"; the others are the doctor's and patient's words). */
const CHARACTERISTICS: Record<string, string> = {
  dry: "dry cough",
  sharp: "sharp",
  "dull crampy": "dull crampy",
};

/** Alleviating/aggravating factors: the tool's suggestion list is MediTOD's vocabulary (115 #15, 317 #29). */
const ANA_FACTORS: Record<string, string> = {
  "deep breathing": "deep breathing",
  "physical exertion": "physical exertion",
  movement: "movement",
  "lying down": "lying down",
};

/** Progression: the tool's select values are MediTOD's (115 #1, 317 #19). */
const PROGRESSIONS: Record<string, string> = {
  "unchanged with time": "unchanged with time",
  "gradually getting worse over time": "gradually getting worse over time",
  "gradually getting better over time": "gradually getting better over time",
  "rapidly getting worse over time": "rapidly getting worse over time",
  "rapidly getting better over time": "rapidly getting better over time",
  fluctuating: "fluctuating",
};

/** How a doctor inquires about a slot without naming a value (115 #56, #74; 317 #76, #100). */
const UNNAMED_VALUE = "other";
/** How a doctor inquires about basic information (115 #84: "could you remind me of your age?"). */
const BASIC_INFORMATION_INQUIRY: SlotEntry = { value: "none" };

// ---------------------------------------------------------------------------------------------------
// Hand corrections: the raw annotations of these utterances are replaced before the mapping
// ---------------------------------------------------------------------------------------------------

export interface Correction {
  uid: string;
  reason: string;
  annotations: Annotation[];
}

export const CORRECTIONS: readonly Correction[] = [
  {
    uid: "7",
    reason: "the sample's older tool wrote ana factors status \"yes\" without a direction; \"when I take a deep breath the pain is a lot worse\" makes it aggravating",
    annotations: [{ intent: "inform", slot: "symptom", value: "chest pain", status: "Yes", duration: "constant", "ana factors": "deep breathing", "ana factors status": "yes aggravating" }],
  },
  {
    uid: "10",
    reason: "\"do you have that at rest as well?\" asks when the breathlessness comes on: 115 #14 encodes the same question as an ana_factors check",
    annotations: [{ intent: "inquire", slot: "symptom", value: "dyspnea", "ana factors check": true }],
  },
  {
    uid: "13",
    reason: "the patient volunteers a cough with its onset (\"I had a cough about a week ago\"); MediTOD annotates volunteered symptoms and onsets (115 #1, 317 #1) and the raw annotation has the cough only at #15, without onset",
    annotations: [
      { intent: "inform", slot: "symptom", value: "trauma", status: "No", location: "chest area" },
      { intent: "inform", slot: "symptom", value: "cough", status: "Yes", when: "a week ago" },
      { intent: "inform", slot: "symptom", value: "fever", status: "No" },
    ],
  },
  {
    uid: "23",
    reason: "the text says \"up to like a 7 or 8\"; the tool's severity is a 0-10 select that forced one number, MediTOD's is free text",
    annotations: [{ intent: "inform", slot: "symptom", value: "dyspnea", status: "Yes", severity: "7 or 8" }],
  },
  {
    uid: "25",
    reason: "the patient gives no number: the raw severity 7 is not in the text (and its \"other\" says \"run\" where the patient walks); severity is the walking distance she gives, an indirection the guidelines allow",
    annotations: [{ intent: "inform", slot: "symptom", value: "soboe", status: "Yes", severity: "100 meters" }],
  },
  {
    uid: "26",
    reason: "the doctor offers \"sharp\" or \"a dull crampy\" pain; \"a cramp\" is the tool's nearest suggestion, not the words",
    annotations: [{ intent: "inquire", slot: "symptom", value: "chest pain", characteristics: "sharp,dull crampy", "characteristics check": true }],
  },
  {
    uid: "44",
    reason: "the doctor asks about a stuffy nose or a runny nose; the raw annotation has only nasal congestion (317 #44 annotates both)",
    annotations: [{ intent: "inquire", slot: "symptom", value: "nasal congestion,runny nose" }],
  },
  {
    uid: "45",
    reason: "\"No, it's just that the dry cough\" denies both nasal symptoms; the raw annotation kept only the cough",
    annotations: [
      { intent: "inform", slot: "symptom", value: "nasal congestion,runny nose", status: "No" },
      { intent: "inform", slot: "symptom", value: "cough", status: "Yes", characteristics: "dry" },
    ],
  },
  {
    uid: "49",
    reason: "no direction was recorded for the factor; \"especially when I was moving a little bit more\" makes it aggravating",
    annotations: [{ intent: "inform", slot: "symptom", value: "palpitation", status: "Yes", "ana factors": "movement", "ana factors status": "yes aggravating" }],
  },
  {
    uid: "57",
    reason: "the older tool's \"no\" has no direction; \"not when I'm laying down\" is a factor that does not aggravate (317 #37: not_aggravating_factor)",
    annotations: [{ intent: "inform", slot: "symptom", value: "dyspnea", status: "Yes", "ana factors": "lying down", "ana factors status": "no aggravating" }],
  },
  {
    uid: "58",
    reason: "the doctor asks about bowel movements and urination; the raw annotation has only the bowels (115 and 317 have both concepts)",
    annotations: [{ intent: "inquire", slot: "symptom", value: "bowel movement,urination" }],
  },
  {
    uid: "59",
    reason: "\"all that's been normal\" answers both",
    annotations: [{ intent: "inform", slot: "symptom", value: "bowel movement,urination", status: "No" }],
  },
  {
    uid: "69",
    reason: "CMAS has no \"other\" attribute: the specific procedure the raw annotation kept there (hysterectomy) becomes the value, as MediTOD names specific concepts (salbutamol → albuterol, 115 #59)",
    annotations: [{ intent: "inform", slot: "medical history", value: "hysterectomy", status: "Yes", when: "few weeks ago" }],
  },
  {
    uid: "73",
    reason: "she did take Tylenol and Advil this week (raw status \"no\" contradicts the text); a medication tried without effect is positive with impact no and what it was for (317 #13)",
    annotations: [{ intent: "inform", slot: "medication", value: "tylenol, advil", status: "took in the past", "response to": "chest pain", impact: "No" }],
  },
  {
    uid: "74",
    reason: "the question is about the hysterectomy (see #69); CMAS has no attribute for its cause, so it is a bare inquiry (as 115 #68 asks about antibiotics)",
    annotations: [{ intent: "inquire", slot: "medical history", value: "hysterectomy" }],
  },
  {
    uid: "75",
    reason: "the cause the raw annotation kept in \"other\" (bleeding) is a medical-history condition of its own; CMAS has no cause attribute",
    annotations: [{ intent: "inform", slot: "medical history", value: "bleeding", status: "Yes" }],
  },
  {
    uid: "76",
    reason: "the raw inquiry about the hysterectomy's cause (an \"other\" check, which CMAS cannot express) duplicates the cancer question kept here",
    annotations: [{ intent: "inquire", slot: "medical history", value: "cancer" }],
  },
  {
    uid: "77",
    reason: "the cause the raw annotation kept in \"other\" (fibroids) is a medical-history condition of its own",
    annotations: [{ intent: "inform", slot: "medical history", value: "fibroids", status: "Yes" }],
  },
  {
    uid: "85",
    reason: "the patient names the condition, a heart attack (MediTOD records the condition named: 317 #97 COPD); the raw \"other\" says the mother died, which the text does not",
    annotations: [{ intent: "inform", slot: "family history", value: "heart attack", status: "Yes", relation: "mother" }],
  },
  {
    uid: "106",
    reason: "\"those are all the questions that I had … anything that you wanted to add?\" is chit-chat in MediTOD (115 #100, 317 #102)",
    annotations: [{ intent: "chit-chat" }],
  },
  {
    uid: "107",
    reason: "the patient's answer to the closing question is chit-chat in MediTOD (115 #101, 317 #103)",
    annotations: [{ intent: "chit-chat" }],
  },
  {
    uid: "109",
    reason: "the patient's reply to the plan (\"How does that sound?\") is chit-chat in MediTOD (317 #105)",
    annotations: [{ intent: "chit-chat" }],
  },
];

// ---------------------------------------------------------------------------------------------------
// The conversion
// ---------------------------------------------------------------------------------------------------

export interface DoctorTurn {
  speaker: "doctor";
  uttr_id: number;
  text: string;
  keywords: string[];
  actions: DoctorAction[];
}
export interface PatientTurn {
  speaker: "patient";
  uttr_id: number;
  text: string;
  keywords: string[];
  dialog_state: DialogueState;
  nlu: NluFrame[];
}
export type DialogsFile = Record<string, { utterances: Array<DoctorTurn | PatientTurn> }>;

function fail(uid: string, message: string): never {
  throw new Error(`RES0001 utterance ${uid}: ${message}`);
}

function lookup(table: Record<string, string>, raw: string, uid: string, what: string): string {
  const mapped = table[raw.trim().toLowerCase()];
  if (mapped === undefined) fail(uid, `no canonical ${what} for '${raw}' (add it to the mapping tables)`);
  return mapped;
}

/** Splits the tool's comma-separated lists ("chest pain,dyspnea", "tylenol, advil"). */
function splitList(raw: string): string[] {
  return raw
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

function str(annotation: Annotation, field: string): string | undefined {
  const raw = annotation[field];
  return typeof raw === "string" ? raw : undefined;
}

function toolSlot(annotation: Annotation, uid: string): string {
  const slot = annotation.slot;
  if (slot === undefined || SLOTS[slot] === undefined) fail(uid, `unknown slot '${slot}'`);
  return slot;
}

/** The canonical values an annotation names (none for slots without a value, like travel). */
function canonicalValues(annotation: Annotation, slot: string, uid: string): string[] | undefined {
  if (slot === "symptom (dermatology)") return [DERMATOLOGY_VALUE];
  const raw = str(annotation, VALUE_FIELD[slot] ?? "value");
  if (raw === undefined) return undefined;
  const table = VALUES[SLOTS[slot]!];
  if (!table) fail(uid, `slot '${slot}' takes no value`);
  return splitList(raw).map((value) => lookup(table, value, uid, `${SLOTS[slot]} value`));
}

/** Canonical values of a list-valued field (location, characteristics, factors). */
function canonicalList(field: string, raw: string, uid: string): string[] {
  const table = field === "location" ? LOCATIONS : field === "characteristics" ? CHARACTERISTICS : field === "ana factors" ? ANA_FACTORS : undefined;
  if (!table) fail(uid, `'${field}' is not list-valued`);
  return splitList(raw).map((value) => lookup(table, value, uid, field));
}

/** The fields of an annotation that are attributes (not the intent, slot, value or status bookkeeping). */
function attributeFields(annotation: Annotation, slot: string, uid: string): string[] {
  const fields: string[] = [];
  for (const key of Object.keys(annotation)) {
    if (key === "intent" || key === "slot" || key === "status" || key === (VALUE_FIELD[slot] ?? "value")) continue;
    if (key.endsWith(" status")) continue; // read with its field
    const field = key.endsWith(" check") ? key.slice(0, -" check".length) : key;
    if (DROPPED_FIELDS.has(field) || field === "status") continue;
    if (FIELDS[slot]?.[field] === undefined) fail(uid, `no CMAS attribute for field '${key}' of slot '${slot}'`);
    if (!fields.includes(field)) fields.push(field);
  }
  return fields;
}

/** The attributes an inform annotation gives, in its field order. */
function informAttributes(annotation: Annotation, slot: string, uid: string): SlotEntry {
  const attributes: SlotEntry = {};
  for (const field of attributeFields(annotation, slot, uid)) {
    const raw = annotation[field];
    if (typeof raw !== "string") fail(uid, `inform field '${field}' has no text`);
    const attribute = FIELDS[slot]![field]!;
    if (attribute === "characteristics") {
      const status = String(annotation["characteristics status"] ?? "").toLowerCase();
      attributes[lookup(CHARACTERISTIC_STATUS, status, uid, "characteristics status")] = canonicalList(field, raw, uid);
    } else if (attribute === "ana_factors") {
      const status = String(annotation["ana factors status"] ?? "");
      attributes[lookup(ANA_FACTOR_STATUS, status, uid, "ana factors status")] = canonicalList(field, raw, uid);
    } else if (attribute === "location") {
      attributes.location = canonicalList(field, raw, uid);
    } else if (attribute === "progression") {
      attributes.progression = lookup(PROGRESSIONS, raw, uid, "progression");
    } else if (attribute === "impact") {
      attributes.impact = lookup(IMPACT, raw, uid, "impact");
    } else {
      attributes[attribute] = raw.trim();
    }
  }
  return attributes;
}

function mergeInto(entry: SlotEntry, attributes: SlotEntry): void {
  for (const [name, value] of Object.entries(attributes)) {
    const existing = entry[name];
    if (Array.isArray(existing) && Array.isArray(value)) {
      entry[name] = [...existing, ...value.filter((item) => !existing.includes(item))];
    } else {
      entry[name] = Array.isArray(value) ? [...value] : value;
    }
  }
}

/**
 * A patient turn's NLU: MediTOD writes one frame per patient turn (all 104 of 115 and 317), with every
 * informed slot in it, keys in the ontology's order and entries in the order they are mentioned.
 */
function patientFrames(annotations: Annotation[], stateBefore: DialogueState, uid: string): NluFrame[] {
  const intents = [...new Set(annotations.map((annotation) => PATIENT_INTENTS[annotation.intent]))];
  if (intents.some((intent) => intent === null || intent === undefined)) fail(uid, `a patient turn cannot have intents ${JSON.stringify(annotations.map((a) => a.intent))}`);
  if (intents.length !== 1) fail(uid, `mixed intents ${JSON.stringify(intents)} (MediTOD has one frame per patient turn)`);
  const intent = intents[0]!;
  if (intent !== "inform") return [{ intent }];

  const slots = new Map<string, SlotEntry[]>();
  const add = (prefixedSlot: string, entry: SlotEntry): void => {
    let entries = slots.get(prefixedSlot);
    if (!entries) slots.set(prefixedSlot, (entries = []));
    const same = entry.value === undefined ? undefined : entries.find((candidate) => candidate.value === entry.value);
    if (same) mergeInto(same, entry);
    else entries.push(entry);
  };

  for (const annotation of annotations) {
    const slot = toolSlot(annotation, uid);
    const cmasSlot = SLOTS[slot]!;
    const attributes = informAttributes(annotation, slot, uid);
    const status = str(annotation, "status")?.trim().toLowerCase();

    if (STATUS_ATTRIBUTE[slot]) {
      const entry: SlotEntry = {};
      const values = canonicalValues(annotation, slot, uid);
      if (values) entry.value = values.join(", ");
      if (status !== undefined) entry.status = lookup(STATUS_ATTRIBUTE[slot], status, uid, `${slot} status`);
      mergeInto(entry, attributes);
      add(cmasSlot, entry);
      continue;
    }
    if (cmasSlot === "basic_information") {
      add(cmasSlot, attributes);
      continue;
    }
    if (status === undefined) fail(uid, `inform of '${slot}' without a status`);
    const prefix = lookup(STATUS_PREFIX[slot] ?? {}, status, uid, `${slot} status`);
    const rawValues = slot === "symptom (dermatology)" ? [DERMATOLOGY_VALUE] : splitList(str(annotation, VALUE_FIELD[slot] ?? "value") ?? "");
    const values = canonicalValues(annotation, slot, uid) ?? fail(uid, `inform of '${slot}' without a value`);
    values.forEach((value, index) => {
      // ALL_SYMPTOMS: "all" in a patient's answer means every symptom confirmed so far (317 #18–19: the
      // doctor asks about "all", the patient's answer is annotated on the confirmed symptom itself).
      const expanded = value === "all" ? (stateBefore.positive_symptom ?? []).map((entry) => entry.value as string) : [value];
      if (expanded.length === 0) fail(uid, `"all" symptoms before any symptom is confirmed`);
      for (const canonical of expanded) {
        const entry: SlotEntry = { value: canonical };
        mergeInto(entry, attributes);
        const implied = prefix === "positive" ? IMPLIED[cmasSlot]?.[rawValues[index]!.toLowerCase()] : undefined;
        if (implied) mergeInto(entry, implied);
        add(`${prefix}_${cmasSlot}`, entry);
      }
    });
  }

  const ordered: Record<string, SlotEntry[]> = {};
  for (const name of prefixedSlotNames) {
    const entries = slots.get(name);
    if (entries) ordered[name] = entries;
  }
  for (const name of slots.keys()) if (!(name in ordered)) fail(uid, `'${name}' is not a CMAS slot`);
  return [{ intent, slots: ordered }];
}

/** A doctor inquiry: one action per tool annotation, one entry per value (115 #4, #20; 317 #8, #58). */
function inquireAction(annotation: Annotation, uid: string): DoctorAction {
  const slot = toolSlot(annotation, uid);
  const cmasSlot = SLOTS[slot]!;
  if (cmasSlot === "basic_information") return { action: "inquire", basic_information: [{ ...BASIC_INFORMATION_INQUIRY }] };

  const checks: Array<{ type: string; values?: string[] }> = [];
  for (const field of attributeFields(annotation, slot, uid)) {
    const type = FIELDS[slot]![field]!;
    const raw = annotation[field];
    if (typeof raw !== "string") {
      // A flag (`severity: true`) or a bare check (`duration check: true`): the attribute is asked for.
      checks.push({ type });
      continue;
    }
    let values: string[];
    if (field === "location" || field === "characteristics" || field === "ana factors") values = canonicalList(field, raw, uid);
    else if (field === "progression") values = [lookup(PROGRESSIONS, raw, uid, "progression")];
    else values = [raw.trim()];
    // A value the doctor names is a candidate answer: {"type": "duration", "values": ["constant"]} (317 #2).
    checks.push({ type, values });
  }
  // "status check" (has the patient travelled?) is what a bare inquiry asks: dropped, as 317 #100 shows.
  const values = canonicalValues(annotation, slot, uid) ?? [UNNAMED_VALUE];
  return {
    action: "inquire",
    [cmasSlot]: values.map((value) => ({ value, ...(checks.length > 0 ? { checks: checks.map((check) => ({ ...check })) } : {}) })),
  };
}

function doctorActions(annotations: Annotation[], uid: string): DoctorAction[] {
  const actions: DoctorAction[] = [];
  for (const annotation of annotations) {
    const action = DOCTOR_ACTIONS[annotation.intent] ?? fail(uid, `unknown doctor intent '${annotation.intent}'`);
    if (action === "drop") continue;
    if (action === "inquire") actions.push(inquireAction(annotation, uid));
    else if (action === "diagnosis") {
      // The tool's Yes/Maybe status of a diagnosis has no place in MediTOD's actions (115 #102, 317 #104).
      const values = canonicalValues(annotation, toolSlot(annotation, uid), uid) ?? fail(uid, "diagnosis without a disease");
      actions.push({ action: "diagnosis", disease: values.map((value) => ({ value })) });
    } else actions.push({ action });
  }
  if (actions.length === 0) fail(uid, "a doctor turn without actions");
  return actions;
}

export function readRaw(): { dialogue: RawDialogue; annotations: RawAnnotation[] } {
  return {
    dialogue: JSON.parse(readFileSync(RAW_DIALOGUE_PATH, "utf8")) as RawDialogue,
    annotations: JSON.parse(readFileSync(RAW_ANNOTATIONS_PATH, "utf8")) as RawAnnotation[],
  };
}

/** Converts the raw dialogue and annotations into MediTOD's `dialogs.json` content. */
export function convert(dialogue: RawDialogue, annotations: readonly RawAnnotation[]): DialogsFile {
  if (dialogue.dlg_id !== DIALOGUE_ID) throw new Error(`expected dialogue ${DIALOGUE_ID}, found ${dialogue.dlg_id}`);
  const byUid = new Map<string, Annotation[]>();
  for (const { uid, ...annotation } of annotations) {
    let list = byUid.get(uid);
    if (!list) byUid.set(uid, (list = []));
    list.push(annotation);
  }
  for (const correction of CORRECTIONS) {
    if (!byUid.has(correction.uid)) throw new Error(`correction for utterance ${correction.uid}, which has no raw annotation`);
    byUid.set(correction.uid, correction.annotations);
  }

  // The tool's trailing "control" item (uttr 111, "Add differential diagnosis") is no utterance.
  const utterances = dialogue.utterances.filter((utterance) => utterance.speaker === "doctor" || utterance.speaker === "patient");
  const tracker = new DialogueStateTracker();
  let state: DialogueState = {};
  const turns = utterances.map((utterance, index): DoctorTurn | PatientTurn => {
    const uid = String(utterance.uttr_id);
    if (utterance.uttr_id !== index) fail(uid, `utterance at position ${index}`);
    const raw = byUid.get(uid) ?? fail(uid, "no annotation");
    const common = { uttr_id: utterance.uttr_id, text: utterance.text, keywords: [...utterance.keywords] };
    if (utterance.speaker === "doctor") return { speaker: "doctor", ...common, actions: doctorActions(raw, uid) };
    const nlu = patientFrames(raw, state, uid);
    state = tracker.update(nlu);
    return { speaker: "patient", ...common, dialog_state: state, nlu };
  });
  return { [DIALOGUE_ID]: { utterances: turns } };
}

/** The file text, formatted as `data/meditod/dialogs.json` is. */
export function render(dialogs: DialogsFile): string {
  return `${JSON.stringify(dialogs, null, 2)}\n`;
}

function main(): void {
  const { dialogue, annotations } = readRaw();
  const text = render(convert(dialogue, annotations));
  if (process.argv.includes("--check")) {
    const current = readFileSync(OUTPUT_PATH, "utf8");
    if (current !== text) {
      console.error(`${OUTPUT_PATH} is not what convert.ts writes: run npx tsx data/meditod-dev/convert.ts`);
      process.exit(1);
    }
    console.log(`${OUTPUT_PATH} is up to date`);
    return;
  }
  writeFileSync(OUTPUT_PATH, text);
  console.log(`wrote ${OUTPUT_PATH}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
