/**
 * Loads tests/fixtures/metrics-golden.json (values produced by the Python reference implementations)
 * and compares computed values against it with the fixture's rules: tokens, integers and exact values
 * exactly, other floats to a relative 1e-12 (V8's Math.exp/log may differ from glibc by an ulp), null
 * (= NaN) and error strings exactly, and the object shape key for key.
 */
import { readFileSync } from "node:fs";

export interface GoldenPair {
  id: string;
  category: string;
  prediction: string;
  reference: string;
  note: string;
  source?: string;
  tokens: Record<string, string[] | string>;
  [field: string]: unknown;
}

export interface Golden {
  pairs: GoldenPair[];
  corpus: { all: Record<string, unknown> };
}

export const golden = JSON.parse(
  readFileSync(new URL("../fixtures/metrics-golden.json", import.meta.url), "utf8"),
) as Golden;

/** Keys of a golden pair that are inputs or debug views rather than metric values. */
export const PAIR_INPUT_KEYS = ["id", "category", "prediction", "reference", "note", "source", "tokens"] as const;

/** The metric fields of a golden pair. */
export function pairMetricFields(pair: GoldenPair): Record<string, unknown> {
  const fields: Record<string, unknown> = { ...pair };
  for (const key of PAIR_INPUT_KEYS) delete fields[key];
  return fields;
}

const RELATIVE_TOLERANCE = 1e-12;

/** Values that are exact by construction in the reference: lm-eval's 0 + 1e-5 nudge. */
function isExactValue(path: string, expected: number): boolean {
  return Number.isInteger(expected) || (expected === 1e-5 && /\.bleu$/.test(path));
}

export interface Comparison {
  /** Human-readable mismatches; empty when everything agrees. */
  mismatches: string[];
  /** Number of leaf values compared. */
  compared: number;
  /** Leaf numbers that agree only within the tolerance (not bit for bit). */
  withinTolerance: string[];
}

/** Compares `actual` to `expected` recursively (keys must match exactly at every level). */
export function compareToGolden(
  actual: unknown,
  expected: unknown,
  path = "$",
  result: Comparison = { mismatches: [], compared: 0, withinTolerance: [] },
): Comparison {
  if (expected === null || typeof expected !== "object") {
    result.compared++;
    if (typeof expected === "number") {
      if (typeof actual !== "number") {
        result.mismatches.push(`${path}: expected ${expected}, got ${String(actual)}`);
      } else if (actual !== expected) {
        const relative = Math.abs(actual - expected) / Math.abs(expected);
        if (isExactValue(path, expected) || !(relative <= RELATIVE_TOLERANCE)) {
          result.mismatches.push(`${path}: expected ${expected}, got ${actual}`);
        } else {
          result.withinTolerance.push(`${path}: ${actual} vs ${expected} (relative ${relative.toExponential(2)})`);
        }
      }
    } else if (actual !== expected) {
      result.mismatches.push(`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
    }
    return result;
  }
  if (actual === null || typeof actual !== "object" || Array.isArray(actual) !== Array.isArray(expected)) {
    result.mismatches.push(`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
    return result;
  }
  const expectedKeys = Object.keys(expected);
  const actualKeys = Object.keys(actual);
  if (expectedKeys.length !== actualKeys.length || expectedKeys.some((k) => !actualKeys.includes(k))) {
    result.mismatches.push(`${path}: keys ${JSON.stringify(actualKeys)}, expected ${JSON.stringify(expectedKeys)}`);
  }
  for (const key of expectedKeys) {
    compareToGolden(
      (actual as Record<string, unknown>)[key],
      (expected as Record<string, unknown>)[key],
      `${path}.${key}`,
      result,
    );
  }
  return result;
}

/** Number of leaf values in a JSON value. */
export function countLeaves(value: unknown): number {
  if (value === null || typeof value !== "object") return 1;
  return Object.values(value).reduce((sum: number, item) => sum + countLeaves(item), 0);
}

/** NaN → null, the golden file's notation. */
export function nanToNull(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}
