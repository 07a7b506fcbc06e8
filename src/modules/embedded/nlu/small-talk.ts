import type { AnalysedText } from "./analysed-text.ts";

/**
 * The intent of a patient turn that informs nothing: `nod_prompt_salutations` for acknowledgements and
 * greetings ("Yeah yeah.", "Alright", "Hi"), `chit-chat` for anything longer (answers to "any
 * questions?", thanks with a remark, stories). The acknowledgement words start from a built-in list
 * and grow with the training dialogues' nods.
 */

export type SmallTalkIntent = "nod_prompt_salutations" | "chit-chat";

const ACKNOWLEDGEMENTS = [
  "yeah",
  "yes",
  "yep",
  "yup",
  "ok",
  "okay",
  "alright",
  "right",
  "sure",
  "mhm",
  "mm",
  "hmm",
  "uh-huh",
  "huh",
  "great",
  "good",
  "perfect",
  "cool",
  "fine",
  "sounds",
  "got",
  "it",
  "i",
  "see",
  "understand",
  "understood",
  "exactly",
  "correct",
  "true",
  "hi",
  "hello",
  "hey",
  "bye",
  "goodbye",
  "morning",
  "afternoon",
  "oh",
  "that's",
  "thats",
  "makes",
  "sense",
  "will",
  "do",
  "of",
  "course",
  "no",
  "problem",
  "definitely",
  "absolutely",
  "all",
  "gotcha",
  "k",
  "so",
  "well",
  "there",
  "doc",
  "doctor",
  "thanks",
  "thank",
  "you",
  "please",
  "nice",
  "meet",
  "to",
  "too",
  "take",
  "care",
];

/** Decides between `nod_prompt_salutations` and `chit-chat`. */
export class SmallTalkClassifier {
  private readonly acknowledgements: Set<string>;

  constructor(
    learned: Iterable<string> = [],
    private readonly maxWords = 4,
  ) {
    this.acknowledgements = new Set([...ACKNOWLEDGEMENTS, ...learned]);
  }

  classify(analysed: AnalysedText): SmallTalkIntent {
    const words = analysed.tokens.filter((token) => token.kind !== "punct").map((token) => token.text);
    if (words.length <= this.maxWords && words.every((word) => this.acknowledgements.has(word)))
      return "nod_prompt_salutations";
    return "chit-chat";
  }
}
