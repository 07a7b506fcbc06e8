import type { AnalysedText } from "./analysed-text.ts";
import type { Lexicon } from "./lexicon.ts";

/**
 * Body locations named in a token range, as canonical location names ("in your legs or arms" →
 * ["leg", "upper extremity"], "calves" → ["structure of calf of leg"]), in the order said.
 */
export function extractLocations(lexicon: Lexicon, analysed: AnalysedText, from: number, to: number): string[] {
  const found: string[] = [];
  for (const match of lexicon.locations.findAll(analysed.tokens, from, to)) {
    for (const location of match.payloads) if (!found.includes(location)) found.push(location);
  }
  return found;
}
