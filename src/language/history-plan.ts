import type * as z from "zod";
import { checkTypes, slotDefinition } from "../cmas/ontology.ts";
import { criterionProblem } from "../clinical/criteria.ts";
import {
  historyPlanSchema,
  type complaintSchema,
  type planItemSchema,
  type stepPartSchema,
} from "../ontology/history-plan-schema.ts";
import { loadOntologyFile, type OntologyFile } from "../ontology/ontology-files.ts";

/**
 * The history-taking plan (`ontology/history-plan.json`): sections in OSCE order, the items asked in
 * each, cues that recognise an item in a doctor's words, chief-complaint templates, the review of
 * systems per complaint area, follow-up attributes and closing cues (working diagnoses: `src/clinical/diagnoses.ts`). It is data
 * so that clinicians can edit the order without touching code; it is validated on load against the
 * CMAS ontology, so an item with a check type its slot does not allow fails here, not in a benchmark.
 */

export type HistoryPlanFile = OntologyFile<"history-plan.json">;
type ItemFile = z.infer<typeof planItemSchema>;
type ComplaintFile = z.infer<typeof complaintSchema>;

/** One question of the plan, with its cues compiled. */
export interface PlanItem extends Omit<ItemFile, "cues" | "aliases" | "value_cues"> {
  readonly aliases: readonly string[];
  readonly cues: readonly RegExp[];
  /** Value → cues naming it; values without cues count as asked whenever the item is. */
  readonly valueCues: ReadonlyMap<string, readonly RegExp[]>;
}

export type StepPart = z.infer<typeof stepPartSchema>;

/** A chief-complaint template with its cues compiled and its steps concrete. */
export interface ComplaintTemplate extends Omit<ComplaintFile, "cues" | "steps" | "locations"> {
  readonly cues: readonly RegExp[];
  readonly steps: readonly (readonly StepPart[])[];
  /** Sites the template is for (null: any site). */
  readonly locations: RegExp | null;
}

export interface ReviewOfSystems {
  readonly blocks: readonly (readonly string[])[];
  readonly flat: readonly string[];
}

/** The validated plan with compiled cues and lookups. */
export interface HistoryPlan {
  readonly file: HistoryPlanFile;
  readonly sectionOrder: readonly string[];
  readonly items: readonly PlanItem[];
  readonly itemsById: ReadonlyMap<string, PlanItem>;
  readonly complaints: readonly ComplaintTemplate[];
  /** Review of systems per complaint area: its system blocks and all its item ids flattened, in plan order. */
  readonly reviewOfSystems: ReadonlyMap<string, ReviewOfSystems>;
  /** Item ids of each section, in plan order. */
  readonly sectionItems: ReadonlyMap<string, readonly string[]>;
  /** Companion symptom of a complaint template → the cues of a question asking it (`asked_cues` of its step). */
  readonly companionCues: ReadonlyMap<string, readonly RegExp[]>;
  /** Check type → cues that recognise a question about it. */
  readonly checkCues: ReadonlyMap<string, readonly RegExp[]>;
  readonly closing: {
    readonly question: readonly RegExp[];
    readonly explanation: readonly RegExp[];
    readonly farewell: readonly RegExp[];
  };
}

const compile = (sources: readonly string[]): RegExp[] => sources.map((source) => new RegExp(source, "i"));

function fail(message: string): never {
  throw new Error(`ontology/history-plan.json: ${message}`);
}

/** Cross-checks the plan against the CMAS ontology and itself (ids, sections, check types). */
function checkConsistency(file: HistoryPlanFile): void {
  const sections = new Set(file.sections.map((section) => section.id));
  const ids = new Set<string>();
  for (const item of file.items) {
    if (ids.has(item.id)) fail(`duplicate item id '${item.id}'`);
    ids.add(item.id);
    if (!sections.has(item.section)) fail(`item '${item.id}' names unknown section '${item.section}'`);
    const slot = slotDefinition(item.slot);
    if (!slot || slot.actions_only) fail(`item '${item.id}' names unknown slot '${item.slot}'`);
    for (const value of Object.keys(item.value_cues ?? {}))
      if (!item.values.includes(value)) fail(`item '${item.id}': value_cues names '${value}', not one of its values`);
    if (item.check && !checkTypes(slot).includes(item.check.type))
      fail(`item '${item.id}': check type '${item.check.type}' is not allowed for ${item.slot}`);
  }
  const symptomChecks = checkTypes(slotDefinition("symptom")!);
  const itemSymptoms = new Set(
    file.items.filter((item) => item.slot === "symptom").flatMap((item) => [...item.values, ...(item.aliases ?? [])]),
  );
  for (const complaint of file.complaints) {
    for (const part of complaint.steps === "cmas" ? [] : complaint.steps.flat()) {
      if (part.check && !symptomChecks.includes(part.check))
        fail(`complaint '${complaint.id}': unknown symptom check '${part.check}'`);
      // Without a plan item or cues of its own, a companion asked and not answered would be asked again and again.
      if (!part.check && part.value !== "$" && !itemSymptoms.has(part.value) && !part.asked_cues)
        fail(`complaint '${complaint.id}': companion '${part.value}' has no plan item and no asked_cues`);
    }
    if (!file.areas.some((area) => area.id === complaint.area))
      fail(`complaint '${complaint.id}' names unknown area '${complaint.area}'`);
  }
  for (const area of file.areas) {
    for (const id of area.review_of_systems.flat())
      if (!ids.has(id)) fail(`area '${area.id}' names unknown item '${id}'`);
  }
  if (!file.areas.some((area) => area.id === "general"))
    fail("an area 'general' is needed for complaints of no known area");
  if (!ids.has(file.complaint_closer)) fail(`complaint_closer names unknown item '${file.complaint_closer}'`);
  for (const [slot, followUp] of Object.entries(file.follow_up)) {
    const definition = slotDefinition(slot);
    if (!definition) fail(`follow_up names unknown slot '${slot}'`);
    for (const check of followUp.checks)
      if (!checkTypes(definition).includes(check)) fail(`follow_up: '${check}' is not a check type of ${slot}`);
  }
  checkLiveHistory(file, ids);
}

/** Cross-checks the live history's additions: follow-up check types of their slots, screening items and criteria. */
function checkLiveHistory(file: HistoryPlanFile, ids: ReadonlySet<string>): void {
  const live = file.live_history;
  for (const [slot, checks] of Object.entries(live.follow_up)) {
    const definition = slotDefinition(slot);
    if (!definition) fail(`live_history.follow_up names unknown slot '${slot}'`);
    for (const check of checks)
      if (!checkTypes(definition).includes(check))
        fail(`live_history.follow_up: '${check}' is not a check type of ${slot}`);
  }
  for (const screen of live.screens) {
    if (!ids.has(screen.item)) fail(`live_history.screens names unknown item '${screen.item}'`);
    const problem = criterionProblem(screen.when);
    if (problem) fail(`live_history.screens '${screen.item}': ${problem}`);
  }
  for (const id of live.background.review_first)
    if (!ids.has(id)) fail(`live_history.background.review_first names unknown item '${id}'`);
  for (const entry of live.background.items) {
    for (const id of [entry.item, ...(entry.replaces ?? [])])
      if (!ids.has(id)) fail(`live_history.background names unknown item '${id}'`);
    const problem = entry.when && criterionProblem(entry.when);
    if (problem) fail(`live_history.background '${entry.item}': ${problem}`);
  }
  const symptomChecks = checkTypes(slotDefinition("symptom")!);
  for (const questions of live.complaint_questions) {
    for (const ask of questions.asks) {
      if ("item" in ask && !ids.has(ask.item))
        fail(`live_history.complaint_questions '${questions.id}' asks unknown item '${ask.item}'`);
      if ("check" in ask && !symptomChecks.includes(ask.check))
        fail(`live_history.complaint_questions '${questions.id}': unknown symptom check '${ask.check}'`);
    }
    for (const id of questions.review ?? [])
      if (!ids.has(id)) fail(`live_history.complaint_questions '${questions.id}' reviews unknown item '${id}'`);
  }
  for (const id of [...live.child.skip_items, ...live.child.young.skip_items])
    if (!ids.has(id)) fail(`live_history.child skips unknown item '${id}'`);
}

/** The check type that asks a symptom attribute (characteristics and factors are asked as a group). */
function checkOfAttribute(attribute: string): string {
  if (attribute.endsWith("characteristics")) return "characteristics";
  if (attribute.endsWith("_factor")) return "ana_factors";
  return attribute;
}

/**
 * The complaint steps of a symptom the plan does not know, from `ontology/cmas.json`: each symptom
 * attribute the ontology has a question for, in its order, one step per check type, except the
 * symptom-specific ones; the site only of symptoms felt somewhere.
 */
function stepsFromOntology(specific: readonly string[]): StepPart[][] {
  const checks = slotDefinition("symptom")!
    .attributes.filter((attribute) => attribute.name !== "value" && attribute.question !== undefined)
    .map((attribute) => checkOfAttribute(attribute.name))
    .filter((check) => !specific.includes(check));
  return [...new Set(checks)].map((check) => [
    { value: "$", check, ...(check === "location" ? { when_locatable: true } : {}) },
  ]);
}

/** Validates and compiles a plan file's content. */
export function compileHistoryPlan(json: unknown): HistoryPlan {
  const parsed = historyPlanSchema.safeParse(json);
  if (!parsed.success) fail(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "));
  return compileValidatedPlan(parsed.data);
}

/** Compiles a plan file that its schema already gave (the ontology loader validates the bundled one). */
function compileValidatedPlan(file: HistoryPlanFile): HistoryPlan {
  checkConsistency(file);
  const sectionOrder = file.sections.map((section) => section.id);
  const items: PlanItem[] = file.items.map(({ value_cues: valueCues, ...item }) => ({
    ...item,
    aliases: item.aliases ?? [],
    cues: compile(item.cues),
    valueCues: new Map(Object.entries(valueCues ?? {}).map(([value, cues]) => [value, compile(cues)])),
  }));
  return {
    file,
    sectionOrder,
    items,
    itemsById: new Map(items.map((item) => [item.id, item])),
    complaints: file.complaints.map(({ locations, ...complaint }) => ({
      ...complaint,
      cues: compile(complaint.cues),
      locations: locations ? new RegExp(locations.join("|"), "i") : null,
      steps: complaint.steps === "cmas" ? stepsFromOntology(file.symptom_specific_checks) : complaint.steps,
    })),
    sectionItems: new Map(
      sectionOrder.map((section) => [section, items.filter((item) => item.section === section).map((item) => item.id)]),
    ),
    reviewOfSystems: new Map(
      file.areas.map((area) => [area.id, { blocks: area.review_of_systems, flat: area.review_of_systems.flat() }]),
    ),
    companionCues: new Map(
      file.complaints.flatMap((complaint) =>
        complaint.steps === "cmas"
          ? []
          : complaint.steps.flat().flatMap((part) => (part.asked_cues ? [[part.value, compile(part.asked_cues)]] : [])),
      ),
    ),
    checkCues: new Map(Object.entries(file.check_cues).map(([type, cues]) => [type, compile(cues)])),
    closing: {
      question: compile(file.closing.question_cues),
      explanation: compile(file.closing.explanation_cues),
      farewell: compile(file.closing.farewell_cues),
    },
  };
}

/** The review of systems of a complaint area (the `general` one for an unknown area). */
export function reviewOfSystemsFor(plan: HistoryPlan, area: string): ReviewOfSystems {
  return plan.reviewOfSystems.get(area) ?? plan.reviewOfSystems.get("general")!;
}

/**
 * The lists within which items are ordered, for a complaint area: each body-system block of its
 * review of systems, then each other section. Order is learned within these lists only.
 */
export function orderGroups(plan: HistoryPlan, area: string): readonly (readonly string[])[] {
  const others = plan.sectionOrder
    .filter((section) => section !== "review_of_systems")
    .map((section) => plan.sectionItems.get(section)!);
  return [...reviewOfSystemsFor(plan, area).blocks, ...others];
}

/** A stable key for an order group. */
export const groupKey = (group: readonly string[]): string => group.join(",");

let cached: HistoryPlan | undefined;

/** The bundled plan, read and compiled once. */
export function loadHistoryPlan(): HistoryPlan {
  cached ??= compileValidatedPlan(loadOntologyFile("history-plan.json"));
  return cached;
}

/**
 * The template of a symptom at its sites (the plan's `default` when none names it): a template for
 * given sites (abdominal pain, back pain) wins over one for the symptom anywhere.
 */
export function templateFor(plan: HistoryPlan, symptom: string, locations: readonly string[] = []): ComplaintTemplate {
  const named = plan.complaints.filter((complaint) => complaint.symptoms.includes(symptom));
  const sited = named.find(
    (complaint) => complaint.locations !== null && locations.some((location) => complaint.locations!.test(location)),
  );
  return (
    sited ??
    named.find((complaint) => complaint.locations === null) ??
    plan.complaints.find((complaint) => complaint.id === "default") ??
    plan.complaints.at(-1)!
  );
}
