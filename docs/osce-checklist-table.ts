/**
 * Writes the tables of the OSCE checklist's body systems and items into `docs/benchmarks.md` (between
 * `<!-- table:osce-checklist -->` and `<!-- /table:osce-checklist -->`) from `ontology/osce-checklist.json`:
 *
 *   npx tsx docs/osce-checklist-table.ts
 *
 * `tests/clinical/osce-checklist.test.ts` fails when the table is not current.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadOsceChecklist, type CompiledItem } from "../src/clinical/osce-checklist-rules.ts";

export const BENCHMARKS_DOC = fileURLToPath(new URL("./benchmarks.md", import.meta.url));
const MARKERS = ["<!-- table:osce-checklist -->", "<!-- /table:osce-checklist -->"] as const;

/** When an item applies, in words. */
function appliesText(item: CompiledItem, systemLabels: ReadonlyMap<string, string>): string {
  if (item.reviewOf !== null) return `${systemLabels.get(item.reviewOf)!.toLowerCase()} complaints`;
  const { pain, sex, min_age: minAge, max_age: maxAge, when_unknown: whenUnknown } = item.applies;
  const parts: string[] = [];
  if (pain) parts.push("pains");
  if (sex) parts.push(sex === "female" ? "women" : "men");
  if (minAge !== undefined && maxAge !== undefined) parts.push(`aged ${minAge} to ${maxAge}`);
  else if (minAge !== undefined) parts.push(`aged ${minAge} or more`);
  else if (maxAge !== undefined) parts.push(`aged ${maxAge} or less`);
  if (parts.length === 0) return "always";
  const demographic = sex !== undefined || minAge !== undefined || maxAge !== undefined;
  const unknown = !demographic ? "" : whenUnknown === "applies" ? " (and when not known)" : " (not when not known)";
  return `${parts.join(", ")}${unknown}`;
}

/** The tables, markers included. */
export function checklistTable(): string {
  const checklist = loadOsceChecklist();
  const systemLabels = new Map([...checklist.systems.values()].map((system) => [system.id, system.label]));
  const rows = checklist.items.map((item) => {
    const part = item.reviewOf === null ? item.section : `${item.section}: ${systemLabels.get(item.reviewOf)}`;
    return `| \`${item.id}\` | ${item.label} | ${part} | ${appliesText(item, systemLabels)} | ${item.meaning} |`;
  });
  const header = [
    "| id | item | part of the history | applies to | what the doctor must ask |",
    "|---|---|---|---|---|",
  ];
  const systems = [...checklist.systems.values()].map((system) => {
    const related = [...system.related].map((id) => systemLabels.get(id)!.toLowerCase());
    return `| \`${system.id}\` | ${system.label} | ${related.length > 0 ? related.join(", ") : "none"} |`;
  });
  const systemHeader = ["| system | label | also on topic for its complaints |", "|---|---|---|"];
  return [MARKERS[0], ...systemHeader, ...systems, "", ...header, ...rows, MARKERS[1]].join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const doc = readFileSync(BENCHMARKS_DOC, "utf8");
  const start = doc.indexOf(MARKERS[0]);
  const end = doc.indexOf(MARKERS[1]);
  if (start < 0 || end < start) throw new Error(`docs/benchmarks.md has no ${MARKERS[0]} … ${MARKERS[1]} block`);
  writeFileSync(BENCHMARKS_DOC, doc.slice(0, start) + checklistTable() + doc.slice(end + MARKERS[1].length));
}
