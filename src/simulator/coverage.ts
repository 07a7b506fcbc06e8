import { PRESENT_STATUSES, splitPrefixedSlot } from "../cmas/ontology.ts";
import type { ActionEntry, DialogueState, DoctorAction, SlotEntry } from "../cmas/schemas.ts";
import { askingChecks } from "./case-facts.ts";

/**
 * History-taking coverage for practice mode: which facts of a case profile the trainee's questions
 * have asked about. A fact is one entry of the profile (a symptom, a medication, the occupation…); the
 * attributes of positive entries (onset, severity, triggers…) are facts of their own. Pure: the same
 * profile and questions give the same coverage.
 *
 * An entry is asked when a question names its value; an open question about its slot ("Are you taking
 * any medications?") also asks the entries the patient then has to tell, the present ones — negatives
 * are pertinent negatives and must be asked by name. Social and demographic entries are asked by any
 * question about their slot. An attribute is asked by a question that names its entry with that check.
 */

export interface CoverageAttribute {
  readonly name: string;
  readonly asked: boolean;
}

export interface CoverageFact {
  /** Unprefixed slot (`symptom`, `medication`, `occupation`…). */
  readonly slot: string;
  /** positive, negative, unknown, avail, unavail; null for social and demographic slots. */
  readonly status: string | null;
  /** What the entry is about: its value, or for social slots what it says. */
  readonly label: string;
  readonly asked: boolean;
  /** Attributes of a positive entry (empty for other entries). */
  readonly attributes: readonly CoverageAttribute[];
}

export interface Coverage {
  readonly facts: readonly CoverageFact[];
  /** Facts and attributes asked. */
  readonly asked: number;
  /** Facts and attributes in the profile. */
  readonly total: number;
  /** asked / total, rounded to a whole percent (100 when there is nothing to ask). */
  readonly percent: number;
}

const OPEN_VALUES = new Set(["other", "all", "none"]);
const PRESENT: ReadonlySet<string> = new Set(PRESENT_STATUSES);

function labelOf(entry: SlotEntry, slot: string): string {
  const first = entry.value ?? entry.destination ?? entry.age ?? entry.status ?? Object.values(entry)[0] ?? slot;
  return Array.isArray(first) ? first.join(", ") : first;
}

/** The action entries of all inquiries about a slot. */
function inquiriesAbout(actions: readonly DoctorAction[], slot: string): ActionEntry[] {
  return actions.flatMap((action) => {
    const entries = action.action === "inquire" ? action[slot] : undefined;
    return Array.isArray(entries) ? entries : [];
  });
}

/** The coverage of a case profile by the doctor actions asked so far. */
export function coverageOf(profile: DialogueState, actions: readonly DoctorAction[]): Coverage {
  const facts: CoverageFact[] = [];
  for (const [prefixed, entries] of Object.entries(profile)) {
    const split = splitPrefixedSlot(prefixed);
    if (!split) continue;
    const slot = split.slot.name;
    const status = split.status;
    const asked = inquiriesAbout(actions, slot);
    const medical = split.slot.group === "medical";
    for (const entry of entries) {
      const naming = medical ? asked.filter((candidate) => candidate.value === entry.value) : asked;
      const open =
        medical &&
        status !== null &&
        PRESENT.has(status) &&
        asked.some((candidate) => candidate.value === undefined || OPEN_VALUES.has(candidate.value));
      const checks = new Set(naming.flatMap((candidate) => (candidate.checks ?? []).map((check) => check.type ?? "")));
      const attributes =
        medical && status !== null && PRESENT.has(status)
          ? Object.keys(entry)
              .filter((name) => name !== "value")
              .map((name) => ({ name, asked: askingChecks(name).some((type) => checks.has(type)) }))
          : [];
      facts.push({ slot, status, label: labelOf(entry, slot), asked: naming.length > 0 || open, attributes });
    }
  }
  const total = facts.reduce((sum, fact) => sum + 1 + fact.attributes.length, 0);
  const done = facts.reduce(
    (sum, fact) => sum + (fact.asked ? 1 : 0) + fact.attributes.filter((attribute) => attribute.asked).length,
    0,
  );
  return { facts, asked: done, total, percent: total === 0 ? 100 : Math.round((100 * done) / total) };
}
