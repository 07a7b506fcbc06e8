import type { ActionEntry, DoctorAction } from "../../../cmas/schemas.ts";

/**
 * Doctor actions in the data's exact format. The planner thinks in asks (one slot value, maybe with
 * one check); these become `inquire` actions, one per slot, as the annotators wrote them:
 * `{"action":"inquire","symptom":[{"value":"coughing","checks":[{"type":"onset"}]}]}`.
 */

export interface Ask {
  readonly slot: string;
  readonly value: string;
  readonly check?: { readonly type: string; readonly values?: readonly string[] };
}

/** An ask of a slot value, with a check (and its candidate values, when there are some). */
export function askOf(slot: string, value: string, check?: string, values?: readonly string[]): Ask {
  if (!check) return { slot, value };
  return { slot, value, check: values && values.length > 0 ? { type: check, values } : { type: check } };
}

/** `inquire` actions for the asks, one action per slot in order of first appearance. */
export function inquire(asks: readonly Ask[]): DoctorAction[] {
  const bySlot = new Map<string, ActionEntry[]>();
  for (const ask of asks) {
    const entry: ActionEntry = { value: ask.value };
    if (ask.check)
      entry.checks = [
        ask.check.values && ask.check.values.length > 0
          ? { type: ask.check.type, values: [...ask.check.values] }
          : { type: ask.check.type },
      ];
    const entries = bySlot.get(ask.slot) ?? [];
    entries.push(entry);
    bySlot.set(ask.slot, entries);
  }
  return [...bySlot].map(([slot, entries]) => ({ action: "inquire", [slot]: entries }));
}

/** A slotless action (`nod_prompt_salutations`, `chit-chat`). */
export function bareAction(action: "nod_prompt_salutations" | "chit-chat"): DoctorAction[] {
  return [{ action }];
}
