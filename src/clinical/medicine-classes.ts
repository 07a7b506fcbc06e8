import { loadOntologyFile } from "../ontology/ontology-files.ts";

/**
 * Which medicine the patient named a medication slot's entry stands for: MediTOD's values are mostly
 * drug classes ("antihypertensive agents" for "ramipril"), so the note lists the named medicine once,
 * with what the entry adds (whether it helped, what for), instead of the class beside it. An entry
 * stands for a named medicine when one of the words the patient may say for that medicine
 * (`ontology/medicines.json`) is, or holds, one of the entry value's surface forms
 * (`ontology/lexicon.json`: "ventolin inhaler" holds "ventolin" of albuterol and "inhaler" of
 * bronchodilator agents).
 */

let saidFor: ReadonlyMap<string, readonly string[]> | undefined;

/** The words a patient may say for each named medicine (by the name the note writes). */
function wordsOf(name: string): readonly string[] {
  saidFor ??= new Map(loadOntologyFile("medicines.json").medicines.map((medicine) => [medicine.name, medicine.said]));
  return saidFor.get(name) ?? [name];
}

/** Whether `phrase` is `form` or holds it as whole words. Example: "ventolin inhaler" holds "inhaler". */
function holds(phrase: string, form: string): boolean {
  return ` ${phrase} `.includes(` ${form.toLowerCase()} `);
}

/** The index of the named medicine a medication value stands for, or -1 when it stands for none of them. */
export function namedMedicineOf(value: string, named: readonly string[]): number {
  const forms = loadOntologyFile("lexicon.json").concepts.medication?.[value] ?? [];
  const names = [value, ...forms];
  return named.findIndex((name) => wordsOf(name).some((said) => names.some((form) => holds(said, form))));
}
