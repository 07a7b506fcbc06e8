/**
 * Plain-text tables for the terminal: what `anamnesis bench`, `merge` and `score` print (the suites' result
 * cells are made here too, so the runner shapes its own output and the command only writes it).
 */

/** Formats rows as an aligned plain-text table: the first column left-aligned, the others right-aligned unless `leftAligned`. */
export function formatTable(
  header: readonly string[],
  rows: ReadonlyArray<readonly (string | number)[]>,
  leftAligned: readonly number[] = [0],
): string {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? "").length)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) =>
        leftAligned.includes(column) ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
      )
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...cells.slice(1).map(line)].join("\n");
}

/** A score as a 4-digit fraction, the precision the paper prints. */
export function formatScore(value: number | null | undefined): string {
  return value === null || value === undefined || Number.isNaN(value) ? "-" : value.toFixed(4);
}
