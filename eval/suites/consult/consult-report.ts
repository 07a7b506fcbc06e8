import type { BootstrapInterval } from "../../../src/metrics/bootstrap.ts";
import { ARMS, type Arm } from "../../../src/simulator/consultation/controls.ts";
import type { ReportSection, ReportTable, ScatterChart } from "../../shared/report-blocks.ts";
import { formatTable } from "../../shared/terminal-table.ts";
import type { ArmScores, CaseMeasures, ConsultScores } from "./consult-scoring.ts";

/**
 * How the consultation suites show their scores: every table lists the doctor between its floor (the
 * complaint-blind list) and its ceiling (every fact given up front), each figure with its bootstrap
 * 95 % interval; report.html adds the per-case rows and a chart of accuracy against questions asked.
 */

/** How each arm is named in tables. */
export const ARM_NAMES: Readonly<Record<Arm, string>> = {
  floor: "floor: complaint-blind list",
  doctor: "doctor",
  ceiling: "ceiling: every fact given",
};

/** The order tables list the arms in: the doctor between its floor and its ceiling (the order of `ARMS`). */
const TABLE_ORDER: readonly Arm[] = ARMS;

/** A fraction with its interval, e.g. `0.271 [0.200, 0.343]`; a count with one decimal. */
export function interval(value: BootstrapInterval | undefined, digits = 3): string {
  if (!value || Number.isNaN(value.mean)) return "–";
  return `${value.mean.toFixed(digits)} [${value.low.toFixed(digits)}, ${value.high.toFixed(digits)}]`;
}

/** The ceiling asks nothing: its question measures are shown as a dash. */
const asked = (arm: Arm, text: string) => (arm === "ceiling" ? "–" : text);

/** An arm's row of the headline table. */
function armRow(arm: Arm, scores: ArmScores, judged: boolean, label: string): string[] {
  return [
    arm === "doctor" ? label : ARM_NAMES[arm],
    interval(scores.accuracy),
    ...(judged
      ? [`${interval(scores.judgedAccuracy)}${scores.judgeFailures > 0 ? ` (${scores.judgeFailures} unjudged)` : ""}`]
      : []),
    asked(arm, interval(scores.questions, 1)),
    asked(arm, interval(scores.timeoutRate)),
    interval(scores.factRecall),
    asked(arm, interval(scores.checklistCoverage)),
    asked(arm, interval(scores.repeatedQuestions, 2)),
    asked(arm, interval(scores.offTopicQuestions, 2)),
    String(scores.formatErrors + scores.patientFailures),
  ];
}

/** The headline table's columns. */
function headline(judge: string | null): string[] {
  return [
    "arm",
    "accuracy",
    ...(judge ? [`accuracy (LLM judge ${judge})`] : []),
    "questions",
    "timeout rate",
    "fact recall",
    "checklist coverage",
    "repeated questions",
    "off-topic before complaint done",
    "format errors / failures",
  ];
}

/** The headline table: the arms, floor → doctor → ceiling. */
export function armsTable(title: string, scores: ConsultScores, doctorLabel: string): ReportTable {
  const judge = scores.judge !== "exact" ? scores.judge : null;
  return {
    title: `${title} (${scores.cases} cases; 95 % bootstrap intervals, ${scores.bootstrap.resamples} resamples, seed ${scores.bootstrap.seed})`,
    header: headline(judge),
    rows: TABLE_ORDER.map((arm) => armRow(arm, scores.arms[arm], judge !== null, doctorLabel)),
    ours: 1,
  };
}

/** One arm of a case as a cell: its answer, right or wrong, and its question count. */
function caseCell(arm: Arm, measures: CaseMeasures): string {
  const answer = measures.answer ?? "none";
  const mark = measures.correct ? "✓" : "✗";
  const questions = arm === "ceiling" ? "" : `, ${measures.questions} q${measures.timeout ? ", timeout" : ""}`;
  const ending =
    measures.ending === "format error" || measures.ending === "patient failed" ? `, ${measures.ending}` : "";
  return `${answer} ${mark}${questions}${ending}`;
}

/** The per-case table: each case's correct answer and each arm's answer, with the doctor's recall and coverage. */
export function perCaseTable(title: string, scores: ConsultScores): ReportTable {
  return {
    title: `${title}: per case`,
    header: [
      "case",
      "correct answer",
      ...TABLE_ORDER.map((arm) => ARM_NAMES[arm]),
      "doctor fact recall",
      "doctor checklist coverage",
    ],
    rows: scores.perCase.map((entry) => [
      entry.id,
      entry.key ?? "none supportable",
      ...TABLE_ORDER.map((arm) => caseCell(arm, entry.arms[arm])),
      entry.arms.doctor.factRecall === null ? "–" : entry.arms.doctor.factRecall.toFixed(2),
      entry.arms.doctor.checklist.coverage.toFixed(2),
    ]),
  };
}

/** Accuracy against questions asked, one point per arm. */
export function accuracyChart(title: string, scores: ConsultScores, doctorLabel: string): ScatterChart {
  const points = TABLE_ORDER.map((arm) => ({
    label: arm === "doctor" ? doctorLabel : arm,
    x: scores.arms[arm].questions.mean || 0,
    y: scores.arms[arm].accuracy.mean || 0,
    yLow: scores.arms[arm].accuracy.low || 0,
    yHigh: scores.arms[arm].accuracy.high || 0,
    ours: arm === "doctor",
  }));
  const most = Math.max(1, ...points.map((point) => point.x));
  return {
    title: `${title}: accuracy against questions asked`,
    xLabel: "questions asked (mean)",
    yLabel: "accuracy",
    points,
    xMax: Math.ceil(most / 5) * 5,
    yMax: 1,
  };
}

/** A consultation suite's section of the report. */
export function consultReportSection(title: string, scores: ConsultScores, doctorLabel: string): ReportSection {
  return {
    tables: [armsTable(title, scores, doctorLabel), perCaseTable(title, scores)],
    charts: [accuracyChart(title, scores, doctorLabel)],
  };
}

/** The suite's cells of the bench results table: cases, then accuracy of the doctor between floor and ceiling. */
export function consultResultCells(scores: ConsultScores): string[] {
  const mean = (arm: Arm) =>
    Number.isNaN(scores.arms[arm].accuracy.mean) ? "–" : scores.arms[arm].accuracy.mean.toFixed(3);
  return [
    String(scores.cases),
    `accuracy floor ${mean("floor")} | doctor ${interval(scores.arms.doctor.accuracy)} | ceiling ${mean("ceiling")}`,
  ];
}

/** The arms table in the terminal, as `bench`, `merge` and `score` print it. */
export function terminalArmsTable(title: string, scores: ConsultScores): string {
  const table = armsTable(title, scores, "doctor");
  return `${table.title}\n${formatTable(table.header, table.rows)}\n`;
}
