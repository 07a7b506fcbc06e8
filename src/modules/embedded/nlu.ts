import type { NluModule } from "../types.ts";
import { analyseText } from "./nlu/analysed-text.ts";
import { DialogueContextReader } from "./nlu/dialogue-context.ts";
import { interpretTurn } from "./nlu/interpret.ts";
import { buildLexicon } from "./nlu/lexicon.ts";
import { SmallTalkClassifier } from "./nlu/small-talk.ts";
import { createSpellingCorrector } from "./nlu/spelling.ts";
import { mineTraining } from "./nlu/training-mining.ts";
import type { TrainingData } from "./training-data.ts";

/**
 * The embedded offline NLU: patient utterance (+ dialogue history) → MediTOD NLU frames, with no
 * network and no model weights, deterministic.
 *
 * Built once from our lexicon (`ontology/lexicon.json`), the annotation tool's value lists and what
 * the training dialogues add (value names, question exemplars, acknowledgements, vocabulary); each
 * turn then costs a phrase-trie pass, a few regexes and cached history summaries.
 */
export function buildEmbeddedNlu(training: TrainingData): NluModule {
  const mined = mineTraining(training, buildLexicon());
  const lexicon = buildLexicon(mined.additions);
  const speller = createSpellingCorrector(lexicon.words, mined.vocabulary);
  const correct = (word: string) => speller.correct(word);
  const reader = new DialogueContextReader({ lexicon, correct, memory: mined.memory });
  const smallTalk = new SmallTalkClassifier(mined.acknowledgements);
  return {
    id: "embedded",
    async understand(input) {
      const started = performance.now();
      const context = reader.read(input.history);
      const frames = interpretTurn({ lexicon, smallTalk }, analyseText(input.utterance, correct), context);
      return { frames, latencyMs: performance.now() - started };
    },
  };
}
