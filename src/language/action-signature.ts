import type { ActionEntry, DoctorAction } from "../cmas/schemas.ts";

/**
 * An action's shape without its values: `inquire`, `inquire/symptom`, `inquire/symptom/onset`,
 * `inquire/symptom/location+values:chest`. Utterances of the same shape can be reworded into each other by
 * swapping values.
 */
export interface ActionShape {
  readonly key: string;
  readonly action: string;
  readonly slot?: string;
  /** Slot values, in order. */
  readonly values: readonly string[];
  /** Check values, in order. */
  readonly checkValues: readonly string[];
}

/** Slot entries of an action, with their slot names. */
export function actionSlots(action: DoctorAction): Array<[string, ActionEntry[]]> {
  return Object.entries(action).filter(
    (entry): entry is [string, ActionEntry[]] => entry[0] !== "action" && Array.isArray(entry[1]),
  );
}

export function actionShape(action: DoctorAction): ActionShape {
  const slots = actionSlots(action);
  if (slots.length === 0) return { key: action.action, action: action.action, values: [], checkValues: [] };
  const [slot, entries] = slots[0]!;
  const checkTypes = [...new Set(entries.flatMap((entry) => (entry.checks ?? []).map((check) => check.type ?? "")))]
    .filter(Boolean)
    .sort();
  const checkValues = entries.flatMap((entry) => (entry.checks ?? []).flatMap((check) => check.values ?? []));
  const values = entries.map((entry) => entry.value).filter((value): value is string => typeof value === "string");
  let key = `${action.action}/${slot}`;
  if (checkTypes.length > 0) key += `/${checkTypes.join("+")}`;
  // Check values are worded literally in training utterances ("dry or wet"), so they are part of the shape.
  if (checkValues.length > 0) key += `+values:${checkValues.join("|")}`;
  return { key, action: action.action, slot, values, checkValues };
}

/** The shape of a whole turn: its actions' shapes joined. */
export function turnShapeKey(actions: readonly DoctorAction[]): string {
  return actions.map((action) => actionShape(action).key).join(" | ");
}
