import { loadOntologyFile } from "../ontology/ontology-files.ts";

/**
 * The medicines a patient said they are allergic to, with the reaction when they said it. CMAS records
 * an allergy as "drug allergy" without the drug, which is of little use to whoever prescribes next:
 * the note names the drug from the patient's own words. A clause counts when it has an allergy cue and
 * names a medicine of `ontology/medicines.json`, and does not deny the allergy.
 */

/** A drug allergy as the patient told it: the drug as they named it, and the reaction (null when not said). */
export interface SaidAllergy {
  readonly substance: string;
  readonly reaction: string | null;
}

/**
 * Where a clause ends: a sentence's end, a semicolon, or "but". Example: "no allergies that I know of,
 * but penicillin gives me a rash" → "no allergies that I know of," and "penicillin gives me a rash".
 */
const CLAUSE_BREAK = /[.!?;]+|\bbut\b/i;

/**
 * An allergy cue: the words, or a drug that brings on an allergic reaction. Example: "allergic to", "a
 * reaction to", "anaphylaxis", "gives me a rash", "brought me out in hives", "makes my lips swell".
 */
const ALLERGY_CUE =
  /\b(?:allergic|allerg(?:y|ies) to|(?:a |bad |severe |an allergic )?reactions? to|react(?:s|ed)? (?:badly )?to|anaphyla\w*|(?:gives?|gave|brings?|brought|makes?|made|causes?|caused) (?:me|my|him|her)\b[^,]*?\b(?:rash\w*|hives|swell\w*|itch\w*|wheez\w*|out in|blister\w*))/i;

/** The allergy denied. Example: "not allergic", "no allergies", "never had a reaction". */
const DENIED = /\b(?:not|no|never|n't|nothing)\b(?:\s+\w+){0,2}?\s+(?:allerg|reaction)/i;

/** The reaction named. Example: "rash" of "gives me a rash", "hives", "swelling", "anaphylaxis". */
const REACTION =
  /\b(rash|hives|swelling|swollen|swells?|itch(?:y|ing)?|wheez(?:y|ing|e)|anaphyla(?:xis|ctic shock)|blisters|(?:can|could)(?:n'?t| ?not) breathe)\b/i;

let medicineWords: ReadonlyArray<readonly [said: string, pattern: RegExp]> | undefined;

/** Each word a patient may say for a medicine, with its whole-word pattern (longest first). */
function saidMedicines(): ReadonlyArray<readonly [string, RegExp]> {
  medicineWords ??= loadOntologyFile("medicines.json")
    .medicines.flatMap((medicine) => medicine.said)
    .sort((a, b) => b.length - a.length)
    .map((said) => [said, new RegExp(`\\b${said.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "i")] as const);
  return medicineWords;
}

/** The drug allergies told in some patient turns, each drug once, in the order told. */
export function allergiesSaid(patientTurns: readonly string[]): SaidAllergy[] {
  const found = new Map<string, SaidAllergy>();
  for (const clause of patientTurns.flatMap((turn) => turn.split(CLAUSE_BREAK))) {
    if (!ALLERGY_CUE.test(clause) || DENIED.test(clause)) continue;
    const reaction = REACTION.exec(clause)?.[1]?.toLowerCase() ?? null;
    for (const [said, pattern] of saidMedicines())
      if (pattern.test(clause) && ![...found.keys()].some((known) => known.includes(said.toLowerCase())))
        found.set(said.toLowerCase(), { substance: said.toLowerCase(), reaction });
  }
  return [...found.values()];
}
