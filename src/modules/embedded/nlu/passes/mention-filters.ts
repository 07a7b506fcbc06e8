import { MENTION_FILTER_RULES, type MentionFilterRule } from "../rules/mention-filters.ts";
import type { MentionReading, TurnRecord } from "../turn-record.ts";

/**
 * Passes 3 and 5, filters: drop the mentions a rule of `rules/mention-filters.ts` says are not
 * reports (heard of, a trigger, a comparison …). `onDrop` sees which rule dropped what (the rule
 * tests use it).
 */
export type DropListener = (rule: MentionFilterRule, reading: MentionReading) => void;

/** The rules of each stage, in table order. */
const RULES_BY_STAGE: Readonly<Record<MentionFilterRule["stage"], readonly MentionFilterRule[]>> = {
  "before-status": MENTION_FILTER_RULES.filter((rule) => rule.stage === "before-status"),
  "after-status": MENTION_FILTER_RULES.filter((rule) => rule.stage === "after-status"),
};

function filterMentions(turn: TurnRecord, stage: MentionFilterRule["stage"], onDrop?: DropListener): void {
  const rules = RULES_BY_STAGE[stage];
  turn.readings = turn.readings.filter((reading) => {
    const rule = rules.find((candidate) => candidate.drops(turn, reading));
    if (rule) onDrop?.(rule, reading);
    return rule === undefined;
  });
}

/** Pass 3: filters that judge what a mention is, before its status is read. */
export const filterBeforeStatus = (turn: TurnRecord, onDrop?: DropListener): void =>
  filterMentions(turn, "before-status", onDrop);
/** Pass 5: filters that judge how a mention is used, once its status is read. */
export const filterAfterStatus = (turn: TurnRecord, onDrop?: DropListener): void =>
  filterMentions(turn, "after-status", onDrop);
