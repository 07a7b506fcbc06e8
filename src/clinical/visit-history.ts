import { loadOntologyFile } from "../ontology/ontology-files.ts";
import type { ClinicalNote } from "./clinical-note.ts";
import { noteName, spokenList } from "./note-names.ts";

/**
 * The history sections of a visit note, written from the clinical note of the tracked state (so the
 * chat's note and the visit note say the same of the same history): chief complaint, history of
 * present illness, review of systems by body system, past medical history, medications with their
 * doses, allergies, family and social history. "Denies" is written only for what the clinical note
 * holds as denied; nothing is said of what was not asked.
 */

type Finding = ClinicalNote["reviewOfSystems"]["present"][number];
type Listing = ClinicalNote["reviewOfSystems"];

/** The history sections, each a list of lines (empty when the history said nothing of it). */
export interface VisitHistory {
  readonly chiefComplaint: readonly string[];
  readonly historyOfPresentIllness: readonly string[];
  readonly reviewOfSystems: readonly string[];
  readonly pastMedicalHistory: readonly string[];
  readonly medications: readonly string[];
  readonly allergies: readonly string[];
  readonly familyHistory: readonly string[];
  readonly socialHistory: readonly string[];
}

/** How the note refers to the patient: by the pronoun their sex gives, else "the patient". */
interface Subject {
  readonly name: string;
  readonly possessive: string;
}

function subjectOf(note: ClinicalNote): Subject {
  const sex = note.patient.sex?.toLowerCase() ?? "";
  if (/^(?:female|woman|f)$/.test(sex)) return { name: "She", possessive: "Her" };
  if (/^(?:male|man|m)$/.test(sex)) return { name: "He", possessive: "His" };
  return { name: "The patient", possessive: "The patient's" };
}

const capitalised = (text: string) => text.replace(/^\w/, (first) => first.toUpperCase());

/** The presenting complaint's names, with their sites when the history has them ("right knee pain"). */
function complaintNames(note: ClinicalNote): string[] {
  const sited = note.historyOfPresentingComplaint.map((finding) => finding.value);
  return (sited.length > 0 ? sited : note.presentingComplaint).map(noteName);
}

/** A finding with what is known of it: "sore throat, onset four days ago, worse with swallowing". */
function findingText(finding: Finding): string {
  const details = finding.details.map((detail) => `${detail.label} ${detail.value}`);
  return [noteName(finding.value), ...details].join(", ");
}

/**
 * The opening of the history, the one line clinicians start with: who the patient is, their past
 * history, and what they came with ("The patient is a 62-year-old male with a past medical history
 * significant for hypothyroidism and arthritis who presents with joint pain.").
 */
export function presentation(note: ClinicalNote, subject: Subject = subjectOf(note)): string {
  const age = note.patient.age ? `${note.patient.age}-year-old` : "";
  const who = [age, note.patient.sex ?? ""].filter(Boolean).join(" ");
  const past = spokenList(note.pastMedicalHistory.present.map((finding) => noteName(finding.value)));
  const history = past ? ` with a past medical history significant for ${past}` : "";
  const complaint = spokenList(complaintNames(note));
  const comes = complaint ? `presents with ${complaint}` : "presents for evaluation";
  if (who) return `The patient is a ${who}${history} who ${comes}.`;
  return history
    ? `The patient has a past medical history significant for ${past} and ${comes}.`
    : `${subject.name} ${comes}.`;
}

function historyOfPresentIllness(note: ClinicalNote, subject: Subject): string[] {
  const opening = [presentation(note, subject)];
  if (note.historian?.informant === "proxy")
    opening.push(
      `The history is given by ${note.historian.relation ? `the patient's ${note.historian.relation}` : "a companion"}.`,
    );
  // The complaint was named in the opening: a sentence of its own only for what is known of it.
  const course = note.historyOfPresentingComplaint
    .filter((finding) => finding.details.length > 0)
    .map((finding) => `${subject.name} reports ${findingText(finding)}.`);
  const also = note.reviewOfSystems.present.map((finding) => noteName(finding.value));
  const denied = note.reviewOfSystems.absent.map(noteName);
  const unsure = note.reviewOfSystems.uncertain.map(noteName);
  const associated = [
    ...(also.length > 0 ? [`${subject.name} also reports ${spokenList(also)}.`] : []),
    ...(denied.length > 0 ? [`${subject.name} denies ${spokenList(denied)}.`] : []),
    ...(unsure.length > 0 ? [`${subject.name} is unsure about ${spokenList(unsure)}.`] : []),
  ];
  const voiced = note.questionsAndConcerns.map(
    (voice) => `${subject.name} ${voice.kind === "question" ? "asked" : "said"}: "${voice.text}"`,
  );
  return [opening, course, associated, voiced].filter((lines) => lines.length > 0).map((lines) => lines.join(" "));
}

/** Each body system of the review with what was reported and denied, in the file's order of systems. */
function reviewOfSystems(note: ClinicalNote): string[] {
  const { review_of_systems: systems, default_system: fallback } = loadOntologyFile("visit-note.json");
  const systemOf = (name: string): string => {
    const sited = /^(.+?) \((.+)\)$/.exec(name);
    const value = sited ? sited[1]! : name;
    const site = sited?.[2] ?? "";
    const bySite = site ? systems.find((system) => system.sites?.some((word) => site.includes(word))) : undefined;
    return (bySite ?? systems.find((system) => system.values.includes(value)))?.system ?? fallback;
  };
  const symptoms = note.reviewOfSystems;
  const reported = [...note.historyOfPresentingComplaint, ...symptoms.present].map((finding) => finding.value);
  return [...systems.map((system) => system.system), fallback]
    .filter((system, index, all) => all.indexOf(system) === index)
    .flatMap((system) => {
      const says = reported.filter((name) => systemOf(name) === system).map(noteName);
      const denies = symptoms.absent.filter((name) => systemOf(name) === system).map(noteName);
      const parts = [
        ...(says.length > 0 ? [`Reports ${spokenList(says)}.`] : []),
        ...(denies.length > 0 ? [`Denies ${spokenList(denies)}.`] : []),
      ];
      return parts.length > 0 ? [`• ${system}: ${parts.join(" ")}`] : [];
    });
}

/** A listing as two sentences: what is reported (each with its details) and what is denied. */
function listingLines(listing: Listing, reports: string, denies: string): string[] {
  const lines: string[] = [];
  if (listing.present.length > 0) lines.push(`${reports} ${spokenList(listing.present.map(findingText))}.`);
  if (listing.absent.length > 0) lines.push(`${denies} ${spokenList(listing.absent.map(noteName))}.`);
  return lines;
}

function medicationLines(note: ClinicalNote): string[] {
  const taken = note.medications.present.map((medication) =>
    [noteName(medication.value), medication.dose, medication.frequency].filter(Boolean).join(" "),
  );
  return [
    ...(taken.length > 0 ? [`Patient reports taking ${spokenList(taken)}.`] : []),
    ...(note.medications.absent.length > 0
      ? [`Patient is not taking ${spokenList(note.medications.absent.map(noteName))}.`]
      : []),
  ];
}

function socialLines(note: ClinicalNote): string[] {
  const social = note.socialHistory;
  return [
    ...listingLines(social.habits, "Patient reports", "Patient denies"),
    ...listingLines(social.exposures, "Exposure to", "No exposure to"),
    ...(social.occupation ? [`Occupation: ${social.occupation}.`] : []),
    ...(social.residence ? [`Lives in: ${social.residence}.`] : []),
    ...(social.travel ? [`Travel: ${social.travel}.`] : []),
  ];
}

/** The history sections of a visit note from the clinical note of its tracked state. */
export function visitHistory(note: ClinicalNote): VisitHistory {
  const subject = subjectOf(note);
  return {
    chiefComplaint: complaintNames(note).length > 0 ? [`${capitalised(spokenList(complaintNames(note)))}.`] : [],
    historyOfPresentIllness: historyOfPresentIllness(note, subject),
    reviewOfSystems: reviewOfSystems(note),
    pastMedicalHistory: listingLines(
      note.pastMedicalHistory,
      "Patient reports a history of",
      "Patient denies a history of",
    ),
    medications: medicationLines(note),
    allergies:
      note.allergies.present.length > 0
        ? [`${capitalised(spokenList(note.allergies.present.map((finding) => noteName(finding.value))))}.`]
        : note.allergies.absent.length > 0
          ? [`Denies ${spokenList(note.allergies.absent.map(noteName))}.`]
          : [],
    familyHistory: listingLines(note.familyHistory, "Family history of", "No family history of"),
    socialHistory: socialLines(note),
  };
}
