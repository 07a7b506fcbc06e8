import { join } from "node:path";
import type { BenchDataset } from "./shared/bench-dataset.ts";
import type { BenchResults, SuiteRunStats } from "./shared/bench-results.ts";
import { readLinesOf } from "./shared/predictions-file.ts";
import { tunedMark } from "./shared/protocol-label.ts";
import type { BarChart, ReportChart, ReportTable } from "./shared/report-blocks.ts";
import { svgScatter } from "./scatter-chart.ts";
import { predictionsPath, writeFileAtomic } from "./shared/run-directory.ts";
import type { Suite } from "./shared/suite.ts";
import type { SuiteRegistry } from "./suite-registry.ts";

/**
 * report.md and a self-contained report.html (inline CSS and SVG, no scripts, nothing fetched) for a
 * run directory: the family's opening paragraphs (what ran, the protocol, the data's caveats), each
 * suite's section (headline table with the paper's baselines beside ours where a paper has any,
 * breakdowns, a chart), the lines whose output could not be read, and what the run cost.
 */

/** Format errors with their reasons, line by line (at most `limit` rows), from the suites that can have them. */
function formatErrorTable(
  suites: readonly Suite[],
  dir: string,
  dataset: BenchDataset,
  limit = 50,
): ReportTable | undefined {
  const errors = suites.flatMap((suite) => {
    if (!suite.formatErrors) return [];
    const located = suite.formatErrors(readLinesOf(predictionsPath(dir, suite.id), suite.format), dataset);
    return located.map(({ line, reason }) => ({
      suite,
      cells: [suite.id, ...suite.format.columns.map(({ field }) => String(line[field])), reason],
    }));
  });
  if (errors.length === 0) return undefined;
  const shown = errors.slice(0, limit);
  const reasonColumn = errors[0]!.cells.length - 1;
  return {
    title: `Format errors (${errors.length}${errors.length > limit ? `; the first ${limit} shown, all are in the predictions files` : ""})`,
    header: ["suite", ...errors[0]!.suite.format.columns.map(({ label }) => label), "reason"],
    rows: shown.map(({ cells }) =>
      cells.map((cell, column) => (column === reasonColumn && cell.length > 160 ? `${cell.slice(0, 157)}…` : cell)),
    ),
  };
}

/** The report's blocks: the family's intro, each suite's section in table order, format errors and cost. */
function build(
  results: BenchResults,
  dataset: BenchDataset,
  dir: string,
  registry: SuiteRegistry,
): { intro: string[]; tables: ReportTable[]; charts: ReportChart[] } {
  const suites = registry.inTableOrder(Object.keys(results.suites));
  const family = suites[0]!.family;
  const mark = tunedMark(results.tuned_on_split);
  const labels = {
    ourLabel: `**this run** (${results.backend}${mark ? `, ${mark}` : ""})`,
    chartLabel: `this run (${results.backend}${mark ? `, ${mark}` : ""})`,
  };
  const sections = suites.map((suite) =>
    suite.reportSection({ scores: results.suites[suite.id], dataset, dir, ...labels }),
  );
  const errors = formatErrorTable(suites, dir, dataset);
  return {
    intro: family.reportIntro(results, dataset),
    tables: [...sections.flatMap((section) => section.tables), ...(errors ? [errors] : []), costTable(results)],
    charts: sections.flatMap((section) => section.charts),
  };
}

/** What the run cost, suite by suite, in the order the run holds them. */
function costTable(results: BenchResults): ReportTable {
  const runRows = Object.entries(results.runs).flatMap(([suite, stats]) => (stats ? [runRow(suite, stats)] : []));
  return {
    title: "What the run cost",
    header: [
      "suite",
      "predicted",
      "resumed",
      "cached",
      "format errors",
      "latency mean ms",
      "latency p95 ms",
      "tokens in / out",
      "exemplars (mean)",
      "prompt tokens (max)",
    ],
    rows: runRows,
  };
}

/** A suite's row of the cost table. */
function runRow(suite: string, stats: SuiteRunStats): string[] {
  return [
    suite,
    String(stats.predicted),
    String(stats.resumed),
    String(stats.cached),
    String(stats.format_errors),
    stats.latency_ms.mean.toFixed(1),
    stats.latency_ms.p95.toFixed(1),
    `${stats.tokens.input} / ${stats.tokens.output}`,
    stats.exemplars ? `${stats.exemplars.mean.toFixed(2)} (min ${stats.exemplars.min})` : "–",
    stats.prompt_tokens ? String(stats.prompt_tokens.max) : "–",
  ];
}

function markdownTable(table: ReportTable): string {
  const escape = (cell: string) => cell.replace(/\|/g, "\\|");
  return [
    `### ${table.title}`,
    "",
    `| ${table.header.map(escape).join(" | ")} |`,
    `|${table.header.map((_, index) => (index === 0 ? "---" : "---:")).join("|")}|`,
    ...table.rows.map((row) => `| ${row.map(escape).join(" | ")} |`),
  ].join("\n");
}

const html = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const inlineMarkdown = (text: string) =>
  html(text)
    .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
    .replace(/`(.+?)`/g, "<code>$1</code>");

function svgBars(chart: BarChart): string {
  const rowHeight = 22;
  const labelWidth = 230;
  const barWidth = 420;
  const height = chart.bars.length * rowHeight + 30;
  const bars = chart.bars
    .map((bar, index) => {
      const y = 24 + index * rowHeight;
      const width = Math.max(1, (Math.min(bar.value, chart.max) / chart.max) * barWidth);
      return `<text x="${labelWidth - 8}" y="${y + 14}" text-anchor="end" class="${bar.ours ? "ours" : ""}">${html(bar.label)}</text><rect x="${labelWidth}" y="${y + 3}" width="${width.toFixed(1)}" height="${rowHeight - 6}" class="${bar.ours ? "bar ours" : "bar"}"/><text x="${labelWidth + width + 6}" y="${y + 14}">${chart.max > 1 ? bar.value.toFixed(1) : bar.value.toFixed(3)}</text>`;
    })
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${labelWidth + barWidth + 70}" height="${height}" role="img" aria-label="${html(chart.title)}"><text x="0" y="14" class="title">${html(chart.title)}</text>${bars}</svg>`;
}

function htmlTable(table: ReportTable): string {
  const head = `<tr>${table.header.map((cell) => `<th>${html(cell)}</th>`).join("")}</tr>`;
  const body = table.rows
    .map(
      (row, index) =>
        `<tr${index === table.ours ? ' class="ours"' : ""}>${row.map((cell) => `<td>${inlineMarkdown(cell)}</td>`).join("")}</tr>`,
    )
    .join("\n");
  return `<h2>${html(table.title)}</h2>\n<table>\n<thead>${head}</thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

const STYLE = `body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1b1f24;max-width:1100px;margin:2rem auto;padding:0 1rem}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.15rem;margin-top:2rem}
table{border-collapse:collapse;margin:.5rem 0;font-variant-numeric:tabular-nums}
th,td{padding:.25rem .6rem;border-bottom:1px solid #e3e6ea;text-align:right}th:first-child,td:first-child{text-align:left}
th{background:#f4f6f8;font-weight:600}tr.ours td{background:#e8f3ff;font-weight:600}
code{background:#f4f6f8;padding:0 .25rem;border-radius:3px}p.note{color:#4a5560}
.charts{display:flex;flex-wrap:wrap;gap:1.5rem}svg text{font-size:12px;fill:#333}svg text.title{font-weight:600;font-size:13px}
svg text.ours{font-weight:700;fill:#0b5cad}.bar{fill:#b9c3cc}.bar.ours{fill:#1f7ae0}`;

/** Writes report.md and report.html into a run directory. */
export function writeReports(dir: string, results: BenchResults, dataset: BenchDataset, registry: SuiteRegistry): void {
  const { intro, tables, charts } = build(results, dataset, dir, registry);
  const markdown = [
    "# Anamnesis benchmark report",
    "",
    ...intro.map((line) => `${line}\n`),
    ...tables.map((table) => `${markdownTable(table)}\n`),
  ].join("\n");
  writeFileAtomic(join(dir, "report.md"), `${markdown.trimEnd()}\n`, { durable: false });
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Anamnesis report: ${html(results.backend)} on ${html(results.split)}</title><style>${STYLE}</style></head>
<body>
<h1>Anamnesis benchmark report</h1>
${intro.map((line) => `<p class="note">${inlineMarkdown(line)}</p>`).join("\n")}
<div class="charts">${charts.map((chart) => ("points" in chart ? svgScatter(chart) : svgBars(chart))).join("\n")}</div>
${tables.map(htmlTable).join("\n")}
</body></html>
`;
  writeFileAtomic(join(dir, "report.html"), page, { durable: false });
}
