import * as z from "zod";

/** The zod schema of `ontology/word-lists.json`: closed word classes of the embedded NLU. */

const words = z.array(z.string().min(1)).min(1);

export const wordListsSchema = z.strictObject({
  description: z.string(),
  /** Groups of relation names of `lexicon.json` (their forms are the words). */
  relation_groups: z.strictObject({ blood_relatives: words, children: words, partners: words }),
  /** People other than the patient and their relatives. */
  people: z.strictObject({ family: words, housemates: words, workmates: words, others: words, third_person: words }),
  /** Phrases that put an illness in the family ("runs in the family"). */
  heredity: words,
  /** Words that never say what a question is about. */
  function_words: words,
  /** Question verbs and nouns that say nothing about which value is asked ("noticed any changes"). */
  question_verbs: words,
  /** Hesitations removed from transcribed speech. */
  hesitations: words,
  /** Hedges and fillers a multi-word form may skip over ("not [really] able to smell"). */
  skippable: words,
  /** Cardinals written as words. */
  number_words: z.record(z.string(), z.number().int().nonnegative()),
});
