import { splitPrefixedSlot } from "../../../cmas/ontology.ts";
import type { TrainingData } from "../training-data.ts";
import { analyseText } from "./analysed-text.ts";
import { findMentions } from "./concept-mentions.ts";
import {
  isMedicalSlot,
  NON_LEXICAL_VALUES,
  type Concept,
  type Lexicon,
  type LexiconAdditions,
  type MedicalSlot,
} from "./lexicon.ts";
import { CLOSING } from "./question-analysis.ts";
import { QuestionMemory } from "./question-memory.ts";
import { FUNCTION_WORDS, QUESTION_VERBS } from "./word-lists.ts";

/**
 * What the embedded NLU learns from the training dialogues (and nothing else):
 * - the annotated values themselves, as concepts named by their canonical name;
 * - surface forms of values the lexicon misses: when a doctor question inquires about exactly one
 *   value and no lexicon phrase explains it, its few remaining content words become a form of it;
 * - a memory of doctor questions and what they asked (for questions with no lexicon hit);
 * - the words patients acknowledge with, and the vocabulary of the transcripts (never spell-corrected).
 */

export interface MinedKnowledge {
  readonly additions: LexiconAdditions;
  readonly memory: QuestionMemory;
  readonly acknowledgements: ReadonlySet<string>;
  readonly vocabulary: ReadonlySet<string>;
}

const QUESTION_WORDS: ReadonlySet<string> = new Set([...FUNCTION_WORDS, ...QUESTION_VERBS]);
// Answer and discourse words ("OK, no?") say nothing about which value was asked.
const ANSWER_WORDS = new Set(
  "no not nope nah yes yeah yep yup right sure oh ah well hmm mm sorry great good fine".split(" "),
);

type Frameish = { slots?: Record<string, ReadonlyArray<Record<string, unknown>>> };

function valuesOfFrames(frames: readonly Frameish[]): Array<{ slot: MedicalSlot; value: string }> {
  const found: Array<{ slot: MedicalSlot; value: string }> = [];
  for (const frame of frames) {
    for (const [prefixed, entries] of Object.entries(frame.slots ?? {})) {
      const base = splitPrefixedSlot(prefixed)?.slot.name;
      if (base === undefined || !isMedicalSlot(base)) continue;
      for (const entry of entries) if (typeof entry.value === "string") found.push({ slot: base, value: entry.value });
    }
  }
  return found;
}

/** Family-history values are diseases: they are recognised as medical-history concepts and moved by context. */
function conceptOf(slot: MedicalSlot, value: string): Concept {
  return { slot: slot === "family_history" ? "medical_history" : slot, value };
}

/** Mines concepts, question exemplars, acknowledgements and vocabulary from the training dialogues. */
export function mineTraining(training: TrainingData, baseLexicon: Lexicon): MinedKnowledge {
  const concepts: Array<{ concept: Concept; form: string }> = [];
  const memory = new QuestionMemory();
  const acknowledgements = new Set<string>();
  const vocabulary = new Set<string>();

  for (const dialogue of training.dialogues) {
    for (const utterance of dialogue.utterances) {
      for (const word of utterance.text.toLowerCase().match(/[a-z]+/g) ?? []) vocabulary.add(word);
      if (utterance.speaker === "patient") {
        for (const { slot, value } of valuesOfFrames(utterance.nlu))
          if (!NON_LEXICAL_VALUES.has(value)) concepts.push({ concept: conceptOf(slot, value), form: value });
        const intents = utterance.nlu.map((frame) => frame.intent);
        if (intents.length === 1 && intents[0] === "nod_prompt_salutations") {
          const words = utterance.text.toLowerCase().match(/[a-z']+/g) ?? [];
          if (words.length <= 4) for (const word of words) acknowledgements.add(word);
        }
        continue;
      }
      memory.add(utterance.text, utterance.actions);
      const inquired = utterance.actions
        .filter((action) => action.action === "inquire")
        .flatMap((action) =>
          Object.entries(action).filter(
            ([slot, entries]) => slot !== "action" && isMedicalSlot(slot) && Array.isArray(entries),
          ),
        )
        .flatMap(([slot, entries]) =>
          (entries as Array<{ value?: string }>).map((entry) => ({ slot: slot as MedicalSlot, value: entry.value })),
        )
        .filter(
          (item): item is { slot: MedicalSlot; value: string } =>
            typeof item.value === "string" && !NON_LEXICAL_VALUES.has(item.value),
        );
      for (const { slot, value } of inquired) concepts.push({ concept: conceptOf(slot, value), form: value });
      if (inquired.length !== 1) continue;
      // The question's last sentence; if the lexicon explains nothing in it, its content words name the value.
      const sentences = utterance.text.split(/(?<=[.?!])\s+/);
      const last = analyseText(sentences[sentences.length - 1] ?? utterance.text);
      // "How does that sound?" after a plan names nothing the plan was about.
      if (findMentions(baseLexicon, last).length > 0 || CLOSING.test(last.text)) continue;
      const content = last.tokens.filter(
        (token) => token.kind === "word" && !QUESTION_WORDS.has(token.text) && !ANSWER_WORDS.has(token.text),
      );
      if (content.length >= 1 && content.length <= 3)
        concepts.push({
          concept: conceptOf(inquired[0]!.slot, inquired[0]!.value),
          form: content.map((token) => token.text).join(" "),
        });
    }
  }
  return { additions: { concepts }, memory, acknowledgements, vocabulary };
}
