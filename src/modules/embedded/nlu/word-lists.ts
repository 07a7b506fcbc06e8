import { loadOntologyFile } from "../../../ontology/ontology-files.ts";

/**
 * The closed word classes of `ontology/word-lists.json`, compiled once: who else a sentence can be
 * about (relatives by the forms `lexicon.json` gives their relations), function words, hesitations,
 * number words. Every pattern of the NLU that names people is built from these lists, so a relation
 * form added to the lexicon is recognised everywhere.
 */

const file = loadOntologyFile("word-lists.json");
const relations = loadOntologyFile("lexicon.json").relations;

/**
 * The forms of lexicon relations, e.g. `["mother"]` → mother, mom, mum, mommy, mama. Two-letter forms
 * ("ma", "pa") are left out: as whole words they collide with "ma'am" and initials.
 */
function relationForms(names: readonly string[]): string[] {
  return names.flatMap((name) => {
    const forms = relations[name];
    if (!forms) throw new Error(`ontology/word-lists.json: '${name}' is not a relation of ontology/lexicon.json`);
    return [name, ...forms].filter((form) => form.length > 2);
  });
}

const relatives = {
  blood: relationForms(file.relation_groups.blood_relatives),
  children: relationForms(file.relation_groups.children),
  partners: relationForms(file.relation_groups.partners),
};

/** People words by group. */
export const PEOPLE = {
  /** Parents, siblings, grandparents, aunts, uncles, cousins ("mom", "my older brother"). */
  bloodRelatives: relatives.blood,
  children: relatives.children,
  partners: relatives.partners,
  /** Every relative: blood relatives, children and partners. */
  relatives: [...relatives.blood, ...relatives.children, ...relatives.partners],
  /** "family", "relatives". */
  family: file.people.family,
  housemates: file.people.housemates,
  workmates: file.people.workmates,
  others: file.people.others,
  thirdPerson: file.people.third_person,
} as const;

/** Phrases that put an illness in the family ("runs in the family", "hereditary"). */
export const HEREDITY = file.heredity;

/** Words that never say what a question is about. */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set(file.function_words);
/** Question verbs and nouns that name no value ("noticed", "any changes"). */
export const QUESTION_VERBS: ReadonlySet<string> = new Set(file.question_verbs);
/** Hesitations removed from transcribed speech. */
export const HESITATIONS: ReadonlySet<string> = new Set(file.hesitations);
/** Hedges and fillers a multi-word form may skip over. */
export const SKIPPABLE_WORDS: ReadonlySet<string> = new Set(file.skippable);
/** Cardinals written as words → their value. */
export const NUMBER_WORDS: Readonly<Record<string, number>> = file.number_words;

/**
 * A regular expression source matching any of `phrases` as whole words, longest first; spaces
 * match any run of whitespace. `wordsPattern(["mom", "my dad"])` → `\b(?:my\s+dad|mom)\b`.
 */
export function wordsPattern(...lists: ReadonlyArray<readonly string[]>): string {
  const phrases = [...new Set(lists.flat())].sort((a, b) => b.length - a.length);
  const escaped = phrases.map((phrase) => phrase.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s+"));
  return `\\b(?:${escaped.join("|")})\\b`;
}
