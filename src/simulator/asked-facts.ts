import { slotDefinition } from "../cmas/ontology.ts";
import type { ActionEntry, DialogueState, DoctorAction } from "../cmas/schemas.ts";
import { actionSlots } from "../language/action-signature.ts";
import { askedCheckTypes } from "../language/pain-radiation.ts";
import { askingChecks, caseFacts, factId, isPresent, type CaseFact } from "./case-facts.ts";

/**
 * What a doctor's question asks of a case, fact by fact: for each slot entry the doctor's CMAS actions
 * inquire about, the facts of the case that answer it, or that the case does not say. Pure: the same
 * case, question and facts told so far give the same answer.
 *
 * - A social or demographic slot ("What do you do for work?") asks its fact.
 * - An open question on a medical slot ("Any other symptoms?", "Do you take any medicines?") asks the
 *   present entries of that slot not yet told; when all are told, the case's own answer to the open
 *   question (`negative_medication: other`, "no, nothing else"), if it has one, else nothing stated.
 * - A named value asks its entry; with checks ("when did the cough start?"), the entry's attributes those
 *   checks ask for, or — when the case records none of them — the entry (if not yet told) and an unknown detail.
 *   A denied or uncertain entry answers any check with its own line ("no cough").
 * - A question about "the pain" (the value `pain`) of a case that records its pain under a more precise
 *   value ("chest pain", "headache") asks each pain the case has ("where is the pain?" of a patient with
 *   chest pain asks where the chest pain is).
 * - A named value the case has no fact for may be a broader question one of its lines answers ("any heart
 *   problems in the family?" of a patient whose father had a heart attack): that line's fact.
 * - An entry the case does not state ("any rashes?", "heart problems in the family?") is unstated, and a
 *   detail it does not record (what eases a pain it has, a social fact it leaves out) is unknown: the
 *   patient is not sure of either (`scripted-patient.ts`).
 */

/** One item a question asks: a fact to tell, an entry the case does not state, or a detail it does not record. */
export type AskedItem = { readonly fact: string } | { readonly unstated: "entry" | "detail" };

const UNSTATED_ENTRY: AskedItem = { unstated: "entry" };
const UNKNOWN_DETAIL: AskedItem = { unstated: "detail" };
const OPEN_VALUES = new Set(["other", "all", "none"]);

/** The value of a question about a pain that names no site. */
const GENERIC_PAIN = "pain";

/**
 * A symptom value that is a pain, by its CMAS value.
 * Example: "chest pain", "headache", "earache" (not "heartburn", not "painful swallowing").
 */
const PAIN_VALUE = /\bpain$|ache$/;

/** A case's facts, looked up by id, by slot and by entry, and the broader questions its script's lines answer. */
export class FactIndex {
  readonly facts: readonly CaseFact[];
  private readonly byId: ReadonlyMap<string, CaseFact>;

  constructor(
    profile: DialogueState,
    private readonly answered: ReadonlyMap<string, readonly string[]> = new Map(),
  ) {
    this.facts = caseFacts(profile);
    this.byId = new Map(this.facts.map((fact) => [fact.id, fact]));
  }

  /** The facts whose lines answer a broader question (`family_history:heart diseases`). */
  answering(question: string): readonly string[] {
    return this.answered.get(question) ?? [];
  }

  get(id: string): CaseFact | undefined {
    return this.byId.get(id);
  }

  /** The entries (not attributes) of a medical slot. */
  entriesOf(slot: string): CaseFact[] {
    return this.facts.filter((fact) => fact.slot === slot && fact.attribute === undefined);
  }

  /** The attribute facts of an entry. */
  attributesOf(entry: string): CaseFact[] {
    return this.facts.filter((fact) => fact.entry === entry);
  }
}

/** What one entry of an inquiry asks. */
function askedOfEntry(index: FactIndex, slot: string, asked: ActionEntry, told: ReadonlySet<string>): AskedItem[] {
  const definition = slotDefinition(slot);
  if (!definition) return [UNKNOWN_DETAIL];
  if (definition.group !== "medical") return index.get(slot) ? [{ fact: slot }] : [UNKNOWN_DETAIL];
  if (asked.value === undefined || OPEN_VALUES.has(asked.value)) {
    const untold = index.entriesOf(slot).filter((fact) => isPresent(fact) && !told.has(fact.id));
    if (untold.length > 0) return untold.map((fact) => ({ fact: fact.id }));
    // "No, I don't take anything (else)": the case's own answer to the open question, when it has one.
    const whole = [...OPEN_VALUES].map((value) => index.get(factId(slot, value))).find((fact) => fact !== undefined);
    return whole ? [{ fact: whole.id }] : [UNSTATED_ENTRY];
  }
  const entry = index.get(factId(slot, asked.value));
  if (!entry && asked.value === GENERIC_PAIN) {
    const pains = index.entriesOf(slot).filter((fact) => isPresent(fact) && PAIN_VALUE.test(fact.value ?? ""));
    if (pains.length > 0)
      return pains.flatMap((pain) => askedOfEntry(index, slot, { ...asked, value: pain.value! }, told));
  }
  if (!entry) {
    const answering = index.answering(factId(slot, asked.value));
    return answering.length > 0 ? answering.map((fact) => ({ fact })) : [UNSTATED_ENTRY];
  }
  // "Does the pain spread anywhere?" asks where it goes (the `radiation` fact), not where it is.
  const checks = askedCheckTypes(asked.checks ?? []);
  if (checks.length === 0 || !isPresent(entry)) return [{ fact: entry.id }];
  const attributes = index
    .attributesOf(entry.id)
    .filter((fact) => askingChecks(fact.attribute!).some((type) => checks.includes(type)));
  if (attributes.length > 0) return attributes.map((fact) => ({ fact: fact.id }));
  return told.has(entry.id) ? [UNKNOWN_DETAIL] : [{ fact: entry.id }, UNKNOWN_DETAIL];
}

/** What a doctor's actions ask of a case, in the order asked (inquiries only; other actions ask nothing). */
export function askedItems(index: FactIndex, actions: readonly DoctorAction[], told: ReadonlySet<string>): AskedItem[] {
  return actions
    .filter((action) => action.action === "inquire")
    .flatMap((action) =>
      actionSlots(action).flatMap(([slot, entries]) =>
        entries.flatMap((entry) => askedOfEntry(index, slot, entry, told)),
      ),
    );
}
