import type { ActionEntry, DialogueState, DoctorAction } from "../../../cmas/schemas.ts";
import type { Dialogue, Utterance } from "../../../data/meditod.ts";
import { asksDoctor, isQuestion, wordCount } from "./conversation-reader.ts";
import { groupKey, orderGroups, templateFor, type HistoryPlan, type PlanItem } from "../../../language/history-plan.ts";
import { itemCovers } from "./item-knowledge.ts";
import { locationsOf, StateFacts } from "./state-facts.ts";

/**
 * What the training dialogues teach the planner, counted by replaying every doctor turn against the
 * plan: where each item falls within its body system or section (the typical order of the review
 * of systems, of habits, …), how many items doctors ask per section, which item follows which, how
 * often a newly reported positive finding is followed up and with which check, which candidate values
 * a check carries ("dry or wet" for a cough's character), which attributes of a presenting complaint
 * are asked, how often a long patient turn gets a bare nod and a patient's question an answer. Only
 * the dialogues handed over (the training split) are read.
 */

interface Rate {
  opportunities: number;
  taken: number;
}

export interface LearnedStatistics {
  readonly dialogues: number;
  /**
   * Order group ({@link groupKey}) → item id → its normalised positions (0 … 1) among the group's items
   * a dialogue asked, one per dialogue asking it.
   */
  readonly itemPositions: ReadonlyMap<string, ReadonlyMap<string, readonly number[]>>;
  /** Section id → distinct items asked in it, one count per dialogue. */
  readonly sectionCounts: ReadonlyMap<string, readonly number[]>;
  /** Item id → item ids asked next (consecutive mapped doctor turns) → count. */
  readonly successors: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** Slot → how often a newly positive value was followed up, and with which checks. */
  readonly followUps: ReadonlyMap<string, Rate & { readonly checks: ReadonlyMap<string, number> }>;
  /** `slot|value|type` → JSON of the check's values (`""` for none) → count. */
  readonly checkValues: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** Check type → how often doctors asked it of a presenting-complaint symptom whose template has it. */
  readonly complaintChecks: ReadonlyMap<string, Rate>;
  /** Bare nods after long patient turns, by whether the doctor had asked a question. */
  readonly nods: { readonly afterQuestion: Rate; readonly unprompted: Rate };
  /** Patient turns that ask the doctor something, and how often the doctor answers (chit-chat/other) instead of asking on. */
  readonly patientQuestions: Rate;
}

const isInquiry = (action: DoctorAction) => action.action === "inquire";

/** The action's slot entries: `[slot, entry]` pairs. */
function actionEntries(action: DoctorAction): Array<[string, ActionEntry]> {
  return Object.entries(action)
    .filter(([key, value]) => key !== "action" && Array.isArray(value))
    .flatMap(([slot, entries]) => (entries as ActionEntry[]).map((entry): [string, ActionEntry] => [slot, entry]));
}

/** The plan item an asked entry belongs to (location-checked items need a matching location). */
function itemForEntry(plan: HistoryPlan, slot: string, entry: ActionEntry): PlanItem | undefined {
  if (entry.value === undefined) return undefined;
  const locations = (entry.checks ?? [])
    .filter((check) => check.type === "location")
    .flatMap((check) => check.values ?? []);
  let fallback: PlanItem | undefined;
  for (const item of plan.items) {
    if (!itemCovers(item, slot, entry.value)) continue;
    if (item.check?.type === "location" && item.check.values) {
      const known = item.locations_known ?? item.check.values;
      if (locations.some((location) => known.includes(location))) return item;
      continue;
    }
    fallback ??= item;
  }
  return fallback;
}

/** Values newly positive between two states, per slot (a patient's new positive findings). */
function newPositives(before: DialogueState, after: DialogueState): Map<string, string[]> {
  const old = new StateFacts(before).positiveKeys();
  const found = new Map<string, string[]>();
  for (const key of new StateFacts(after).positiveKeys()) {
    if (old.has(key)) continue;
    const cut = key.indexOf(":");
    const slot = key.slice(0, cut);
    found.set(slot, [...(found.get(slot) ?? []), key.slice(cut + 1)]);
  }
  return found;
}

/** The normalised position of each element of a sequence (0 … 1; 0.5 alone). */
function normalisedPositions(sequence: readonly string[]): Map<string, number> {
  return new Map(sequence.map((id, index) => [id, sequence.length > 1 ? index / (sequence.length - 1) : 0.5]));
}

function increment<K>(map: Map<K, number>, key: K, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

/** Counts the statistics over the given dialogues. */
export function learnStatistics(plan: HistoryPlan, dialogues: readonly Dialogue[]): LearnedStatistics {
  const counter = new StatisticsCounter(plan);
  for (const dialogue of dialogues) counter.count(dialogue);
  return counter.result(dialogues.length);
}

/** One doctor turn in context, as the counters see it. */
interface DoctorTurnInContext {
  readonly actions: readonly DoctorAction[];
  /** The inquire actions' entries, as `[slot, entry]`. */
  readonly entries: ReadonlyArray<[string, ActionEntry]>;
  /** The patient turn before it, and the doctor turn before that. */
  readonly patient: Utterance | undefined;
  readonly doctorBefore: Utterance | undefined;
  /** The state before and after that patient turn, and how many patient turns came so far. */
  readonly before: DialogueState;
  readonly after: DialogueState;
  readonly patientTurns: number;
}

class StatisticsCounter {
  private readonly itemPositions = new Map<string, Map<string, number[]>>();
  private readonly sectionCounts = new Map<string, number[]>();
  private readonly successors = new Map<string, Map<string, number>>();
  private readonly followUps = new Map<string, Rate & { checks: Map<string, number> }>();
  private readonly checkValues = new Map<string, Map<string, number>>();
  private readonly complaintChecks = new Map<string, Rate>();
  private readonly nods = { afterQuestion: { opportunities: 0, taken: 0 }, unprompted: { opportunities: 0, taken: 0 } };
  private readonly patientQuestions: Rate = { opportunities: 0, taken: 0 };

  constructor(private readonly plan: HistoryPlan) {}

  count(dialogue: Dialogue): void {
    const sequence: string[] = [];
    let previousItems: string[] = [];
    let before: DialogueState = {};
    let after: DialogueState = {};
    let patientTurns = 0;
    dialogue.utterances.forEach((utterance, index) => {
      if (utterance.speaker === "patient") {
        before = after;
        after = utterance.dialog_state;
        patientTurns += 1;
        return;
      }
      if (patientTurns === 0) return;
      const entries = utterance.actions.filter(isInquiry).flatMap(actionEntries);
      const turn: DoctorTurnInContext = {
        actions: utterance.actions,
        entries,
        patient: dialogue.utterances[index - 1],
        doctorBefore: dialogue.utterances[index - 2],
        before,
        after,
        patientTurns,
      };
      this.countCheckValues(turn);
      const items = [
        ...new Set(
          entries
            .map(([slot, entry]) => itemForEntry(this.plan, slot, entry)?.id)
            .filter((id): id is string => id !== undefined),
        ),
      ];
      for (const id of items) if (!sequence.includes(id)) sequence.push(id);
      if (items.length > 0) {
        this.countSuccessors(previousItems, items);
        previousItems = items;
      }
      this.countFollowUps(turn);
      this.countBareMoves(turn);
    });
    countComplaintChecks(this.plan, dialogue, this.complaintChecks);
    this.countSequence(sequence, complaintArea(this.plan, dialogue));
  }

  result(dialogues: number): LearnedStatistics {
    const {
      itemPositions,
      sectionCounts,
      successors,
      followUps,
      checkValues,
      complaintChecks,
      nods,
      patientQuestions,
    } = this;
    return {
      dialogues,
      itemPositions,
      sectionCounts,
      successors,
      followUps,
      checkValues,
      complaintChecks,
      nods,
      patientQuestions,
    };
  }

  private countCheckValues({ entries }: DoctorTurnInContext): void {
    for (const [slot, entry] of entries) {
      for (const check of entry.checks ?? []) {
        if (!check.type || entry.value === undefined) continue;
        const key = `${slot}|${entry.value}|${check.type}`;
        const counts = this.checkValues.get(key) ?? new Map<string, number>();
        increment(counts, check.values && check.values.length > 0 ? JSON.stringify(check.values) : "");
        this.checkValues.set(key, counts);
      }
    }
  }

  private countSuccessors(previous: readonly string[], items: readonly string[]): void {
    for (const from of previous) {
      const next = this.successors.get(from) ?? new Map<string, number>();
      for (const to of items) if (to !== from) increment(next, to);
      this.successors.set(from, next);
    }
  }

  /** A new positive finding (after the opening, which the complaint template explores) and whether the doctor asked about it next. */
  private countFollowUps({ entries, before, after, patientTurns }: DoctorTurnInContext): void {
    if (patientTurns < 2) return;
    for (const [slot, values] of newPositives(before, after)) {
      const candidates = values.filter((value) => !this.plan.file.follow_up_exempt.includes(value));
      if (candidates.length === 0 || !this.plan.file.follow_up[slot]) continue;
      const rate = this.followUps.get(slot) ?? { opportunities: 0, taken: 0, checks: new Map<string, number>() };
      rate.opportunities += 1;
      const followed = entries.filter(
        ([entrySlot, entry]) =>
          entrySlot === slot &&
          entry.value !== undefined &&
          candidates.includes(entry.value) &&
          (entry.checks ?? []).length > 0,
      );
      if (followed.length > 0) {
        rate.taken += 1;
        for (const [, entry] of followed)
          for (const check of entry.checks ?? []) if (check.type) increment(rate.checks, check.type);
      }
      this.followUps.set(slot, rate);
    }
  }

  /** Answers to patients' questions, and bare nods after long patient turns. */
  private countBareMoves({ actions, patient, doctorBefore }: DoctorTurnInContext): void {
    if (patient?.speaker !== "patient") return;
    if (asksDoctor(patient.text)) {
      this.patientQuestions.opportunities += 1;
      if (actions.length > 0 && actions.every((action) => action.action === "chit-chat" || action.action === "other"))
        this.patientQuestions.taken += 1;
    }
    if (wordCount(patient.text) >= this.plan.file.priors.long_answer_words) {
      const rate = doctorBefore && isQuestion(doctorBefore.text) ? this.nods.afterQuestion : this.nods.unprompted;
      rate.opportunities += 1;
      if (actions.length === 1 && actions[0]!.action === "nod_prompt_salutations") rate.taken += 1;
    }
  }

  /** Items per section, and each item's position within its order group. */
  private countSequence(sequence: readonly string[], area: string): void {
    for (const section of this.plan.sectionOrder) {
      const asked = sequence.filter((id) => this.plan.itemsById.get(id)!.section === section).length;
      this.sectionCounts.set(section, [...(this.sectionCounts.get(section) ?? []), asked]);
    }
    for (const group of orderGroups(this.plan, area)) {
      const positions = this.itemPositions.get(groupKey(group)) ?? new Map<string, number[]>();
      for (const [id, position] of normalisedPositions(sequence.filter((id) => group.includes(id))))
        positions.set(id, [...(positions.get(id) ?? []), position]);
      this.itemPositions.set(groupKey(group), positions);
    }
  }
}

/** The first patient turn: the presenting complaint. */
function openingTurn(dialogue: Dialogue) {
  const first = dialogue.utterances.find((utterance) => utterance.speaker === "patient");
  return first?.speaker === "patient" ? first : undefined;
}

/** The review-of-systems area of a training dialogue's presenting complaint. */
function complaintArea(plan: HistoryPlan, dialogue: Dialogue): string {
  const opening = openingTurn(dialogue);
  const facts = opening ? new StateFacts(opening.dialog_state) : undefined;
  const main = facts?.positives("symptom")[0];
  return main ? templateFor(plan, main, locationsOf(facts, main)).area : "general";
}

/**
 * For each presenting-complaint symptom (the positives of the first patient turn), which of its
 * template's checks the doctor asked at some point of the dialogue.
 */
function countComplaintChecks(plan: HistoryPlan, dialogue: Dialogue, into: Map<string, Rate>): void {
  const first = openingTurn(dialogue);
  if (!first) return;
  const asked = new Set<string>();
  for (const utterance of dialogue.utterances) {
    if (utterance.speaker !== "doctor") continue;
    for (const [slot, entry] of utterance.actions.filter(isInquiry).flatMap(actionEntries)) {
      if (slot === "symptom")
        for (const check of entry.checks ?? []) if (check.type) asked.add(`${entry.value}|${check.type}`);
    }
  }
  const facts = new StateFacts(first.dialog_state);
  for (const symptom of facts.positives("symptom")) {
    const checks = new Set(
      templateFor(plan, symptom, locationsOf(facts, symptom))
        .steps.flat()
        .filter((part) => part.value === "$" && part.check)
        .map((part) => part.check!),
    );
    for (const check of checks) {
      const rate = into.get(check) ?? { opportunities: 0, taken: 0 };
      rate.opportunities += 1;
      if (asked.has(`${symptom}|${check}`)) rate.taken += 1;
      into.set(check, rate);
    }
  }
}
