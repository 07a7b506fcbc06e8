import * as z from "zod";
import { splitPrefixedSlot } from "../cmas/ontology.ts";
import type { DialogueState, SlotEntry } from "../cmas/schemas.ts";
import { allergiesSaid, type SaidAllergy } from "./allergens-said.ts";
import type { Criterion } from "./criteria.ts";
import { loadDiagnoses, type DiagnosisRules } from "./diagnoses.ts";
import { namedMedicineOf } from "./medicine-classes.ts";
import { packYears } from "./pack-years.ts";
import { recordLabeller } from "./record-labels.ts";
import { loadRedFlags, type RedFlagRules } from "./red-flags.ts";

/**
 * The clinical note of a history, written from the tracked CMAS state alone (so it reads the same
 * whichever backend took the history): who gave the history, presenting complaint, history of
 * presenting complaint, review of systems (pertinent positives and negatives), past medical history,
 * medications with their doses, allergies, family and social history, the patient's questions and
 * concerns, red flags and the working impression — or "none" when the history meets no diagnosis's
 * criteria. Values keep their clinical names (the note is for clinicians), but for the data's labels of
 * everyday words ("alcohol abuse" for any drinking, "bedridden" for tiredness: `record-labels.ts`),
 * which the note shows only when the patient said them. The medicines the patient named come first,
 * by name with their dose and frequency, before the medication slot's entries (drug classes).
 *
 * What the note says is absent is only what the patient denied: an entry the state holds with a
 * negative status (`negative_symptom`: the patient said no). What was never asked is not in the state
 * and not in the note; what the patient was unsure of (`unknown_…`) is listed as uncertain, never as
 * denied.
 *
 * The red flags are those the conversation raised (on the state, on the patient's own words, or on the
 * semantic signal), with their evidence, and any the final state meets besides.
 */

/** The version of {@link clinicalNoteSchema}'s JSON: 2 added `version`, `historian`, `questionsAndConcerns`, and each medication's `dose` and `frequency`. */
export const CLINICAL_NOTE_VERSION = 2;

const detailSchema = z.strictObject({ attribute: z.string(), label: z.string(), value: z.string() });
const findingSchema = z.strictObject({ value: z.string(), details: z.array(detailSchema) });
const listingSchema = z.strictObject({
  present: z.array(findingSchema),
  /** Only what the patient denied (a negative status in the state), never what was not asked. */
  absent: z.array(z.string()),
  /** What the patient was unsure of (an unknown status). */
  uncertain: z.array(z.string()),
});
/** A medication taken: a finding, with the dose and frequency read out when the state has them. */
const medicationSchema = findingSchema.extend({ dose: z.string().nullable(), frequency: z.string().nullable() });

/** Who gave the history: the patient, or someone speaking for them and how they are related. */
const historianSchema = z.strictObject({
  informant: z.enum(["patient", "proxy"]),
  /** The proxy's relation to the patient (`mother`, `daughter`, `carer`); null for the patient. */
  relation: z.string().nullable(),
});
/** Who gave the history (`historian` of the note). */
export type Historian = z.infer<typeof historianSchema>;

/** One question, idea, concern or expectation the patient voiced, in their words. */
const patientVoiceSchema = z.strictObject({
  kind: z.enum(["question", "idea", "concern", "expectation"]),
  text: z.string(),
});
/** A question or concern of the patient's, as the note lists it. */
export type PatientVoice = z.infer<typeof patientVoiceSchema>;

/** The clinical note's JSON (what `GET /api/sessions/:id/note` and `anamnesis note --format json` give). */
export const clinicalNoteSchema = z.strictObject({
  version: z.literal(CLINICAL_NOTE_VERSION),
  /** Null until the history records who is speaking. */
  historian: historianSchema.nullable(),
  patient: z.strictObject({ age: z.string().nullable(), sex: z.string().nullable() }),
  presentingComplaint: z.array(z.string()),
  historyOfPresentingComplaint: z.array(findingSchema),
  reviewOfSystems: listingSchema,
  pastMedicalHistory: listingSchema,
  medications: z.strictObject({
    present: z.array(medicationSchema),
    absent: z.array(z.string()),
    uncertain: z.array(z.string()),
  }),
  allergies: listingSchema,
  familyHistory: listingSchema,
  socialHistory: z.strictObject({
    habits: listingSchema,
    exposures: listingSchema,
    occupation: z.string().nullable(),
    residence: z.string().nullable(),
    travel: z.string().nullable(),
  }),
  investigations: z.strictObject({ done: z.array(findingSchema), notDone: z.array(z.string()) }),
  redFlags: z.array(
    z.strictObject({ id: z.string(), label: z.string(), urgency: z.string(), evidence: z.array(z.string()) }),
  ),
  workingImpression: z.strictObject({ disease: z.string(), evidence: z.array(z.string()) }).nullable(),
  /** The patient's questions, ideas, concerns and expectations, in the order voiced; empty when none were recorded. */
  questionsAndConcerns: z.array(patientVoiceSchema),
});
/** A clinical note: the sections of {@link clinicalNoteSchema}. */
export type ClinicalNote = z.infer<typeof clinicalNoteSchema>;
type Finding = z.infer<typeof findingSchema>;
type Medication = z.infer<typeof medicationSchema>;
/** A section's entries by status: present (as findings, or medications), absent (denied) and uncertain. */
type Listing<Present = Finding> = { present: Present[]; absent: string[]; uncertain: string[] };

/** A medicine the patient named, with the dose and frequency they said (null: not said). */
export interface NoteMedicine {
  readonly name: string;
  readonly dose: string | null;
  readonly frequency: string | null;
}

/** What a note is written from: the tracked state, and optionally the presenting complaint and the rules. */
export interface NoteInput {
  readonly state: DialogueState;
  /** The presenting complaint's values (default: the first positive symptom). */
  readonly presenting?: readonly string[];
  /** Who gave the history, when the conversation recorded it apart from the state (default: read from the state). */
  readonly historian?: Historian | null;
  /** The patient's questions and concerns the conversation recorded, in order (default: none). */
  readonly questionsAndConcerns?: readonly PatientVoice[];
  /** The medicines the patient named, in order (default: none): listed before the medication slot's entries. */
  readonly medicines?: readonly NoteMedicine[];
  /**
   * What the patient said, turn by turn: a data label of everyday words ("alcohol abuse") is shown
   * only when these words say it. Default: not known, and the lay label is shown.
   */
  readonly patientWords?: readonly string[];
  /**
   * Keep the data's labels as they are (default false): for a writer that names values itself from the
   * note's JSON, as the visit note does (`note-names.ts`), and places them by their data names.
   */
  readonly dataLabels?: boolean;
  readonly redFlags?: RedFlagRules;
  readonly diagnoses?: DiagnosisRules;
  /**
   * The red flags the conversation raised, in order (`Conversation.snapshot().redFlags`): those fired
   * on the patient's words or the semantic signal are not in the state, so only the conversation knows them.
   */
  readonly raisedRedFlags?: readonly RaisedRedFlag[];
}

type NoteRedFlag = ClinicalNote["redFlags"][number];
/** A red flag as a conversation records it (a `RedFlag`, or as read back from a saved session). */
type RaisedRedFlag = {
  readonly [key in keyof NoteRedFlag]: key extends "evidence" ? readonly string[] : NoteRedFlag[key];
};

/** Evidence of the criteria (`positive symptom: bedridden`), its value as the note names it. Example: "positive symptom: tiredness". */
const CRITERION_EVIDENCE = /^([a-z_ ]+: )(.+)$/;

/** An evidence item with its value named as the note names values (a value the labels do not list, the patient's words: as it is). */
function evidenceNamed(item: string, label: (value: string) => string): string {
  const match = CRITERION_EVIDENCE.exec(item);
  return match ? `${match[1]!}${label(match[2]!)}` : label(item);
}

/** The conversation's red flags, then those the state meets besides; a flag in both once, with the evidence of both. */
function noteRedFlags(input: NoteInput, label: (value: string) => string): NoteRedFlag[] {
  const flags = new Map<string, NoteRedFlag>();
  const fromState = (input.redFlags ?? loadRedFlags()).evaluate(input.state, input.patientWords);
  for (const { id, label: title, urgency, evidence } of [...(input.raisedRedFlags ?? []), ...fromState]) {
    const known = flags.get(id);
    const named = evidence.map((item) => evidenceNamed(item, label));
    if (!known) flags.set(id, { id, label: title, urgency, evidence: [...new Set(named)] });
    else for (const item of named) if (!known.evidence.includes(item)) known.evidence.push(item);
  }
  return [...flags.values()];
}

/** The values a criterion is about when it is one finding, or a choice of findings; none when it needs several together. */
function singleFindingValues(criterion: Criterion): string[] {
  if ("finding" in criterion) return criterion.finding.status === "positive" ? criterion.finding.values : [];
  return "any" in criterion ? criterion.any.flatMap(singleFindingValues) : [];
}

/**
 * The values, as the note names them, of the raised red flags that fired on the patient's words and
 * are about one finding (suicidal thoughts, coughed blood): the review of systems does not list them
 * as denied beside the flag ("no" to the question, then "everyone would be better off without me"). A
 * flag that needs several findings together (chest pain with breathlessness) keeps its parts' denials.
 */
function toldInWords(
  flags: readonly NoteRedFlag[],
  rules: RedFlagRules,
  label: (value: string) => string,
): Set<string> {
  const values = new Set<string>();
  for (const flag of flags) {
    const definition = rules.flags.find((candidate) => candidate.id === flag.id);
    if (!definition || !flag.evidence.some((item) => item.startsWith("said:"))) continue;
    for (const value of singleFindingValues(definition.criteria)) values.add(label(value));
  }
  return values;
}

/**
 * The allergies' listing, with each drug the patient said they are allergic to named on the state's
 * drug allergy ("drug allergy — allergen: penicillin (rash)"), which CMAS records without the drug; a
 * drug allergy told in words the state missed is listed all the same, and is then no longer denied.
 */
function allergyListing(state: DialogueState, label: Labeller, said: readonly SaidAllergy[]): Listing {
  const listed = listing(state, "medical_history", label, (entry) => ALLERGY.test(String(entry.value)));
  if (said.length === 0) return listed;
  const named = said.map(({ substance, reaction }) => (reaction ? `${substance} (${reaction})` : substance));
  const detail = { attribute: "allergen", label: "allergen", value: named.join(", ") };
  const drug = label("drug allergy");
  const present = listed.present.some((finding) => finding.value === drug)
    ? listed.present.map((finding) =>
        finding.value === drug ? { ...finding, details: [...finding.details, detail] } : finding,
      )
    : [{ value: drug, details: [detail] }, ...listed.present];
  const other = (name: string) => name !== drug;
  return { present, absent: listed.absent.filter(other), uncertain: listed.uncertain.filter(other) };
}

/** How each attribute is labelled in the note. */
const ATTRIBUTE_LABELS: Readonly<Record<string, string>> = {
  onset: "onset",
  initiation: "came on",
  location: "site",
  duration: "duration",
  severity: "severity",
  progression: "course",
  frequency: "frequency",
  positive_characteristics: "character",
  negative_characteristics: "not",
  unknown_characteristics: "unsure whether",
  aggravating_factor: "worse with",
  not_aggravating_factor: "not worse with",
  alleviating_factor: "better with",
  not_alleviating_factor: "not helped by",
  not_alleviating_aggravating_factor: "unaffected by",
  unknown_factor: "unsure of effect of",
  unknown_ana_factor: "unsure of effect of",
  volume: "amount",
  color: "colour",
  lesion_size: "size",
  lesions_peel_off: "peeling",
  rash_swollen: "swollen",
  starting: "since",
  start: "started",
  impact: "effect",
  respone_to: "for",
  relation: "relative",
  where: "where",
  when: "when",
};

/**
 * Labels of an attribute that mean something else for one value: the `starting` of the last period is
 * the day it began (its first day, which is what the last menstrual period dates), not "since".
 */
const VALUE_ATTRIBUTE_LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "last menstrual period": { starting: "first day" },
};

/** Values that stand for a question rather than a finding (`other`, `general`: "otherwise well"). */
const PLACEHOLDERS = new Set(["other", "general", "all", "none", "past experience"]);
const ALLERGY = /allerg|hypersensitivity|anaphylaxis/i;

const said = (value: string | string[]): string => (Array.isArray(value) ? value.join(", ") : value);

/** Whether a medicine helped, as the data records it (`yes`, `no`, `maybe`: a little), in a clinician's words. */
const IMPACT_SAID: Readonly<Record<string, string>> = { yes: "helps", no: "does not help", maybe: "helps partly" };

/** An attribute's value as the note writes it: a 0–10 severity out of ten, a medicine's effect in words. */
function writtenValue(attribute: string, value: string | string[]): string {
  if (attribute === "severity" && /^\d+(\.\d+)?$/.test(said(value))) return `${said(value)}/10`;
  if (attribute === "impact") return IMPACT_SAID[said(value)] ?? said(value);
  return said(value);
}

function detailsOf(entry: SlotEntry): Finding["details"] {
  return Object.entries(entry)
    .filter(([attribute]) => attribute !== "value" && attribute !== "status")
    .map(([attribute, value]) => {
      const text = writtenValue(attribute, value);
      const label =
        VALUE_ATTRIBUTE_LABELS[String(entry.value)]?.[attribute] ??
        ATTRIBUTE_LABELS[attribute] ??
        attribute.replace(/_/g, " ");
      return { attribute, label, value: text };
    });
}

/** How the note names a value (`recordLabeller`: the data's labels of everyday words in lay words unless said). */
type Labeller = (value: string) => string;

/**
 * The sites of an entry as the note names them: a site kept beside its side ("knee" beside "right
 * knee", as the NLU records both) is named once, by the side.
 */
function sitesOf(location: string | string[]): string {
  const sites = Array.isArray(location) ? location : [location];
  return sites.filter((site) => !sites.some((other) => other.endsWith(` ${site}`))).join(", ");
}

/** A finding's name: its value, with the site for located values (pain, swelling…), as clinicians write "pain (lower back)". */
function nameOf(entry: SlotEntry, label: Labeller): string {
  const location = entry.location === undefined ? "" : ` (${sitesOf(entry.location)})`;
  return `${label(String(entry.value))}${location}`;
}

/** A present entry as a finding: its name, and its attributes but the site (already in the name). */
function findingOf(entry: SlotEntry, label: Labeller): Finding {
  return { value: nameOf(entry, label), details: detailsOf(entry).filter((detail) => detail.attribute !== "location") };
}

/**
 * The attribute a medication's dose is read from. MediTOD's CMAS has none; a state that records doses
 * (the NLU's medications with doses) writes them here, and the note shows them.
 */
const DOSE_ATTRIBUTE = "dose";

/** A medication taken, with its dose and frequency when the state has them. */
function medicationOf(entry: SlotEntry, label: Labeller): Medication {
  const read = (attribute: string) => (entry[attribute] === undefined ? null : said(entry[attribute]));
  return { ...findingOf(entry, label), dose: read(DOSE_ATTRIBUTE), frequency: read("frequency") };
}

/**
 * A habit the patient reported with its amount under an unknown status: MediTOD files light or
 * occasional use that way ("a few glasses of wine a week"), but the patient did say they drink, and how
 * much: the note lists it with the amount, not as something they were unsure of.
 */
function isLightUse(slot: string, status: string | null, entry: SlotEntry): boolean {
  return slot === "habit" && status === "unknown" && typeof entry.frequency === "string";
}

/**
 * Entries of a slot by status, placeholder values left out; `keep` filters the entries. Absent holds
 * only negative entries (what the patient denied); unknown entries are uncertain, never absent.
 */
function entriesByStatus(
  state: DialogueState,
  slot: string,
  label: Labeller,
  keep: (entry: SlotEntry) => boolean = () => true,
): Listing<SlotEntry> {
  const result: Listing<SlotEntry> = { present: [], absent: [], uncertain: [] };
  for (const [prefixed, entries] of Object.entries(state)) {
    const split = splitPrefixedSlot(prefixed);
    if (split?.slot.name !== slot) continue;
    for (const entry of entries) {
      if (typeof entry.value !== "string" || PLACEHOLDERS.has(entry.value) || !keep(entry)) continue;
      if (split.status === "positive" || split.status === "avail" || isLightUse(slot, split.status, entry))
        result.present.push(entry);
      else if (split.status === "negative" || split.status === "unavail") result.absent.push(nameOf(entry, label));
      else result.uncertain.push(nameOf(entry, label));
    }
  }
  return result;
}

/** A slot's listing, present entries as findings. */
function listing(state: DialogueState, slot: string, label: Labeller, keep?: (entry: SlotEntry) => boolean): Listing {
  const { present, absent, uncertain } = entriesByStatus(state, slot, label, keep);
  return { present: present.map((entry) => findingOf(entry, label)), absent, uncertain };
}

/** The habits' listing, a smoker's pack-years added when the state says enough to count them ({@link packYears}). */
function habitListing(state: DialogueState, label: Labeller): Listing {
  const { present, absent, uncertain } = entriesByStatus(state, "habit", label);
  const findings = present.map((entry) => {
    const finding = findingOf(entry, label);
    const counted = packYears(entry);
    if (counted === null) return finding;
    return {
      ...finding,
      details: [...finding.details, { attribute: "pack_years", label: "pack-years", value: String(counted) }],
    };
  });
  return { present: findings, absent, uncertain };
}

/**
 * The medications' listing: the medicines the patient named first, by name with dose and frequency,
 * then the medication slot's other taken entries (MediTOD's drug classes). An entry that stands for a
 * named medicine (`medicine-classes.ts`: "antihypertensive agents" for "ramipril") is not listed
 * again: what it adds (whether it helped, what for) goes to the named medicine.
 */
function medicationListing(state: DialogueState, label: Labeller, named: readonly NoteMedicine[]): Listing<Medication> {
  const { present, absent, uncertain } = entriesByStatus(state, "medication", label);
  const byName: Medication[] = named.map(({ name, dose, frequency }) => ({
    value: name,
    details: [],
    dose,
    frequency,
  }));
  const names = named.map((medicine) => medicine.name);
  const others: Medication[] = [];
  for (const entry of present) {
    const medication = medicationOf(entry, label);
    const into = byName[namedMedicineOf(String(entry.value), names)];
    if (!into) {
      others.push(medication);
      continue;
    }
    for (const detail of medication.details)
      if (!into.details.some((known) => known.attribute === detail.attribute)) into.details.push(detail);
    into.dose ??= medication.dose;
    into.frequency ??= medication.frequency;
  }
  return { present: [...byName, ...others], absent, uncertain };
}

/** A social slot's single entry in words ("desk job", "house (living)", "travelled to Mexico in May"). */
function socialLine(state: DialogueState, slot: string): string | null {
  const entry = state[slot]?.[0];
  if (!entry) return null;
  if (slot === "travel") {
    if (entry.status === "not_traveled") return "no recent travel";
    return ["travelled", entry.destination ? `to ${said(entry.destination)}` : "", entry.date ? said(entry.date) : ""]
      .filter(Boolean)
      .join(" ");
  }
  const details = Object.entries(entry)
    .filter(([attribute]) => attribute !== "value" && attribute !== "status")
    .map(([attribute, value]) => `${attribute.replace(/_/g, " ")}: ${said(value)}`);
  const head = entry.value !== undefined ? said(entry.value) : entry.status !== undefined ? said(entry.status) : "";
  return [head, ...details].filter(Boolean).join("; ") || null;
}

/**
 * The attribute of `basic_information` that says who is speaking: `patient` (or `self`), or the
 * speaker's relation to the patient (`mother`, `carer`). MediTOD's CMAS has none; proxy detection
 * records it here, and until then the note's historian is null.
 */
const INFORMANT_ATTRIBUTE = "informant";
const SELF = new Set(["patient", "self"]);

/** Who gave the history, as the state records it, or null. */
function historianOf(state: DialogueState): Historian | null {
  const informant = state.basic_information?.[0]?.[INFORMANT_ATTRIBUTE];
  if (informant === undefined) return null;
  const relation = said(informant).trim().toLowerCase();
  return SELF.has(relation) ? { informant: "patient", relation: null } : { informant: "proxy", relation };
}

function patientOf(state: DialogueState): ClinicalNote["patient"] {
  const entry = state.basic_information?.[0] ?? {};
  const pick = (value: string | string[] | undefined) => (value === undefined ? null : said(value));
  return { age: pick(entry.age), sex: pick(entry.sex ?? entry.gender) };
}

/** The clinical note of a tracked state. */
export function clinicalNote(input: NoteInput): ClinicalNote {
  const { state } = input;
  const label = input.dataLabels ? (value: string) => value : recordLabeller(input.patientWords ?? null);
  const symptoms = listing(state, "symptom", label);
  const positives = symptoms.present.map((finding) => finding.value);
  // The presenting complaint's values named as the findings are (the data's "bedridden" is "tiredness" there).
  const presenting = (input.presenting ?? [])
    .map(label)
    .filter((value) => positives.some((name) => name === value || name.startsWith(`${value} (`)));
  const complaint = presenting.length > 0 ? presenting : positives.slice(0, 1);
  const isComplaint = (finding: Finding) =>
    complaint.some((value) => finding.value === value || finding.value.startsWith(`${value} (`));
  const impression = (input.diagnoses ?? loadDiagnoses()).workingImpression(state);
  const history = listing(state, "medical_history", label, (entry) => !ALLERGY.test(String(entry.value)));
  const redFlags = noteRedFlags(input, label);
  const told = toldInWords(redFlags, input.redFlags ?? loadRedFlags(), label);
  return {
    version: CLINICAL_NOTE_VERSION,
    historian: input.historian !== undefined ? input.historian : historianOf(state),
    patient: patientOf(state),
    presentingComplaint: complaint,
    historyOfPresentingComplaint: symptoms.present.filter(isComplaint),
    reviewOfSystems: {
      present: symptoms.present.filter((finding) => !isComplaint(finding)),
      absent: symptoms.absent.filter((name) => !told.has(name)),
      uncertain: symptoms.uncertain,
    },
    pastMedicalHistory: history,
    medications: medicationListing(state, label, input.medicines ?? []),
    allergies: allergyListing(state, label, allergiesSaid(input.patientWords ?? [])),
    familyHistory: listing(state, "family_history", label),
    socialHistory: {
      habits: habitListing(state, label),
      exposures: listing(state, "exposure", label),
      occupation: socialLine(state, "occupation"),
      residence: socialLine(state, "residence"),
      travel: socialLine(state, "travel"),
    },
    investigations: (() => {
      const tests = listing(state, "medical_test", label);
      return { done: tests.present, notDone: tests.absent };
    })(),
    redFlags,
    workingImpression: impression
      ? { disease: impression.disease, evidence: impression.evidence.map((item) => evidenceNamed(item, label)) }
      : null,
    questionsAndConcerns: (input.questionsAndConcerns ?? []).map((voice) => ({ ...voice })),
  };
}
