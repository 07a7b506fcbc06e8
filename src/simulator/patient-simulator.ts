import { slotDefinition, splitPrefixedSlot } from "../cmas/ontology.ts";
import type { DialogueState, DoctorAction, SlotEntry } from "../cmas/schemas.ts";
import type { MeditodDataset } from "../data/meditod.ts";
import { getDialogue } from "../data/meditod.ts";
import { actionSlots } from "../language/action-signature.ts";
import { joinAlternatives, layTerm, spokenValue } from "../language/lay-terms.ts";
import {
  askedCheckTypes,
  isRadiation,
  NOT_RADIATING,
  RADIATION_CHECK_VALUE,
  RADIATION_FACT,
  radiationSites,
} from "../language/pain-radiation.ts";

/**
 * A simulated patient: answers the doctor's actions from a case profile (a CMAS state), so a
 * conversation can run without a person — for demos, smoke tests and the chat benchmark. It answers
 * what it is asked, and only that: "yes" with details for what the profile has as positive, "no" for
 * negatives and for anything the profile does not mention, "not sure" for unknowns.
 */

export interface PatientCase {
  readonly id: string;
  readonly title: string;
  /** The whole history the patient can give. */
  readonly profile: DialogueState;
}

/** A case from a MediTOD dialogue: the profile is its final annotated state. */
export function caseFromDialogue(dataset: MeditodDataset, dialogueId: string): PatientCase {
  const patientTurns = getDialogue(dataset, dialogueId).utterances.filter(
    (utterance) => utterance.speaker === "patient",
  );
  const last = patientTurns.at(-1);
  const profile = last && last.speaker === "patient" ? last.dialog_state : {};
  const complaint = (profile.positive_symptom ?? []).slice(0, 2).map((entry) => String(entry.value));
  return {
    id: dialogueId,
    title: `MediTOD dialogue ${dialogueId}${complaint.length ? `: ${complaint.join(", ")}` : ""}`,
    profile,
  };
}

interface Found {
  status: string | null;
  entry: SlotEntry;
}

function findInProfile(profile: DialogueState, slot: string, value: string | undefined): Found | undefined {
  for (const [prefixed, entries] of Object.entries(profile)) {
    const split = splitPrefixedSlot(prefixed);
    if (!split || split.slot.name !== slot) continue;
    const entry =
      value === undefined || value === "other" || value === "none"
        ? entries[0]
        : entries.find((candidate) => candidate.value === value);
    if (entry) return { status: split.status, entry };
  }
  return undefined;
}

const OPEN_VALUES = new Set(["other", "all", "none"]);

/** The present (positive or available) values of a slot in the profile. */
function presentValues(profile: DialogueState, slot: string): string[] {
  return [...(profile[`positive_${slot}`] ?? []), ...(profile[`avail_${slot}`] ?? [])]
    .map((entry) => entry.value)
    .filter((value): value is string => typeof value === "string" && !OPEN_VALUES.has(value));
}

/** A body site in a patient's words: the lay names of UMLS structures, but "abdomen" stays a noun. */
function siteName(site: string): string {
  return /^(?:set of |entire |structure of )/.test(site) ? layTerm(site) : site;
}

/** The sites a question names through a location check ("any abdominal pain?"). */
function locationValues(asked: { checks?: Array<{ type?: string; values?: string[] }> }): string[] {
  return (asked.checks ?? [])
    .filter((check) => check.type === "location")
    .flatMap((check) => check.values ?? [])
    .filter((value) => value !== RADIATION_CHECK_VALUE);
}

/** Where the pain spreads, in the patient's words, from its location values; undefined when the profile does not say. */
function describeRadiation(value: string | string[] | undefined): string | undefined {
  const locations = [value ?? []].flat();
  const sites = radiationSites(locations);
  const named = sites.map(siteName);
  if (named.length > 0)
    return `It spreads to my ${[named.slice(0, -1).join(", "), named.at(-1)].filter(Boolean).join(" and ")}.`;
  return locations.includes(NOT_RADIATING) ? "No, it stays in one place." : undefined;
}

/**
 * For a question about a value at named sites: the profile's entry of that value at one of them, or
 * "no" when the value is only elsewhere (knee pain is a no to "any abdominal pain?"); undefined when
 * the question names no site.
 */
function locatedAnswer(
  profile: DialogueState,
  slot: string,
  asked: { value?: string; checks?: Array<{ type?: string; values?: string[] }> },
): Found | "no" | undefined {
  const sites = locationValues(asked);
  if (sites.length === 0 || asked.value === undefined) return undefined;
  for (const [prefixed, entries] of Object.entries(profile)) {
    const split = splitPrefixedSlot(prefixed);
    if (!split || split.slot.name !== slot) continue;
    // "left leg" is a leg: a named site matches a more specific one.
    const matches = (location: string) => sites.some((site) => location === site || location.split(" ").includes(site));
    const entry = entries.find(
      (candidate) => candidate.value === asked.value && [candidate.location ?? []].flat().some(matches),
    );
    if (entry) return { status: split.status, entry };
  }
  return "no";
}

const text = (value: string | string[] | undefined) => (Array.isArray(value) ? joinAlternatives(value) : (value ?? ""));

/** A detail about an attribute, in the patient's words. */
function describeAttribute(
  attribute: string,
  value: string | string[] | undefined,
  subject: string,
): string | undefined {
  if (value === undefined || text(value) === "") return undefined;
  const said = text(value);
  switch (attribute) {
    case "onset":
    case "starting":
    case "start":
      return `It started ${said}.`;
    case "initiation":
      return `It came on ${said}.`;
    case "duration":
      return `It lasts ${said}.`;
    case "not_aggravating_factor":
      return `${said.charAt(0).toUpperCase()}${said.slice(1)} doesn't make it worse.`;
    case "not_alleviating_factor":
      return `${said.charAt(0).toUpperCase()}${said.slice(1)} doesn't help.`;
    case "frequency":
      return `It's ${said}.`;
    case "severity":
      return `I'd say about ${said} out of 10.`;
    case "location": {
      // Where it spreads is said only when asked (`describeRadiation`).
      const sites = [value].flat().filter((location) => !isRadiation(location));
      return sites.length > 0 ? `It's in my ${joinAlternatives(sites)}.` : undefined;
    }
    case "progression":
      return `It's been ${said}.`;
    case "relation":
      return `My ${said} had ${subject}.`;
    case "respone_to":
      return `I take it for ${said}.`;
    case "aggravating_factor":
      return `It gets worse with ${said}.`;
    case "alleviating_factor":
      return `${said.charAt(0).toUpperCase()}${said.slice(1)} helps.`;
    case "positive_characteristics":
      return `It's ${said}.`;
    case "color":
      return `It's ${said}.`;
    case "volume":
      return `About ${said}.`;
    default:
      return `${said.charAt(0).toUpperCase()}${said.slice(1)}.`;
  }
}

/** How a patient says yes or no to each kind of question. */
const POSITIVE: Record<string, (items: string) => string> = {
  symptom: (items) => `Yes, I have ${items}.`,
  medical_history: (items) => `Yes, I've been told I have ${items}.`,
  family_history: (items) => `Yes, there's ${items} in my family.`,
  habit: (items) => `Yes, ${items}.`,
  exposure: (items) => `Yes, I've been around ${items}.`,
  medication: (items) => `Yes, I take ${items}.`,
  medical_test: (items) => `Yes, I've had ${items}.`,
};
const NEGATIVE: Record<string, (items: string) => string> = {
  symptom: (items) => `No, I haven't had ${items}.`,
  medical_history: (items) => `No, I've never had ${items}.`,
  family_history: (items) => `No, nobody in my family has had ${items}.`,
  habit: (items) => `No, no ${items}.`,
  exposure: (items) => `No, I haven't been around ${items}.`,
  medication: (items) => `No, I'm not taking ${items}.`,
  medical_test: (items) => `No, I haven't had ${items}.`,
};

/** The details of a present entry a question asks for (its onset when it asks none), in the patient's words. */
function askedDetails(
  profile: DialogueState,
  entry: SlotEntry,
  asked: { checks?: Array<{ type?: string; values?: string[] }> },
  name: string,
): string[] {
  const checked = askedCheckTypes(asked.checks ?? []);
  const attributes =
    checked.length > 0
      ? checked.flatMap((type) =>
          type === "ana_factors"
            ? ["aggravating_factor", "alleviating_factor"]
            : type === "characteristics"
              ? ["positive_characteristics"]
              : [type],
        )
      : ["onset"];
  return attributes.flatMap((attribute) => {
    // "Is the rash itchy?": the itch may be its own entry of the profile (pruritus).
    const itchy =
      attribute === "itching" &&
      entry.itching === undefined &&
      findInProfile(profile, "symptom", "pruritus")?.status === "positive";
    const detail = itchy
      ? "Yes, it's itchy."
      : attribute === RADIATION_FACT
        ? describeRadiation(entry.location)
        : describeAttribute(attribute, entry[attribute], name);
    return detail ? [detail] : [];
  });
}

/** What the doctor asks of a slot: each value (or the slot's placeholder), and the details it checks. */
type AskedEntries = ReadonlyArray<{ value?: string; checks?: Array<{ type?: string; values?: string[] }> }>;

/** The answers to a question's values, sorted by kind before they are said. */
interface SortedAnswers {
  readonly yes: string[];
  readonly no: string[];
  readonly unsure: string[];
  readonly details: string[];
  /** "It's not in my abdomen, it's in my knee." */
  readonly corrections: string[];
}

/** The answer to a question a patient answers as a whole rather than value by value (age, social history, "otherwise healthy?"); undefined for any other. */
function wholeSlotAnswer(profile: DialogueState, slot: string, entries: AskedEntries): string | undefined {
  if (slot === "basic_information") {
    const age = findInProfile(profile, slot, undefined)?.entry.age;
    return age ? `I'm ${text(age)}.` : "I'd rather not say.";
  }
  // Residence, occupation and travel: the ontology's social slots, which keep their status as an attribute.
  if (slotDefinition(slot)?.group === "social") {
    const found = findInProfile(profile, slot, undefined)?.entry;
    if (!found) return slot === "travel" ? "No, I haven't travelled." : "Nothing special.";
    if (slot === "travel")
      return found.status === "not_traveled"
        ? "No, I haven't travelled."
        : `Yes, I went to ${text(found.destination) || "see family"}${found.date ? ` ${text(found.date)}` : ""}.`;
    if (slot === "occupation") return `I work as ${text(found.value) || "an office worker"}.`;
    return `I live in ${text(found.value) || "a house"}${found.household_size ? ` with ${text(found.household_size)} people` : ""}.`;
  }
  // "Are you otherwise healthy?": a yes means no symptom.
  if (slot === "symptom" && entries.length === 1 && entries[0]!.value === "general") {
    const found = findInProfile(profile, slot, "general");
    return found?.status === "positive"
      ? "Not really, I've been feeling unwell lately."
      : "Yes, I've been healthy otherwise.";
  }
  return undefined;
}

/** Each asked value sorted by what the profile says of it: yes (with the details asked), no, not sure, or "not there, here". */
function sortAnswers(profile: DialogueState, slot: string, entries: AskedEntries): SortedAnswers {
  const answers: SortedAnswers = { yes: [], no: [], unsure: [], details: [], corrections: [] };
  for (const asked of entries) {
    const located = locatedAnswer(profile, slot, asked);
    if (located === "no") {
      const elsewhere = findInProfile(profile, slot, asked.value);
      const site = elsewhere?.status === "positive" ? [elsewhere.entry.location ?? []].flat()[0] : undefined;
      // The same complaint somewhere else: the patient says where it is rather than a bare no.
      if (site !== undefined)
        answers.corrections.push(
          `It's not in my ${siteName(locationValues(asked)[0]!)}, it's in my ${siteName(site)}.`,
        );
      else
        answers.no.push(
          `${spokenValue(undefined, locationValues(asked)[0]!)} ${spokenValue(slot, asked.value ?? slot)}`,
        );
      continue;
    }
    // "Any other medical conditions?": the patient names what the profile has, not the placeholder.
    const present = OPEN_VALUES.has(asked.value ?? "other") && slot !== "symptom" ? presentValues(profile, slot) : [];
    if (present.length > 0) {
      answers.yes.push(joinAlternatives(present.map((value) => spokenValue(slot, value))).replace(/ or /g, " and "));
      continue;
    }
    const found = located ?? findInProfile(profile, slot, asked.value);
    // The doctor's "changes in your vision" is the patient's "changes in my vision".
    const name = spokenValue(slot, asked.value ?? slot).replace(/\byour\b/g, "my");
    if (!found || found.status === "negative" || found.status === "unavail") answers.no.push(name);
    else if (found.status === "unknown") answers.unsure.push(name);
    else {
      answers.yes.push(name);
      answers.details.push(...askedDetails(profile, found.entry, asked, name));
    }
  }
  return answers;
}

/**
 * "Yes." to one thing asked; "Yes, the fevers." to a choice of several ("any fevers or chills?"), as a
 * patient says which: a bare yes would leave the doctor to ask which of them.
 */
function yesNaming(entries: AskedEntries, yes: readonly string[]): string {
  return entries.length > 1 ? `Yes, the ${joinAlternatives(yes).replace(/ or /g, " and ")}.` : "Yes.";
}

/** The sorted answers said in order: yes (or the details asked for), then no, not sure, and the corrections. */
function sayAnswers(
  slot: string,
  entries: AskedEntries,
  { yes, no, unsure, details, corrections }: SortedAnswers,
): string {
  const parts: string[] = [];
  const both = (items: readonly string[]) => joinAlternatives(items).replace(/ or /g, " and ");
  // Asked for a detail the case does not record ("when did it start?"): a patient says they don't know.
  const askedDetail = entries.some((asked) => (asked.checks ?? []).length > 0);
  // A wh-question ("how long…?", "where…?") gets the detail itself, never a bare "Yes.".
  if (yes.length > 0 && askedDetail) parts.push(details.length > 0 ? details.join(" ") : "Hmm, I'm not really sure.");
  else if (yes.length > 0)
    parts.push(
      details.length > 0
        ? `${yesNaming(entries, yes)} ${details.join(" ")}`
        : `${(POSITIVE[slot] ?? POSITIVE.symptom!)(both(yes))}`,
    );
  if (no.length > 0)
    parts.push(
      yes.length > 0 ? `But no ${joinAlternatives(no)}.` : (NEGATIVE[slot] ?? NEGATIVE.symptom!)(joinAlternatives(no)),
    );
  if (unsure.length > 0) parts.push(`I'm not sure about ${joinAlternatives(unsure)}.`);
  parts.push(...corrections);
  return parts.join(" ");
}

/** The patient's answer to what the doctor asks of one slot. */
function answerSlot(profile: DialogueState, slot: string, entries: AskedEntries): string {
  return wholeSlotAnswer(profile, slot, entries) ?? sayAnswers(slot, entries, sortAnswers(profile, slot, entries));
}

/** A simulated patient: answers a doctor's questions from a case profile (the final state of a dialogue) with yes and the asked details, no, or "not sure". */
export class PatientSimulator {
  constructor(readonly patientCase: PatientCase) {}

  /** The patient's answer to the doctor's opening question: the chief complaint. */
  openingStatement(): string {
    const complaints = (this.patientCase.profile.positive_symptom ?? []).slice(0, 2);
    if (complaints.length === 0) return "I just wanted to get a check-up.";
    const first = complaints[0]!;
    const said = first.onset ? text(first.onset) : "";
    const onset =
      said === "" ? "" : /\bago$|^since\b|^(this|last)\b/.test(said) ? ` that started ${said}` : ` for ${said}`;
    const also = complaints[1] ? `, and I've also had some ${layTerm(String(complaints[1].value))}` : "";
    const site0 = [first.location ?? []].flat().find((location) => !isRadiation(location));
    const where = site0 !== undefined ? siteName(site0) : "";
    // "chest pain in my chest" says the site twice.
    const site = where !== "" && !layTerm(String(first.value)).includes(where) ? ` in my ${where}` : "";
    return `I've been having ${layTerm(String(first.value))}${site}${onset}${also}.`;
  }

  /** The patient's answer to the doctor's actions. */
  answer(actions: readonly DoctorAction[] | null): string {
    if (!actions || actions.length === 0) return "Okay.";
    const parts = actions.map((action) => {
      const slots = actionSlots(action);
      if (action.action === "diagnosis") return "Okay, thank you, doctor.";
      if (slots.length === 0) return action.action === "inquire" ? "No, I think that's everything." : "Okay.";
      return slots.map(([slot, entries]) => answerSlot(this.patientCase.profile, slot, entries)).join(" ");
    });
    return parts.join(" ").trim() || "Okay.";
  }
}
