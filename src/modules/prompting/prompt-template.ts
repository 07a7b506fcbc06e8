import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { AnamnesisError } from "../../foundation/errors.ts";
import { checkTypes, nluSlots, ontology, type SlotDefinition } from "../../cmas/ontology.ts";
import { BUNDLED } from "../../foundation/package-paths.ts";
import { criterionText } from "../../clinical/criteria.ts";
import { loadDiagnoses } from "../../clinical/diagnoses.ts";

/**
 * Prompt templates live in `prompts/<task>.v<N>.txt`, with a `=== system ===` and a `=== user ===`
 * section and `{{placeholders}}`. Definitions of intents, slots and attributes are rendered from the
 * ontology, so editing `ontology/cmas.json` changes the prompt — and its recorded hash.
 */

export const PROMPTS_DIR = BUNDLED.prompts;

export interface PromptTemplate {
  /** File stem, e.g. `nlu.v1`: what run records call the template version. */
  readonly version: string;
  /** The system message, placeholders filled from the ontology. */
  readonly system: string;
  /** First 12 hex digits of the sha256 of the template file and the rendered system message. */
  readonly hash: string;
  /** Renders the user message. */
  user(values: Readonly<Record<string, string>>): string;
}

function fill(text: string, values: Readonly<Record<string, string>>, version: string): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined)
      throw new AnamnesisError("INVALID_ARGUMENT", `prompt ${version}: no value for {{${name}}}`);
    return value;
  });
}

function describeSlot(slot: SlotDefinition, forActions: boolean): string {
  const lines = [`- ${slot.name}: ${slot.description}`];
  for (const attribute of slot.attributes) {
    const examples = attribute.examples?.length
      ? ` (e.g. ${attribute.examples.map((example) => JSON.stringify(example)).join(", ")})`
      : "";
    const list = attribute.list ? " [a list]" : "";
    lines.push(`  - ${attribute.name}${list}: ${attribute.description}${examples}`);
  }
  if (!forActions && slot.statuses && slot.statuses.length > 0) {
    lines.splice(1, 0, `  - status: one of ${slot.statuses.join(", ")}`);
  }
  if (forActions) {
    const extra = (slot.check_types ?? []).map((type) => type.name);
    if (extra.length > 0) lines.push(`  - also checkable: ${extra.join(", ")}`);
    lines.push(
      `  check types: ${checkTypes(slot)
        .filter((type) => type !== "value" || slot.group !== "medical")
        .join(", ")}`,
    );
  }
  return lines.join("\n");
}

/** "a, b and c". */
function inWords(items: readonly string[], last = "and"): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} ${last} ${items.at(-1)}`;
}

/**
 * The NLU status rule, from the slots' statuses: "Give every symptom, … and medication entry a status
 * of positive, negative or unknown, and every medical_test entry a status of avail or unavail."
 */
function statusRule(): string {
  const byStatuses = new Map<string, string[]>();
  for (const slot of nluSlots) {
    if (!slot.statuses || slot.statuses.length === 0) continue;
    const key = inWords(slot.statuses, "or");
    byStatuses.set(key, [...(byStatuses.get(key) ?? []), slot.name]);
  }
  const clauses = [...byStatuses].map(([statuses, slots]) => `every ${inWords(slots)} entry a status of ${statuses}`);
  return `Give ${clauses.slice(0, -1).join(", ")}${clauses.length > 1 ? ", and " : ""}${clauses.at(-1) ?? ""}.`;
}

/** The working diagnoses and their criteria (`ontology/diagnoses.json`), for the policy's scope rules (`policy.v2`). */
function describeDiagnoses(): string {
  return loadDiagnoses()
    .diagnoses.map(
      (diagnosis) =>
        `- ${diagnosis.disease}: ${criterionText(diagnosis.required)}; never with ${criterionText(diagnosis.excluding)}; tests: ${diagnosis.tests.length > 0 ? diagnosis.tests.join(", ") : "none"}`,
    )
    .join("\n");
}

/** The ontology rendered for each task's system message. */
function definitions(task: string): Record<string, string> {
  const list = (items: ReadonlyArray<{ name: string; description: string }>) =>
    items.map((item) => `- ${item.name}: ${item.description}`).join("\n");
  if (task === "nlu") {
    return {
      intents: list(ontology.nlu_intents),
      slots: nluSlots.map((slot) => describeSlot(slot, false)).join("\n"),
      medical_slots: inWords(nluSlots.filter((slot) => slot.group === "medical").map((slot) => slot.name)),
      status_rule: statusRule(),
    };
  }
  if (task === "policy") {
    return {
      actions: list(ontology.actions),
      slots: ontology.slots.map((slot) => describeSlot(slot, true)).join("\n"),
      value_slots: inWords(ontology.slots.filter((slot) => slot.group === "medical").map((slot) => slot.name)),
      diagnoses: describeDiagnoses(),
    };
  }
  return {};
}

const loaded = new Map<string, PromptTemplate>();

/** Loads `prompts/<version>.txt`, e.g. `loadPromptTemplate("nlu.v1")`. */
export function loadPromptTemplate(version: string, dir: string = PROMPTS_DIR): PromptTemplate {
  const key = `${dir}\u0000${version}`;
  const cached = loaded.get(key);
  if (cached) return cached;
  const path = `${dir}${dir.endsWith("/") ? "" : "/"}${version}.txt`;
  let source: string;
  try {
    source = readFileSync(path, "utf8");
  } catch {
    throw new AnamnesisError("FILE_NOT_FOUND", `prompt template not found: ${path}`);
  }
  const match = /^=== system ===\n([\s\S]*?)\n=== user ===\n([\s\S]*)$/.exec(source);
  if (!match)
    throw new AnamnesisError("INVALID_DATA", `${path}: expected a '=== system ===' then a '=== user ===' section`);
  const task = version.split(".")[0]!;
  const system = fill(match[1]!.trim(), definitions(task), version);
  const userTemplate = match[2]!.replace(/\n+$/, "");
  const hash = createHash("sha256").update(source).update("\u0000").update(system).digest("hex").slice(0, 12);
  const template: PromptTemplate = { version, system, hash, user: (values) => fill(userTemplate, values, version) };
  loaded.set(key, template);
  return template;
}
