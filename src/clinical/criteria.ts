import { attributeDefinition, slotDefinition } from "../cmas/ontology.ts";
import type { DialogueState } from "../cmas/schemas.ts";
import type { Criterion, Finding } from "../ontology/criteria-schema.ts";

export type { Criterion, Finding };

/**
 * Criteria over the tracked CMAS state, as data (schema: `src/ontology/criteria-schema.ts`): the
 * language of red flags and of working diagnoses. A criterion is a finding (an entry of a slot under a status — positive by default — whose value is
 * one of `values`, with optional attribute patterns), or all / any / not of criteria. Evaluation
 * returns the findings that made it hold, so what fired can always say why.
 */

/** Every finding of a criterion. */
export function findingsOf(criterion: Criterion): Finding[] {
  if ("finding" in criterion) return [criterion.finding];
  if ("not" in criterion) return findingsOf(criterion.not);
  return ("all" in criterion ? criterion.all : criterion.any).flatMap(findingsOf);
}

/** Why a criterion cannot be evaluated against the CMAS ontology (unknown slot, status, attribute, bad pattern), or null. */
export function criterionProblem(criterion: Criterion): string | null {
  for (const finding of findingsOf(criterion)) {
    const slot = slotDefinition(finding.slot);
    if (!slot || slot.actions_only) return `unknown slot '${finding.slot}'`;
    if (!slot.statuses?.includes(finding.status)) return `'${finding.status}' is not a status of ${finding.slot}`;
    for (const [attribute, pattern] of Object.entries(finding.attributes ?? {})) {
      if (!attributeDefinition(slot, attribute)) return `${finding.slot} has no attribute '${attribute}'`;
      try {
        new RegExp(pattern, "i");
      } catch {
        return `'${pattern}' is not a regular expression`;
      }
    }
  }
  return null;
}

function matchesAttributes(
  entry: Record<string, string | string[]>,
  patterns: Readonly<Record<string, string>>,
): boolean {
  return Object.entries(patterns).every(([attribute, pattern]) => {
    const value = entry[attribute];
    if (value === undefined) return false;
    const regex = new RegExp(pattern, "i");
    return (Array.isArray(value) ? value : [value]).some((item) => regex.test(item));
  });
}

/**
 * The findings that make a criterion hold in a state (`status slot: value` each), or null when it
 * does not hold. A `not` that holds contributes no findings.
 */
export function evidenceFor(criterion: Criterion, state: DialogueState): string[] | null {
  if ("finding" in criterion) {
    const { slot, values, status, attributes } = criterion.finding;
    const wanted = new Set(values.map((value) => value.toLowerCase()));
    const hits = (state[`${status}_${slot}`] ?? []).filter(
      (entry) =>
        typeof entry.value === "string" &&
        wanted.has(entry.value.toLowerCase()) &&
        matchesAttributes(entry, attributes ?? {}),
    );
    return hits.length > 0 ? hits.map((entry) => `${status} ${slot}: ${String(entry.value)}`) : null;
  }
  if ("not" in criterion) return evidenceFor(criterion.not, state) === null ? [] : null;
  if ("all" in criterion) {
    const parts: string[][] = [];
    for (const part of criterion.all) {
      const evidence = evidenceFor(part, state);
      // One part that fails decides: the parts after it are not evaluated (every criterion's patterns
      // are checked when its file is loaded, so skipping one cannot skip an error).
      if (evidence === null) return null;
      parts.push(evidence);
    }
    return [...new Set(parts.flat())];
  }
  const parts = criterion.any.map((part) => evidenceFor(part, state)).filter((part): part is string[] => part !== null);
  return parts.length > 0 ? [...new Set(parts.flat())] : null;
}

/** A criterion in words, for prompts: `positive symptom: chest pain or dyspnea (location matching leg)`, `all of (…; …)`. */
export function criterionText(criterion: Criterion): string {
  if ("finding" in criterion) {
    const { slot, values, status, attributes } = criterion.finding;
    const patterns = Object.entries(attributes ?? {}).map(
      ([attribute, pattern]) => `${attribute} matching /${pattern}/`,
    );
    return `${status} ${slot}: ${values.join(" or ")}${patterns.length > 0 ? ` (${patterns.join(", ")})` : ""}`;
  }
  if ("not" in criterion) return `not (${criterionText(criterion.not)})`;
  const [word, parts] = "all" in criterion ? ["all of", criterion.all] : ["any of", criterion.any];
  return `${word} (${parts.map(criterionText).join("; ")})`;
}
