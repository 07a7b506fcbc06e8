import type { BenchResults } from "./bench-results.ts";
import { describePartial } from "./partial-run.ts";

/**
 * The blocks report.md and report.html are made of: tables and bar charts. Each suite gives its own
 * (a headline table with the paper's baselines, breakdowns, a chart), its family the opening
 * paragraphs; the report lays them out.
 */

/** A table: header, rows, and which row is ours (highlighted). */
export interface ReportTable {
  title: string;
  header: string[];
  rows: string[][];
  ours?: number;
}

/** A bar chart of one figure: ours and the paper's. */
export interface BarChart {
  title: string;
  bars: Array<{ label: string; value: number; ours: boolean }>;
  max: number;
}

/** A point of a scatter chart, with its interval on the vertical axis. */
export interface ScatterPoint {
  readonly label: string;
  readonly x: number;
  readonly y: number;
  readonly yLow: number;
  readonly yHigh: number;
  readonly ours: boolean;
}

/** A scatter chart: one figure against another (the consultation suites' accuracy against questions asked). */
export interface ScatterChart {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly points: readonly ScatterPoint[];
  /** The axes run from 0 to these. */
  readonly xMax: number;
  readonly yMax: number;
}

/** A chart of the report. */
export type ReportChart = BarChart | ScatterChart;

/** What one suite adds to the report: its tables, in order, and its charts. */
export interface ReportSection {
  readonly tables: readonly ReportTable[];
  readonly charts: readonly ReportChart[];
}

/** A fraction to 4 digits; a missing or NaN value as a dash. */
export const f4 = (value: number | null | undefined): string =>
  value === null || value === undefined || Number.isNaN(value) ? "–" : value.toFixed(4);

/** A score on a 0–100 scale to 1 digit; a missing or NaN value as a dash. */
export const f1d = (value: number | null | undefined): string =>
  value === null || value === undefined || Number.isNaN(value) ? "–" : value.toFixed(1);

/** The first line of every report: what ran, when, at which revision. */
export function runLine(results: BenchResults): string {
  const partial = results.partial ? `**${describePartial(results.partial)}** ` : "";
  return `${partial}Backend \`${results.backend}\`, split \`${results.split}\`${results.limit !== null ? `, first ${results.limit} examples` : ""}${results.shard ? `, shard ${results.shard}` : ""}; started ${results.started}, finished ${results.finished}; git ${results.git_revision ?? "unknown"}.`;
}
