import type { ClinicalNote } from "./clinical-note.ts";

/**
 * The clinical note as Markdown, in the order a clinician writes one, with the red flags first, where
 * they cannot be missed. Empty sections say "not asked" or "none reported" rather than disappearing,
 * so a reader sees what the history did not cover.
 */

type Listing = ClinicalNote["reviewOfSystems"];
type Finding = Listing["present"][number];
type Medication = ClinicalNote["medications"]["present"][number];

const NOT_RECORDED = "_not recorded_";

function findingLine(finding: Finding): string {
  const details = finding.details.map((detail) => `${detail.label}: ${detail.value}`).join("; ");
  return details ? `${finding.value} — ${details}` : finding.value;
}

/** A medication as prescribed: name, dose and frequency, then what else is known of it. */
function medicationLine(medication: Medication): string {
  const prescribed = [medication.value, medication.dose, medication.frequency].filter(Boolean).join(" ");
  const rest = medication.details.filter((detail) => detail.attribute !== "dose" && detail.attribute !== "frequency");
  return findingLine({ value: prescribed, details: rest });
}

/** Present findings as bullets, then the denied and uncertain ones on a line each. */
function listingLines<Present extends Finding>(
  listing: { present: Present[]; absent: string[]; uncertain: string[] },
  denied = "Denies",
  line: (present: Present) => string = findingLine,
): string[] {
  const lines = listing.present.map((finding) => `- ${line(finding)}`);
  if (listing.absent.length > 0) lines.push(`- ${denied}: ${listing.absent.join(", ")}`);
  if (listing.uncertain.length > 0) lines.push(`- Unsure: ${listing.uncertain.join(", ")}`);
  return lines.length > 0 ? lines : [NOT_RECORDED];
}

function section(title: string, lines: readonly string[]): string {
  return `## ${title}\n\n${lines.join("\n")}\n`;
}

function socialLines(social: ClinicalNote["socialHistory"]): string[] {
  const lines: string[] = [];
  const habits = listingLines(social.habits, "No");
  if (habits[0] !== NOT_RECORDED) lines.push("- Habits:", ...habits.map((line) => `  ${line}`));
  const exposures = listingLines(social.exposures, "No exposure to");
  if (exposures[0] !== NOT_RECORDED) lines.push("- Exposures:", ...exposures.map((line) => `  ${line}`));
  if (social.occupation) lines.push(`- Occupation: ${social.occupation}`);
  if (social.residence) lines.push(`- Lives: ${social.residence}`);
  if (social.travel) lines.push(`- Travel: ${social.travel}`);
  return lines.length > 0 ? lines : [NOT_RECORDED];
}

/** Who gave the history, in words ("the patient", "the patient's mother"); null when not recorded. */
function historianText(historian: ClinicalNote["historian"]): string | null {
  if (historian === null) return null;
  if (historian.informant === "patient") return "the patient";
  return historian.relation ? `the patient's ${historian.relation}` : "someone speaking for the patient";
}

const VOICE_LABELS: Readonly<Record<ClinicalNote["questionsAndConcerns"][number]["kind"], string>> = {
  question: "Asked",
  idea: "Thinks",
  concern: "Worried",
  expectation: "Hopes for",
};

/** Renders a note as Markdown. */
export function noteToMarkdown(note: ClinicalNote, title = "Clinical note"): string {
  const patient = [note.patient.age ? `age ${note.patient.age}` : "", note.patient.sex ?? ""]
    .filter(Boolean)
    .join(", ");
  const historian = historianText(note.historian);
  const voices = note.questionsAndConcerns.map((voice) => `- ${VOICE_LABELS[voice.kind]}: ${voice.text}`);
  // Evidence may quote the patient, commas and all: items are set apart by semicolons.
  const flags = note.redFlags.map(
    (flag) => `- **${flag.label}** (${flag.urgency.replace("_", " ")}): ${flag.evidence.join("; ")}`,
  );
  const impression = note.workingImpression
    ? [`${note.workingImpression.disease} — supported by ${note.workingImpression.evidence.join(", ")}`]
    : ["None: the history does not meet the criteria of any single diagnosis; findings as above."];
  const tests = [
    ...note.investigations.done.map((finding) => `- Done: ${findingLine(finding)}`),
    ...(note.investigations.notDone.length > 0 ? [`- Not done: ${note.investigations.notDone.join(", ")}`] : []),
  ];
  return [
    `# ${title}\n`,
    ...(patient ? [`Patient: ${patient}\n`] : []),
    ...(historian ? [`History from: ${historian}\n`] : []),
    section("Red flags", flags.length > 0 ? flags : ["None identified."]),
    section("Presenting complaint", [
      note.presentingComplaint.length > 0 ? note.presentingComplaint.join(", ") : NOT_RECORDED,
    ]),
    section(
      "History of presenting complaint",
      note.historyOfPresentingComplaint.length > 0
        ? note.historyOfPresentingComplaint.map((finding) => `- ${findingLine(finding)}`)
        : [NOT_RECORDED],
    ),
    section("Review of systems", listingLines(note.reviewOfSystems)),
    section("Past medical history", listingLines(note.pastMedicalHistory, "No history of")),
    section("Medications", listingLines(note.medications, "Not taking", medicationLine)),
    section("Allergies", listingLines(note.allergies, "No")),
    section("Family history", listingLines(note.familyHistory, "No family history of")),
    section("Social history", socialLines(note.socialHistory)),
    ...(voices.length > 0 ? [section("Patient's questions and concerns", voices)] : []),
    ...(tests.length > 0 ? [section("Investigations so far", tests)] : []),
    section("Working impression", impression),
  ].join("\n");
}
