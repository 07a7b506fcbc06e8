import type { TrainingData } from "../training-data.ts";
import { conversationVocabulary } from "./conversation-vocabulary.ts";
import { buildMinedLexicon, type Lexicon } from "./lexicon.ts";
import { spellerTables, type SpellerTables } from "./spelling.ts";
import { mineTraining, type MinedKnowledge } from "./training-mining.ts";

/**
 * What the NLU's resources are made from, as data (no closures), so that a build can keep them
 * (`nlu-snapshot.ts`): the lexicon with what the training dialogues add, the mined knowledge, and the
 * speller's tables.
 */
export interface NluTables {
  readonly lexicon: Lexicon;
  readonly mined: MinedKnowledge;
  readonly speller: SpellerTables;
}

/** Builds the NLU's tables from the training dialogues. */
export function buildNluTables(training: TrainingData): NluTables {
  const { lexicon, mined } = buildMinedLexicon((base) => mineTraining(training, base));
  const speller = spellerTables(lexicon.words, [...mined.vocabulary, ...conversationVocabulary()]);
  return { lexicon, mined, speller };
}
