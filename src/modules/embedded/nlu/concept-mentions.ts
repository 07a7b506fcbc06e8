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

export function findMentions(lexicon: Lexicon, analysed: AnalysedText, contextSlots: Iterable<string> = []): Mention[] {
  const mentions: Mention[] = lexicon.concepts.findAll(analysed.tokens).map((match) => ({ concepts: match.payloads, start: match.start, end: match.end }));
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

/** Per token, whether it lies inside a mention (cues inside a concept phrase are part of it). */
export function conceptMask(tokenCount: number, mentions: readonly Mention[]): boolean[] {
  const mask = new Array<boolean>(tokenCount).fill(false);
  for (const mention of mentions) for (let index = mention.start; index < mention.end; index += 1) mask[index] = true;
  return mask;
}
