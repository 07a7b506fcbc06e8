/**
 * CSV cells as pandas' `read_csv` reads them with its defaults, for the official scripts that read
 * their inputs with it: a cell whose whole text is one of pandas' missing-value strings becomes NaN.
 * The ACI-Bench scorer then turns a NaN note into the text `nan` (`str(s)`) and a NaN metadata value
 * into `#####EMPTY#####` (`fillna`), so such cells are scored as those texts.
 */

/** pandas' default `na_values` (pandas 2: `STR_NA_VALUES`), matched against the whole cell. */
const PANDAS_MISSING_VALUES: ReadonlySet<string> = new Set([
  "",
  "#N/A",
  "#N/A N/A",
  "#NA",
  "-1.#IND",
  "-1.#QNAN",
  "-NaN",
  "-nan",
  "1.#IND",
  "1.#QNAN",
  "<NA>",
  "N/A",
  "NA",
  "NULL",
  "NaN",
  "None",
  "n/a",
  "nan",
  "null",
]);

/** Whether pandas' `read_csv` reads this cell as missing (NaN). */
export function isPandasMissing(cell: string): boolean {
  return PANDAS_MISSING_VALUES.has(cell);
}

/** A text cell as `str()` of what pandas read: the cell, or `nan` for a missing one. */
export function pandasText(cell: string): string {
  return isPandasMissing(cell) ? "nan" : cell;
}
