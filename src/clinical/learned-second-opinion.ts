import { LONGEST_RUN } from "./red-flags-learned.ts";
import { poolSigns, type SignsFound } from "./red-flag-signs.ts";
import type { RedFlagRules } from "./red-flags.ts";
import type { TurnReader } from "./red-flags-semantic.ts";

/**
 * The learned model's second opinion on the rules' reading of the patient's words. The rules fire on
 * lay words ("pins and needles", "can't feel"), and an ordinary story can hold the same words; the
 * learned model, trained on each flag's statements and their near-misses, reads the same turns. When it
 * gives a flag it knows almost no chance over every run of turns it read (below
 * `semantic.learnedVeto.below` in `ontology/red-flags.json`), the rules' reading of that flag in the
 * words is set aside. Chosen on the first looks at the development parts (the rules and model as they
 * were before each part was read: `bench/red-flags-veto.ts`), where no emergency the rules caught had so
 * low a probability and half the rules' false alarms did.
 *
 * The rules stand whenever the model could not have judged what they read: a turn it has not read yet
 * (loading, failed, or off), a flag it has no class for, or a flag whose words are told across more
 * turns than the model reads together.
 */

/** Each patient turn's signs, and the learned model's highest probability per flag over the runs ending with it (null: not read). */
export interface TurnsRead {
  readonly signs: readonly SignsFound[];
  readonly highest: readonly (ReadonlyMap<string, number> | null)[];
}

/** Some turns as a reader reads them: each turn's signs and the model's highest probabilities after it (null: no model). */
export function turnsReadBy(
  rules: RedFlagRules,
  model: Pick<TurnReader, "highestOfLastTurn"> | null,
  turns: readonly string[],
): TurnsRead {
  return {
    signs: turns.map((turn) => rules.signs.read(turn)),
    highest: turns.map((_, index) => model?.highestOfLastTurn(turns.slice(0, index + 1)) ?? null),
  };
}

/** Whether the learned model sets aside the rules' reading of a flag in the patient's words. */
export function learnedOverrulesWords(rules: RedFlagRules, flagId: string, turns: TurnsRead): boolean {
  const below = rules.file.semantic.learnedVeto?.below;
  if (below === undefined || turns.highest.length === 0) return false;
  let highest = 0;
  for (const read of turns.highest) {
    const probability = read?.get(flagId);
    if (probability === undefined) return false;
    highest = Math.max(highest, probability);
  }
  return highest < below && saidWithinOneRun(rules, flagId, turns.signs);
}

/** Whether a flag's stated criteria hold on the signs of some run of consecutive turns the model reads together. */
function saidWithinOneRun(rules: RedFlagRules, flagId: string, signs: readonly SignsFound[]): boolean {
  return signs.some((_, end) =>
    rules.saidHolds(flagId, poolSigns(signs.slice(Math.max(0, end + 1 - LONGEST_RUN), end + 1))),
  );
}
