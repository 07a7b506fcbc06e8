import { loadOntologyFile, parseOntologyFile, type OntologyFile } from "../ontology/ontology-files.ts";
import { normaliseUtterance } from "./checklist-text.ts";

/**
 * The OSCE checklist's data (`ontology/osce-checklist.json`) compiled: every pattern a regular
 * expression with its `{name}` references filled in, each system and item checked against the rest
 * of the file. A bad edit fails at load with the file and what is wrong. The examples of each item are
 * checked by `tests/clinical/osce-checklist.test.ts` (one test each), not here.
 */

type ChecklistFile = OntologyFile<"osce-checklist.json">;
type ItemDefinition = ChecklistFile["items"][number];
export type ChecklistSection = ItemDefinition["section"];
export type ItemApplicability = NonNullable<ItemDefinition["applies"]>;

/** One rule: every `all` pattern matches the question and no `none` pattern does. */
interface CompiledRule {
  readonly all: readonly RegExp[];
  readonly none: readonly RegExp[];
}

/** A checklist item ready to read questions. */
export interface CompiledItem {
  readonly id: string;
  readonly label: string;
  readonly section: ChecklistSection;
  readonly meaning: string;
  readonly applies: ItemApplicability;
  readonly complaintCore: boolean;
  readonly reviewOf: string | null;
  /** For a systems-review item: symptoms (which also count as associated symptoms) or background. */
  readonly reviewKind: "symptoms" | "background" | null;
  readonly coveredByComplaintReview: boolean;
  readonly rules: readonly CompiledRule[];
  /** Matches whenever some rule's first pattern does: a question it misses cannot cover the item. */
  readonly quickCheck: RegExp;
  readonly examples: ItemDefinition["examples"];
}

/** A body system: the patterns that name a complaint of it, and the systems on topic beside it. */
export interface CompiledSystem {
  readonly id: string;
  readonly label: string;
  readonly related: ReadonlySet<string>;
  readonly complaint: readonly RegExp[];
}

/** The whole checklist, compiled. */
export interface CompiledChecklist {
  readonly items: readonly CompiledItem[];
  readonly systems: ReadonlyMap<string, CompiledSystem>;
  readonly questionOpener: RegExp;
  readonly clarificationRequest: RegExp;
  readonly checkBack: RegExp;
  readonly contextReference: RegExp;
  readonly complaintCue: RegExp;
  readonly functionWords: ReadonlySet<string>;
}

/** The system every complaint may be reviewed for, and the one a complaint nothing names falls back to. */
export const GENERAL_SYSTEM = "general";

function fail(message: string): never {
  throw new Error(`ontology/osce-checklist.json: ${message}`);
}

/** A `{name}` reference to a named pattern, e.g. `{tie_to_complaint}`. */
const PATTERN_REFERENCE = /\{([a-z0-9_]+)\}/g;

/** Fills in the named patterns a source refers to (named patterns may refer to earlier-filled ones). */
function expand(source: string, named: ChecklistFile["patterns"], where: string, depth = 0): string {
  if (depth > 5) fail(`${where}: named patterns refer to each other in a loop`);
  return source.replace(PATTERN_REFERENCE, (_reference, name: string) => {
    const entry = named[name];
    if (!entry) fail(`${where}: unknown named pattern {${name}}`);
    return `(?:${expand(entry.pattern, named, `pattern '${name}'`, depth + 1)})`;
  });
}

/** A capital letter that is not an escape such as `\\W`, e.g. the "P" of "Pain": it could never match. */
const CAPITAL_LETTER = /(?<!\\)[A-Z]/;

/** Compiles one pattern of the file, naming where it is when it fails. */
function compileSource(source: string, named: ChecklistFile["patterns"], where: string): RegExp {
  if (CAPITAL_LETTER.test(source))
    fail(`${where}: '${source}' has a capital letter, but questions are read in lower case`);
  const expanded = expand(source, named, where);
  try {
    return new RegExp(expanded);
  } catch {
    return fail(`${where}: '${source}' is not a regular expression`);
  }
}

/** Compiles a list of alternatives into one expression. */
function compileAny(sources: readonly string[], named: ChecklistFile["patterns"], where: string): RegExp {
  return compileSource(sources.map((source) => `(?:${source})`).join("|"), named, where);
}

function checkNamedPatterns(named: ChecklistFile["patterns"]): void {
  for (const [name, { pattern, example }] of Object.entries(named)) {
    if (!compileSource(pattern, named, `pattern '${name}'`).test(normaliseUtterance(example)))
      fail(`pattern '${name}' does not match its example '${example}'`);
  }
}

function compileSystems(file: ChecklistFile): Map<string, CompiledSystem> {
  const systems = new Map<string, CompiledSystem>();
  for (const system of file.systems) {
    if (systems.has(system.id)) fail(`duplicate system '${system.id}'`);
    const complaint = system.complaint.map((source) => compileSource(source, file.patterns, `system '${system.id}'`));
    systems.set(system.id, { id: system.id, label: system.label, related: new Set(system.related), complaint });
  }
  if (!systems.has(GENERAL_SYSTEM)) fail(`no system '${GENERAL_SYSTEM}'`);
  for (const system of systems.values()) {
    for (const related of system.related)
      if (!systems.has(related)) fail(`system '${system.id}': unknown related system '${related}'`);
  }
  return systems;
}

function compileItem(
  item: ItemDefinition,
  file: ChecklistFile,
  systems: ReadonlyMap<string, CompiledSystem>,
): CompiledItem {
  const where = `item '${item.id}'`;
  if (item.review_of !== undefined && !systems.has(item.review_of))
    fail(`${where}: unknown system '${item.review_of}'`);
  if (item.review_of !== undefined && item.applies !== undefined)
    fail(`${where}: a systems-review item applies by its system only`);
  if (item.review_kind !== undefined && item.review_of === undefined) fail(`${where}: review_kind without review_of`);
  const demographic = item.applies?.sex ?? item.applies?.min_age ?? item.applies?.max_age;
  if (demographic !== undefined && item.applies?.when_unknown === undefined)
    fail(`${where}: says who it applies to but not when_unknown`);
  const rules = item.rules.map((rule) => ({
    all: rule.all.map((source) => compileSource(source, file.patterns, where)),
    none: rule.none.map((source) => compileSource(source, file.patterns, where)),
  }));
  return {
    id: item.id,
    label: item.label,
    section: item.section,
    meaning: item.meaning,
    applies: item.applies ?? {},
    complaintCore: item.complaint_core,
    reviewOf: item.review_of ?? null,
    reviewKind: item.review_of === undefined ? null : (item.review_kind ?? "symptoms"),
    coveredByComplaintReview: item.covered_by_complaint_review,
    rules,
    quickCheck: new RegExp(rules.map((rule) => `(?:${rule.all[0]!.source})`).join("|")),
    examples: item.examples,
  };
}

/** Checks a validated checklist file against itself and compiles it. */
export function compileOsceChecklist(file: ChecklistFile): CompiledChecklist {
  checkNamedPatterns(file.patterns);
  const systems = compileSystems(file);
  const ids = new Set<string>();
  const items = file.items.map((item) => {
    if (ids.has(item.id)) fail(`duplicate item '${item.id}'`);
    ids.add(item.id);
    return compileItem(item, file, systems);
  });
  return {
    items,
    systems,
    questionOpener: compileAny(file.question_openers, file.patterns, "question_openers"),
    clarificationRequest: compileAny(file.clarification_requests, file.patterns, "clarification_requests"),
    checkBack: compileAny(file.check_backs, file.patterns, "check_backs"),
    contextReference: compileAny(file.context_references, file.patterns, "context_references"),
    complaintCue: compileAny(file.complaint_cues, file.patterns, "complaint_cues"),
    functionWords: new Set(file.function_words.map((word) => word.toLowerCase())),
  };
}

/** Parses, validates and compiles the text of a checklist file (for tests of edits). */
export function parseOsceChecklist(text: string): CompiledChecklist {
  return compileOsceChecklist(parseOntologyFile("osce-checklist.json", text));
}

/** The bundled checklist, read and compiled (the scorer keeps it from its first use). */
export function loadOsceChecklist(): CompiledChecklist {
  return compileOsceChecklist(loadOntologyFile("osce-checklist.json"));
}
