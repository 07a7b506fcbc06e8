import { askOf, type Ask } from "./actions.ts";
import type { ConversationReading } from "./conversation-reader.ts";
import { templateFor, type HistoryPlan, type StepPart } from "../../../language/history-plan.ts";
import type { PolicyModel } from "./policy-model.ts";
import { locationsOf, type StateFacts } from "./state-facts.ts";
import { loadOntologyFile } from "../../../ontology/ontology-files.ts";
import { spokenValue } from "../../../language/lay-terms.ts";

/**
 * The presenting complaint and its attributes. The complaint is what the patient reported in their
 * first turn (the positive symptoms of the state that the opening words mention); each complaint
 * symptom is explored through its template's steps (onset, character, aggravating/alleviating
 * factors, severity, progression, plus complaint-specific companions such as sputum and blood for a
 * cough), skipping every step the state already answers or the doctor already asked.
 */

export interface ComplaintFocus {
  /** Complaint symptoms, the main one first. */
  readonly symptoms: readonly string[];
  /** The review-of-systems area of the main complaint. */
  readonly area: string;
  /** Values explored in the complaint phase: the complaint symptoms and their templates' companions. */
  readonly phaseValues: ReadonlySet<string>;
  /** A live history's review of systems chosen by the complaint (item ids), instead of its area's blocks. */
  readonly review?: { readonly id: string; readonly items: readonly string[] };
}

const locatable = new Set(loadOntologyFile("lexicon.json").locatable);

/** Finds the presenting complaint from the state and the patient's opening words. */
export function findComplaint(plan: HistoryPlan, facts: StateFacts, conversation: ConversationReading): ComplaintFocus {
  const positives = facts.positives("symptom");
  // The state lists symptoms in order of first mention, so those before the last one the opening
  // names came from the opening too, even in words the cues miss.
  const lastMentioned = positives.findLastIndex((value) => conversation.openingSymptoms.has(value));
  const symptoms = lastMentioned >= 0 ? positives.slice(0, lastMentioned + 1) : positives.slice(0, 1);
  const area = symptoms.length > 0 ? templateFor(plan, symptoms[0]!, locationsOf(facts, symptoms[0]!)).area : "general";
  const phaseValues = new Set<string>(symptoms);
  for (const symptom of symptoms) {
    for (const part of templateFor(plan, symptom, locationsOf(facts, symptom)).steps.flat())
      if (part.value !== "$") phaseValues.add(part.value);
  }
  return { symptoms, area, phaseValues };
}

/** Each value's name as a whole-word pattern, made once; emptied at 4,096 (an LLM's values are open text). */
const VALUE_NAMES = new Map<string, RegExp>();

/**
 * Whether a doctor's words name a value as the state holds it ("did the sweating come on suddenly?"):
 * a symptom no plan item covers is still recognised in the question the doctor asked of it, so a
 * "not sure" answer, which records nothing, does not get the same question again.
 */
function namesValue(text: string, value: string): boolean {
  // Most readings do not contain the name at all: a substring test first, the word boundaries after.
  if (!text.includes(value.toLowerCase())) return false;
  let pattern = VALUE_NAMES.get(value);
  if (!pattern) {
    if (VALUE_NAMES.size >= 4096) VALUE_NAMES.clear();
    pattern = new RegExp(`\\b${value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "i");
    VALUE_NAMES.set(value, pattern);
  }
  return pattern.test(text);
}

/**
 * Whether a doctor turn asked this check of this value: a symptom, habit, medication … the turn names
 * (a turn naming nothing is about the main complaint).
 */
export function checkAsked(
  conversation: ConversationReading,
  focus: ComplaintFocus,
  value: string,
  check: string,
): boolean {
  return conversation.doctor.some(
    (reading) =>
      reading.checks.includes(check) &&
      (reading.symptoms.includes(value) ||
        reading.values.some((key) => key.endsWith(`|${value}`)) ||
        namesValue(reading.text, value) ||
        (reading.symptoms.length === 0 && reading.items.length === 0 && value === focus.symptoms[0])),
  );
}

/** Whether a plan item covering this symptom value was asked. */
export function valueAsked(plan: HistoryPlan, conversation: ConversationReading, value: string): boolean {
  for (const id of conversation.askedItems) {
    const item = plan.itemsById.get(id);
    if (item && item.slot === "symptom" && (item.values.includes(value) || item.aliases.includes(value))) return true;
  }
  return false;
}

/**
 * Whether a plan item that asks this check of this value was asked ("any abdominal pain?" asks where
 * the pain is): a question worded by an item names the item, not the check, so the check alone would
 * never read as asked and the step would be asked again and again.
 */
function checkedItemAsked(plan: HistoryPlan, conversation: ConversationReading, value: string, check: string): boolean {
  for (const id of conversation.askedItems) {
    const item = plan.itemsById.get(id);
    if (item?.check?.type === check && item.values.includes(value)) return true;
  }
  return false;
}

/** "Two hours ago", "this morning", "just now": an onset within the day, a first episode still going on. */
const STARTED_TODAY =
  /\b(?:minutes?|hours?|today|tonight|this (?:morning|afternoon|evening)|last night|just now|earlier on)\b/;

/**
 * Whether asking how often the symptom comes is beside the point: it started within the day and came
 * on suddenly ("the worst headache of my life, two hours ago"); one episode, not a pattern.
 */
function oneSuddenEpisode(facts: StateFacts, symptom: string): boolean {
  const entry = facts.find("symptom", symptom)?.entry;
  return entry?.initiation === "abruptly" && typeof entry.onset === "string" && STARTED_TODAY.test(entry.onset);
}

/** Ask a complaint attribute when doctors usually do. */
const COMPLAINT_CHECK_THRESHOLD = 0.5;

/**
 * The next unexplored step of the complaint, as asks (with the check values doctors attach in
 * training), or undefined when every step is settled. In a `live` history the template's live steps
 * (a pain's severity) are asked whatever their learned rate.
 */
export function nextComplaintStep(
  model: PolicyModel,
  facts: StateFacts,
  conversation: ConversationReading,
  focus: ComplaintFocus,
  live = false,
  skippedItems: ReadonlySet<string> = new Set(),
): Ask[] | undefined {
  const steps = openComplaintSteps(model, facts, conversation, focus, live, skippedItems);
  const first = steps.next().value;
  const screen = (asks: readonly Ask[] | undefined) => asks !== undefined && companionScreen(model.plan, asks, focus);
  if (!live || !screen(first)) return first;
  // A live history asks two plain companions together ("any fevers or weight loss?"), as it screens a system.
  const second = steps.next().value;
  if (!second || !screen(second)) return first;
  const paired = [...first!, ...second];
  const words = paired.reduce((sum, ask) => sum + spokenValue(ask.slot, ask.value).split(" ").length, 0);
  return paired.length <= SCREEN_VALUES && words <= SCREEN_WORDS ? paired : first;
}

/**
 * At most this many symptoms, and their lay names at most this many words, in one screening question
 * ("any chest pain or palpitations?"). A denial must reach every symptom named: the NLU's reaches a few
 * words (`nlu/negation.ts`: "no, I haven't had changes in my hearing, changes in my vision or headaches"
 * left the headaches present), and the red-flag signs' stops at a comma (`clinical/red-flag-signs.ts`:
 * "no, I haven't had cough, wheezing or coughing up blood" raised coughing blood), so a screen names
 * two, joined by "or".
 */
export const SCREEN_VALUES = 2;
export const SCREEN_WORDS = 5;

/**
 * A step that only asks whether companion symptoms are there, each a plain review-of-systems symptom
 * (no detail, not the complaint itself, not a symptom the plan asks only at a site, such as swelling).
 */
function companionScreen(plan: HistoryPlan, asks: readonly Ask[], focus: ComplaintFocus): boolean {
  return asks.every(
    (ask) =>
      ask.slot === "symptom" &&
      !ask.check &&
      !focus.symptoms.includes(ask.value) &&
      plan.file.items.some(
        (item) =>
          item.section === "review_of_systems" && !item.check && !item.live_only && item.values.includes(ask.value),
      ),
  );
}

/** The complaint's unsettled steps, in order, each as its asks. */
function* openComplaintSteps(
  model: PolicyModel,
  facts: StateFacts,
  conversation: ConversationReading,
  focus: ComplaintFocus,
  live: boolean,
  skippedItems: ReadonlySet<string>,
): Generator<Ask[], undefined> {
  const { plan } = model;
  // A step asking a skipped item's value (a baby's night sweats) is not asked; the complaint itself still is.
  const skippedValues = new Set(
    plan.file.items.filter((item) => skippedItems.has(item.id)).flatMap((item) => item.values),
  );
  const settled = (part: StepPart): boolean => {
    if (part.check) {
      const attributes = plan.file.check_attributes[part.check] ?? [part.check];
      return (
        facts.hasAttribute("symptom", part.value, attributes) ||
        checkAsked(conversation, focus, part.value, part.check) ||
        checkedItemAsked(plan, conversation, part.value, part.check)
      );
    }
    return (
      facts.has("symptom", part.value) ||
      valueAsked(plan, conversation, part.value) ||
      conversation.doctor.some((reading) => reading.companions.includes(part.value))
    );
  };
  for (const symptom of focus.symptoms) {
    for (const step of templateFor(plan, symptom, locationsOf(facts, symptom)).steps) {
      const parts = step.map((part) => ({ ...part, value: part.value === "$" ? symptom : part.value }));
      if (parts.some((part) => part.when_positive && !facts.isPositive("symptom", part.value))) continue;
      if (parts.some((part) => part.when_locatable && !locatable.has(part.value))) continue;
      if (parts.some((part) => part.value !== symptom && skippedValues.has(part.value))) continue;
      const own = step[0]!;
      // Attributes doctors rarely ask of a complaint (learned) are left out.
      if (
        own.value === "$" &&
        own.check &&
        !(live && own.live) &&
        model.complaintCheckRate(own.check) < COMPLAINT_CHECK_THRESHOLD
      )
        continue;
      if (settled(parts[0]!)) continue;
      if (own.check === "frequency" && oneSuddenEpisode(facts, symptom)) continue;
      yield parts
        .filter((part) => !settled(part))
        .map((part) =>
          askOf(
            "symptom",
            part.value,
            part.check,
            part.check ? model.checkValues("symptom", part.value, part.check) : undefined,
          ),
        );
    }
  }
  return undefined;
}
