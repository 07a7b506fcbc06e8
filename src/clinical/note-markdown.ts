import type { ClinicalNote } from "./clinical-note.ts";

/**
 * The clinical note as Markdown, in the order a clinician writes one, with the red flags first, where
 * they cannot be missed. Empty sections say "not asked" or "none reported" rather than disappearing,
 * so a reader sees what the history did not cover.
 */

type Listing = ClinicalNote["reviewOfSystems"];
type Finding = Listing["present"][number];

const NOT_RECORDED = "_not recorded_";

function findingLine(finding: Finding): string {
  const details = finding.details.map((detail) => `${detail.label}: ${detail.value}`).join("; ");
  return details ? `${finding.value} — ${details}` : finding.value;
}

/** Present findings as bullets, then the denied and uncertain ones on a line each. */
function listingLines(listing: Listing, denied = "Denies"): string[] {
  const lines = listing.present.map((finding) => `- ${findingLine(finding)}`);
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

/** Renders a note as Markdown. */
export function noteToMarkdown(note: ClinicalNote, title = "Clinical note"): string {
  const patient = [note.patient.age ? `age ${note.patient.age}` : "", note.patient.sex ?? ""]
    .filter(Boolean)
    .join(", ");
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
    section("Medications", listingLines(note.medications, "Not taking")),
    section("Allergies", listingLines(note.allergies, "No")),
    section("Family history", listingLines(note.familyHistory, "No family history of")),
    section("Social history", socialLines(note.socialHistory)),
    ...(tests.length > 0 ? [section("Investigations so far", tests)] : []),
    section("Working impression", impression),
  ].join("\n");
}
