import { toJsonText } from "../../src/data/json-lines.ts";

/** Writes JSON on stdout (NaN and ±Infinity as null). */
export function printJson(value: unknown): void {
  process.stdout.write(`${toJsonText(value, 2)}\n`);
}

/** Formats rows as an aligned plain-text table: the first column left-aligned, the others right-aligned unless `leftAligned`. */
export function formatTable(header: readonly string[], rows: ReadonlyArray<readonly (string | number)[]>, leftAligned: readonly number[] = [0]): string {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? "").length)));
  const line = (row: readonly string[]) => row.map((cell, column) => (leftAligned.includes(column) ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ").trimEnd();
  return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...cells.slice(1).map(line)].join("\n");
}

/** A score as a 4-digit fraction, the precision the paper prints. */
export function formatScore(value: number | null | undefined): string {
  return value === null || value === undefined || Number.isNaN(value) ? "-" : value.toFixed(4);
}
