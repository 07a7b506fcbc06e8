import type { ExpectedClosing } from "./case-library.ts";

/**
 * How a history's closing fits what its case expects. The expected answer is the case's own (written by
 * hand for our library, the MediTOD doctor's for MediTOD cases), never what our diagnosis rules compute,
 * and "no diagnosis" is right only where the case says none is supportable.
 */

/** How the closing fits the case. */
export type ClosingFit =
  /** The diagnosis the case expects, by one of its names. */
  | "right diagnosis"
  /** No diagnosis, where the case says none is supportable from a history alone. */
  | "honest none"
  /** No diagnosis, where the case expects one. */
  | "missed diagnosis"
  /** A diagnosis other than the one the case expects. */
  | "wrong diagnosis"
  /** A diagnosis, where the case says none is supportable. */
  | "unsupported diagnosis"
  /** The history never closed (the turns ran out, or a stage failed). */
  | "no closing";

/** Every fit, in the order reports list them. */
export const CLOSING_FITS: readonly ClosingFit[] = [
  "right diagnosis",
  "honest none",
  "missed diagnosis",
  "wrong diagnosis",
  "unsupported diagnosis",
  "no closing",
];

/** A run of anything but letters and digits. Example: the "-" of "gastro-oesophageal", the ", " of "stroke, acute". */
const NOT_LETTERS_OR_DIGITS = /[^\p{L}\p{N}]+/gu;

/**
 * A diagnosis name compared loosely: case and punctuation ignored.
 * @example normalisedName("Gastro-oesophageal reflux disease") === "gastro oesophageal reflux disease"
 */
export function normalisedName(name: string): string {
  return name.toLowerCase().replace(NOT_LETTERS_OR_DIGITS, " ").trim();
}

/** Whether a named diagnosis is the expected one under any of its names. */
export function namesExpected(named: string, expected: ExpectedClosing): boolean {
  if (expected.diagnosis === null) return false;
  const wanted = new Set([expected.diagnosis, ...expected.alsoAccepted].map(normalisedName));
  return wanted.has(normalisedName(named));
}

/** How a closing that named `named` (null: no diagnosis) fits the case's expected closing. */
export function closingFit(expected: ExpectedClosing, named: string | null, closed: boolean): ClosingFit {
  if (!closed) return "no closing";
  if (named === null) return expected.diagnosis === null ? "honest none" : "missed diagnosis";
  if (expected.diagnosis === null) return "unsupported diagnosis";
  return namesExpected(named, expected) ? "right diagnosis" : "wrong diagnosis";
}
