import { loadOntologyFile } from "../ontology/ontology-files.ts";

/**
 * How the doctor's and the patient's words name a canonical value (`ontology/lay-terms.json`): shared
 * by the embedded NLG, the simulated patient and practice mode, so each says "breathlessness" for
 * `dyspnea` in the same way.
 */

const layTerms = loadOntologyFile("lay-terms.json").terms;

/** How a canonical value is said to a patient; UMLS body-structure names lose their anatomy wording ("structure of calf of leg" → "calf"). */
export function layTerm(value: string): string {
  return layTerms[value] ?? value.replace(/^(?:entire |set of )?structure of (?:the )?(.+?)(?: of .+)?$/, "$1");
}

/** How a value of a slot is said; placeholders such as `other` or `all` are worded by the slot. */
export function spokenValue(slot: string | undefined, value: string): string {
  return layTerms[`${slot}:${value}`] ?? layTerm(value);
}

/** How a value is said when a detail of it is asked ("where is the headache?", not "the headaches"). */
export function detailTerm(slot: string | undefined, value: string): string {
  return layTerms[`detail:${value}`] ?? spokenValue(slot, value);
}

/** "a", "a or b", "a, b or c". */
export function joinAlternatives(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

const wholeWord = (words: string): RegExp => new RegExp(`\\b${words.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "i");

/**
 * Whether a doctor turn names a value of a slot, as the value itself or as the NLG says it to the
 * patient ("inhalers" for bronchodilator agents), as whole words ("iron", not "environment").
 */
export function namesValue(text: string, slot: string, value: string): boolean {
  return wholeWord(value).test(text) || wholeWord(spokenValue(slot, value)).test(text);
}
