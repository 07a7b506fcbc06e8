import { sentenceOf, textOf } from "../analysed-text.ts";
import { lexiconFile } from "../lexicon.ts";
import type { TurnRecord } from "../turn-record.ts";
import { wordsPattern } from "../word-lists.ts";

/**
 * Pass "allergic reactions": "Penicillin gives me a rash", "I break out in hives if I take sulfa",
 * "Peanuts make my lips swell up". A reaction the patient gets from a drug or a food is an allergy
 * (`medical_history`: drug allergy, food allergy), whatever the question was: the rash is not a
 * current symptom and the drug is not a medication taken.
 */

/** Generic words of the allergen lists: they name a class ("food makes me bloated"), not an allergen. */
const GENERIC_ALLERGEN_WORDS = new Set(["drug", "drugs", "medication", "medications", "medicine", "medicines", "meds", "food", "foods"]);

/** The allergy concepts with the specific allergen words of `ontology/lexicon.json` (drug and food). */
const ALLERGEN_WORDS: ReadonlyArray<readonly [value: string, words: RegExp]> = (["drug allergy", "food allergy"] as const).map((value) => [
  value,
  new RegExp(wordsPattern((lexiconFile.allergens[value] ?? []).filter((word) => !GENERIC_ALLERGEN_WORDS.has(word)))),
]);

/**
 * How a reaction is said: "gives me", "makes my", "brings me out in", "if I take", "when I eat",
 * "reaction to", "can't take". Example: "amoxicillin makes me come out in hives".
 */
const REACTION_CUE =
  /\b(?:gives? me|gave me|makes? me|made me|makes? my|made my|brings? me out|brought me out|react(?:s|ed)? (?:to|badly)|reaction to|(?:if|when|whenever|after) i (?:take|took|eat|ate|have|had)|can(?:'t|not) (?:take|have|eat)|allergic)\b/;

/** A sentence saying the drug helps ("Tylenol gives me some relief"): a treatment, not a reaction. */
const HELPS = /\b(?:help|helps|helped|relief|relieves|better|easier|settles?)\b/;

/** The allergy a sentence reports, or undefined. */
function allergyOf(turn: TurnRecord, sentence: string, start: number, end: number): string | undefined {
  if (!REACTION_CUE.test(sentence) || HELPS.test(sentence)) return undefined;
  const inSentence = turn.found.filter(({ mention }) => mention.start >= start && mention.start < end);
  const reacts = /\b(?:allergic|reaction|react)/.test(sentence) || inSentence.some(({ entry }) => entry.base === "symptom" && entry.status === "positive");
  if (!reacts) return undefined;
  if (inSentence.some(({ entry }) => entry.base === "medication")) return "drug allergy";
  return ALLERGEN_WORDS.find(([, words]) => words.test(sentence))?.[0];
}

/** Reads each sentence that reports a reaction to a drug or food as that allergy. */
export function readAllergicReactions(turn: TurnRecord): void {
  const { analysed, entries } = turn;
  const seen = new Set<number>();
  for (const [start, end] of analysed.sentences) {
    if (seen.has(start)) continue;
    seen.add(start);
    const allergy = allergyOf(turn, textOf(analysed, start, end), start, end);
    if (!allergy) continue;
    const reaction = turn.found.filter(({ mention }) => mention.start >= start && mention.start < end && sentenceOf(analysed, mention.start)[0] === start);
    for (const found of reaction) {
      if (found.entry.base !== "symptom" && found.entry.base !== "medication") continue;
      entries.remove(found.entry);
      turn.found.splice(turn.found.indexOf(found), 1);
    }
    const entry = entries.add("medical_history", "positive", allergy);
    if (entry) turn.found.push({ mention: { start, end }, entry });
  }
}
