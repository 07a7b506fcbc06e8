import type { AnalysedText } from "./analysed-text.ts";
import type { Concept, Lexicon } from "./lexicon.ts";

/**
 * Concept mentions of an utterance: lexicon phrases, longest first, plus phrases that only count
 * while the doctor asks about their slot (`contextSlots`), which fill gaps the general phrases leave.
 */

export interface Mention {
  /** Candidate concepts of the phrase (usually one; several when a phrase is shared by slots). */
  readonly concepts: readonly Concept[];
  /** Token range `[start, end)`. */
  readonly start: number;
  readonly end: number;
}

/** "drinking some tea", "do you drink coffee?": a drink that is not alcohol. */
const SOFT_DRINK =
  /^(?:(?:some|lots|of|a|lot|more|plenty|hot|warm|cold|like|any|much)\s+)*(?:tea|water|fluids?|juice|coffee|milk|soup|honey|lemon|ginger|broth|liquids?|gatorade|pop|soda|energy\s+drinks?)\b/;

function isSoftDrink(analysed: AnalysedText, concepts: readonly Concept[], start: number, end: number): boolean {
  if (
    !concepts.some((concept) => concept.value === "alcohol abuse") ||
    !/^(?:drink|drank)/.test(analysed.tokens[start]!.text)
  )
    return false;
  return SOFT_DRINK.test(analysed.text.slice(analysed.tokens[end - 1]!.end).trim());
}

/** Concept mentions in text order; `contextSlots` admits the slot-restricted phrases of those slots. */
export function findMentions(lexicon: Lexicon, analysed: AnalysedText, contextSlots: Iterable<string> = []): Mention[] {
  const mentions: Mention[] = lexicon.concepts
    .findAll(analysed.tokens)
    .filter((match) => !isSoftDrink(analysed, match.payloads, match.start, match.end))
    .map((match) => ({
      concepts: upgrade(lexicon, analysed, match.payloads, match.start),
      start: match.start,
      end: match.end,
    }));
  for (const slot of contextSlots) {
    const index = lexicon.contextConcepts.get(slot);
    if (!index || index.entries === 0) continue;
    for (const match of index.findAll(analysed.tokens)) {
      if (mentions.some((mention) => match.start < mention.end && mention.start < match.end)) continue;
      mentions.push({ concepts: match.payloads, start: match.start, end: match.end });
    }
  }
  return mentions.sort((a, b) => a.start - b.start);
}

/** Generic concepts made specific by a word of their sentence ("allergic to codeine" → drug allergy). */
function upgrade(
  lexicon: Lexicon,
  analysed: AnalysedText,
  concepts: readonly Concept[],
  at: number,
): readonly Concept[] {
  if (!concepts.some((concept) => lexicon.upgrades.some((rule) => rule.value === concept.value))) return concepts;
  const [start, end] = analysed.sentences.find(([from, to]) => at >= from && at < to) ?? [0, analysed.tokens.length];
  const words = new Set(analysed.tokens.slice(start, end).map((token) => token.text));
  return concepts.map((concept) => {
    const rule = lexicon.upgrades.find(
      (candidate) => candidate.value === concept.value && [...candidate.when].some((word) => words.has(word)),
    );
    return rule ? { ...concept, value: rule.becomes } : concept;
  });
}

/** Per token, whether it lies inside a mention (cues inside a concept phrase are part of it). */
export function conceptMask(tokenCount: number, mentions: readonly Mention[]): boolean[] {
  const mask = new Array<boolean>(tokenCount).fill(false);
  for (const mention of mentions) for (let index = mention.start; index < mention.end; index += 1) mask[index] = true;
  return mask;
}

/** Token spans where the utterance names `value` itself (a symptom is not its own trigger). */
export function ownMentions(lexicon: Lexicon, analysed: AnalysedText, value: string): Mention[] {
  return findMentions(lexicon, analysed).filter((mention) =>
    mention.concepts.some((concept) => concept.value === value),
  );
}
