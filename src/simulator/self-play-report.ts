import type { CaseResult, SelfPlaySummary } from "./self-play.ts";

/**
 * The self-play report: one self-contained HTML page (no scripts, nothing fetched) with the overall
 * figures and a row per case, and the same as a plain-text table for the terminal.
 */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
const percent = (value: number) => `${(100 * value).toFixed(1)} %`;
const fraction = (part: { asked: number; total: number }) => `${part.asked}/${part.total}`;

/** The overall figures, as label → value lines. */
export function summaryLines(summary: SelfPlaySummary): Array<[string, string]> {
  const { redFlags, closings } = summary;
  return [
    [
      "cases",
      `${summary.cases} (scripted patient ${summary.patients.script}, profile patient ${summary.patients.profile})`,
    ],
    ["mean OSCE checklist coverage of the doctor's questions", percent(summary.meanChecklistCoverage)],
    [
      "mean fact recall (facts the scripted patient revealed)",
      summary.meanFactRecall === null ? "n/a" : percent(summary.meanFactRecall),
    ],
    [
      "mean profile items the doctor's actions named (secondary: values / attributes)",
      `${percent(summary.meanProfileItems)} (${percent(summary.meanProfileValues)} / ${percent(summary.meanProfileAttributes)})`,
    ],
    ["mean doctor turns", summary.meanDoctorTurns.toFixed(1)],
    [
      "repeated questions, all cases (read from the words / CMAS inquiries)",
      `${summary.checklistRepeats} / ${summary.repeatedQuestions}`,
    ],
    [
      "questions off the complaint's systems before its own history was done, all cases",
      String(summary.offTopicQuestions),
    ],
    [
      "red flags caught",
      `${redFlags.caught} of ${redFlags.expected} (missed ${redFlags.missed}, false alarms ${redFlags.falseAlarms})`,
    ],
    [
      "closing fit (right diagnosis, or none where the case supports none)",
      `${percent(summary.closingFit)}: ${Object.entries(closings)
        .filter(([, count]) => count > 0)
        .map(([kind, count]) => `${kind} ${count}`)
        .join(", ")}`,
    ],
    [
      "wrong or unsupported diagnoses named",
      summary.misnamed.length === 0
        ? "none"
        : summary.misnamed
            .map((entry) => `${entry.id}: ${entry.named} (expected ${entry.expected ?? "none"})`)
            .join("; "),
    ],
  ];
}

function redFlagCell(result: CaseResult): string {
  const { expected, caught, falseAlarms } = result.redFlags;
  if (expected.length === 0 && falseAlarms.length === 0) return "-";
  return `${caught.length}/${expected.length}${falseAlarms.length > 0 ? ` +${falseAlarms.length} false` : ""}`;
}

function caseRow(result: CaseResult): string[] {
  return [
    result.id,
    result.system,
    result.patient,
    String(result.doctorTurns),
    `${percent(result.checklist.coverage)} (${result.checklist.covered}/${result.checklist.applicable})`,
    result.factRecall === null ? "-" : fraction(result.factRecall),
    percent(result.profileItems.share),
    `${result.checklist.repeatedQuestions}/${result.repeatedQuestions}`,
    String(result.checklist.offTopicBeforeComplaintDone),
    redFlagCell(result),
    result.expectedDiagnosis ?? "none",
    result.namedDiagnosis ?? "none",
    result.closing + (result.error ? ` (error: ${result.error})` : ""),
  ];
}

export const CASE_COLUMNS = [
  "case",
  "system",
  "patient",
  "turns",
  "checklist",
  "facts revealed",
  "profile items named (secondary)",
  "repeats (words/CMAS)",
  "off-topic",
  "red flags",
  "expected",
  "named",
  "closing",
];

/** Rows of the per-case table. */
export function caseRows(results: readonly CaseResult[]): string[][] {
  return results.map(caseRow);
}

/** The report page. */
export function selfPlayHtml(
  results: readonly CaseResult[],
  summary: SelfPlaySummary,
  meta: { doctor: string; patient: string; started: string },
): string {
  const row = (cells: readonly string[], tag = "td") =>
    `<tr>${cells.map((cell) => `<${tag}>${escapeHtml(cell)}</${tag}>`).join("")}</tr>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Anamnesis self-play: ${escapeHtml(meta.doctor)}</title>
<style>body{font:14px/1.5 system-ui,sans-serif;margin:2rem;color:#1b1f24}table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left}th{background:#f6f8fa}caption{text-align:left;font-weight:600}</style>
</head><body>
<h1>Self-play: ${escapeHtml(meta.doctor)} doctor, ${escapeHtml(meta.patient)} patient</h1>
<p>Run ${escapeHtml(meta.started)}. A library case's patient speaks from the case's hand-written lay script; a MediTOD case's answers from its CMAS profile. Expected diagnoses and red flags are the cases' own. Transcripts, with the facts each patient line revealed, are in <code>transcripts/</code>.</p>
<table><caption>Overall</caption>${summaryLines(summary)
    .map(([label, value]) => row([label, value]))
    .join("\n")}</table>
<table><caption>Per case</caption>${row(CASE_COLUMNS, "th")}
${caseRows(results)
  .map((cells) => row(cells))
  .join("\n")}</table>
</body></html>
`;
}
