import type { ReadingStatusName } from "../../../../cmas/cmas-names.ts";

/**
 * Negation and uncertainty cues as a rule table (NegEx-style, read by `negation.ts`): each rule a
 * named set of cue words or phrases with the example it exists for. A `negation` or `uncertainty`
 * cue before a mention, in its clause, decides its status; a `pseudo-negation` phrase looks like a
 * denial and denies nothing; an `after-mention` cue denies what comes right before it; a `hedged-denial`
 * phrase denies although it starts like an uncertainty ("I can't say I've had a fever").
 * `tests/modules/embedded/nlu/negation-cue-rules.test.ts` reads every example.
 */

export interface CueRule {
  readonly name: string;
  readonly kind: "negation" | "hedged-denial" | "uncertainty" | "pseudo-negation" | "after-mention";
  /** Cue phrases as token texts (one-word cues are one-element phrases). */
  readonly phrases: ReadonlyArray<readonly string[]>;
  /** The utterance the rule exists for, the concept value it speaks of, and the status it gets. */
  readonly example: { readonly utterance: string; readonly value: string; readonly status: ReadingStatusName };
}

const words = (...list: string[]): string[][] => list.map((word) => [word]);

export const NEGATION_CUE_RULES: readonly CueRule[] = [
  {
    name: "denial words",
    kind: "negation",
    phrases: words(
      "no",
      "not",
      "never",
      "without",
      "none",
      "nothing",
      "neither",
      "nor",
      "denies",
      "deny",
      "denied",
      "nope",
      "nah",
      "nobody",
      "haven't",
      "hasn't",
      "hadn't",
      "don't",
      "doesn't",
      "didn't",
      "isn't",
      "aren't",
      "wasn't",
      "weren't",
      "won't",
      "wouldn't",
      "couldn't",
      "cannot",
      "can't",
      "ain't",
    ),
    example: { utterance: "I haven't had any fevers.", value: "fever", status: "negative" },
  },
  {
    name: "hedges",
    kind: "uncertainty",
    phrases: words("maybe", "possibly", "perhaps", "might", "probably", "unsure", "possible"),
    example: { utterance: "Maybe a fever last night.", value: "fever", status: "unknown" },
  },
  {
    name: "not sure",
    kind: "uncertainty",
    phrases: [
      ["not", "sure"],
      ["don't", "know"],
      ["not", "certain"],
      ["could", "be"],
      ["i", "guess"],
      ["hard", "to", "say"],
      ["no", "idea"],
      ["i", "wonder"],
      ["not", "too", "sure"],
      ["i'm", "not", "sure"],
      // "I couldn't tell you", "she can't say", "he doesn't know": unknown, never the denial "can't" alone would be.
      ["can't", "say"],
      ["cannot", "say"],
      ["couldn't", "say"],
      ["can't", "tell"],
      ["cannot", "tell"],
      ["couldn't", "tell"],
      ["doesn't", "know"],
      ["wouldn't", "know"],
      ["do", "not", "know"],
      ["does", "not", "know"],
    ],
    example: { utterance: "I'm not sure if it was a fever.", value: "fever", status: "unknown" },
  },
  {
    name: "can't say I have",
    kind: "hedged-denial",
    phrases: [
      ["can't", "say", "i"],
      ["cannot", "say", "i"],
      ["couldn't", "say", "i"],
      ["can't", "say", "i've"],
      ["cannot", "say", "i've"],
      ["couldn't", "say", "i've"],
    ],
    example: { utterance: "I can't say I've noticed any cough.", value: "coughing", status: "negative" },
  },
  {
    name: "not only",
    kind: "pseudo-negation",
    phrases: [
      ["not", "only"],
      ["not", "just"],
      ["no", "doubt"],
      ["no", "matter"],
      ["not", "that", "much"],
    ],
    example: { utterance: "It's not just the cough, I also have a fever.", value: "coughing", status: "positive" },
  },
  {
    name: "can't stop",
    kind: "pseudo-negation",
    phrases: [
      ["can't", "stop"],
      ["cannot", "stop"],
      ["couldn't", "stop"],
      ["won't", "stop"],
      ["doesn't", "stop"],
      ["didn't", "stop"],
      ["haven't", "stopped"],
      ["hasn't", "stopped"],
      ["never", "stops"],
    ],
    example: { utterance: "I can't stop coughing.", value: "coughing", status: "positive" },
  },
  {
    name: "no help",
    kind: "pseudo-negation",
    phrases: [
      ["no", "help"],
      ["no", "relief"],
      ["no", "difference"],
      ["not", "help"],
      ["didn't", "help"],
      ["doesn't", "help"],
      ["hasn't", "helped"],
      ["haven't", "helped"],
      ["not", "helping"],
    ],
    example: { utterance: "Tylenol gives no relief for my headaches.", value: "headache", status: "positive" },
  },
  {
    name: "not meant",
    kind: "pseudo-negation",
    phrases: [
      ["without", "trying"],
      ["without", "even", "trying"],
      ["without", "meaning"],
      ["without", "dieting"],
      ["not", "on", "purpose"],
      ["not", "trying"],
      ["wasn't", "trying"],
    ],
    example: {
      utterance: "Without even trying I have lost weight.",
      value: "unexplained weight loss",
      status: "positive",
    },
  },
  {
    name: "denied after the mention",
    kind: "after-mention",
    phrases: [["none"], ["not", "at", "all"]],
    example: { utterance: "Chest pain, not at all.", value: "chest pain", status: "negative" },
  },
];

/** The cue phrases of one kind, in table order. */
export function cuePhrases(kind: CueRule["kind"]): ReadonlyArray<readonly string[]> {
  return NEGATION_CUE_RULES.filter((rule) => rule.kind === kind).flatMap((rule) => rule.phrases);
}
