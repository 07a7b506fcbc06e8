import { slotDefinition, splitPrefixedSlot } from "../cmas/ontology.ts";
import { tupleParts } from "../cmas/scoring-tuples.ts";
import type { CmasTask, PrecisionRecallF1, UnrolledTurn } from "./cmas-f1.ts";

/**
 * Exact-match P/R/F1 broken down by slot and by attribute (for the policy: by check type), for
 * reports. Computed over the turns the official skip rule keeps.
 */

export interface BreakdownRow extends PrecisionRecallF1 {
  /** Gold tuples (true positives + false negatives). */
  support: number;
  predicted: number;
}

export interface CmasBreakdown {
  bySlot: Record<string, BreakdownRow>;
  byAttribute: Record<string, BreakdownRow>;
}

/** The (slot, attribute) a tuple is about. */
function describeTuple(
  task: CmasTask,
  parts: readonly string[],
  medical: boolean,
): { slot: string; attribute: string } {
  if (parts.length === 1) return { slot: "(intent only)", attribute: "(intent)" };
  const slotName = parts[1]!;
  const slot = task === "nlu" ? splitPrefixedSlot(slotName)?.slot : slotDefinition(slotName);
  const name = slot?.name ?? slotName;
  if (!slot || slot.group === "medical") return { slot: name, attribute: parts.length >= 4 ? parts[3]! : "value" };
  if (task === "nlu") return { slot: name, attribute: parts[2]! };
  // Policy, social slots: (action, slot, value) is non-medical, (action, slot, type[, value]) medical.
  if (parts.length === 3 && !medical) return { slot: name, attribute: "value" };
  return { slot: name, attribute: parts[2]! };
}

/**
 * The rows' order. For the CMAS ontology's slot, attribute and check-type names (lower-case words,
 * underscores, brackets) it is the order `localeCompare` gave (a test checks every name), without
 * loading ICU's collator, which cost 9 ms of every `npm run bench`.
 */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function finish(counts: Map<string, { tp: number; fp: number; fn: number }>): Record<string, BreakdownRow> {
  const rows: Record<string, BreakdownRow> = {};
  for (const [key, { tp, fp, fn }] of [...counts].sort(([a], [b]) => byCodeUnits(a, b))) {
    const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
    const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
    const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
    rows[key] = { precision, recall, f1, support: tp + fn, predicted: tp + fp };
  }
  return rows;
}

export function cmasBreakdown(task: CmasTask, turns: readonly UnrolledTurn[]): CmasBreakdown {
  const bySlot = new Map<string, { tp: number; fp: number; fn: number }>();
  const byAttribute = new Map<string, { tp: number; fp: number; fn: number }>();
  const bump = (key: string, into: typeof bySlot, field: "tp" | "fp" | "fn") => {
    const counts = into.get(key) ?? { tp: 0, fp: 0, fn: 0 };
    counts[field] += 1;
    into.set(key, counts);
  };
  for (const turn of turns) {
    if (turn.skipped) continue;
    for (const medical of [true, false]) {
      const gold = medical ? turn.gold.medical : turn.gold.nonMedical;
      const predicted = (medical ? turn.prediction?.medical : turn.prediction?.nonMedical) ?? new Set<string>();
      const visit = (key: string, field: "tp" | "fp" | "fn") => {
        const { slot, attribute } = describeTuple(task, tupleParts(key), medical);
        bump(slot, bySlot, field);
        bump(attribute, byAttribute, field);
      };
      for (const key of gold) visit(key, predicted.has(key) ? "tp" : "fn");
      for (const key of predicted) if (!gold.has(key)) visit(key, "fp");
    }
  }
  return { bySlot: finish(bySlot), byAttribute: finish(byAttribute) };
}
