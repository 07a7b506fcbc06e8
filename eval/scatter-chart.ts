import type { ScatterChart } from "./shared/report-blocks.ts";

/**
 * A scatter chart as inline SVG for report.html (no script, nothing fetched): one point per series,
 * its interval drawn as a vertical bar, both axes from 0, four ticks each. The consultation suites
 * draw accuracy against questions asked for the doctor and its two controls with it.
 */

const escape = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The plot's size and margins, in pixels. */
const PLOT = { width: 420, height: 240, left: 56, top: 28, bottom: 44, right: 190 } as const;

/** A tick's label: whole numbers as they are, fractions to two digits. */
const tickLabel = (value: number, max: number) => (max > 4 ? value.toFixed(0) : value.toFixed(2));

/** The axes with their ticks and labels. */
function axes(chart: ScatterChart, x: (value: number) => string, y: (value: number) => string): string {
  const bottom = PLOT.top + PLOT.height;
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const xTicks = ticks
    .map((fraction) => {
      const value = fraction * chart.xMax;
      return `<line x1="${x(value)}" y1="${bottom}" x2="${x(value)}" y2="${bottom + 4}" stroke="#888"/><text x="${x(value)}" y="${bottom + 16}" text-anchor="middle">${tickLabel(value, chart.xMax)}</text>`;
    })
    .join("");
  const yTicks = ticks
    .map((fraction) => {
      const value = fraction * chart.yMax;
      return `<line x1="${PLOT.left - 4}" y1="${y(value)}" x2="${PLOT.left + PLOT.width}" y2="${y(value)}" stroke="#e3e6ea"/><text x="${PLOT.left - 8}" y="${Number(y(value)) + 4}" text-anchor="end">${tickLabel(value, chart.yMax)}</text>`;
    })
    .join("");
  const frame = `<line x1="${PLOT.left}" y1="${PLOT.top}" x2="${PLOT.left}" y2="${bottom}" stroke="#888"/><line x1="${PLOT.left}" y1="${bottom}" x2="${PLOT.left + PLOT.width}" y2="${bottom}" stroke="#888"/>`;
  const labels = `<text x="${PLOT.left + PLOT.width / 2}" y="${bottom + 34}" text-anchor="middle">${escape(chart.xLabel)}</text><text x="14" y="${PLOT.top + PLOT.height / 2}" text-anchor="middle" transform="rotate(-90 14 ${PLOT.top + PLOT.height / 2})">${escape(chart.yLabel)}</text>`;
  return `${yTicks}${xTicks}${frame}${labels}`;
}

/** A scatter chart as SVG. */
export function svgScatter(chart: ScatterChart): string {
  const xMax = chart.xMax > 0 ? chart.xMax : 1;
  const yMax = chart.yMax > 0 ? chart.yMax : 1;
  const x = (value: number) => (PLOT.left + (Math.min(Math.max(value, 0), xMax) / xMax) * PLOT.width).toFixed(1);
  const y = (value: number) =>
    (PLOT.top + PLOT.height - (Math.min(Math.max(value, 0), yMax) / yMax) * PLOT.height).toFixed(1);
  const points = chart.points
    .map((point) => {
      const kind = point.ours ? "bar ours" : "bar";
      const label = `${escape(point.label)} (${point.y.toFixed(2)})`;
      return `<line x1="${x(point.x)}" y1="${y(point.yLow)}" x2="${x(point.x)}" y2="${y(point.yHigh)}" stroke="#555"/><circle cx="${x(point.x)}" cy="${y(point.y)}" r="5" class="${kind}"/><text x="${Number(x(point.x)) + 8}" y="${Number(y(point.y)) + 4}" class="${point.ours ? "ours" : ""}">${label}</text>`;
    })
    .join("");
  const width = PLOT.left + PLOT.width + PLOT.right;
  const height = PLOT.top + PLOT.height + PLOT.bottom;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="${escape(chart.title)}"><text x="0" y="14" class="title">${escape(chart.title)}</text>${axes(chart, x, y)}${points}</svg>`;
}
