import { clauseRange, textOf } from "../analysed-text.ts";
import { extractLocations } from "../body-locations.ts";
import type { TurnRecord } from "../turn-record.ts";

/**
 * Pass "site answers": "Any abdominal pain?" — "It's not in my abdomen, it's in my flank." An answer
 * that places the asked symptom somewhere reports it there (pain at the flank), whatever site the
 * question named; the site after "not in" is the one withdrawn. Found in self-play, where such
 * answers were read as small talk.
 */

/** "It's in my flank", "it's more in the ankle", "mostly in my back": the symptom placed at a site. */
const PLACED = /\b(?:it's|its|it is|that's|it's more|more|mostly|only|just)\s+(?:\w+\s+)?in\s+(?:my|the|your)\b/;

/** The token where a withdrawn site's clause starts ("not in my leg"), or -1. */
function withdrawnAt(turn: TurnRecord): number {
  const { tokens } = turn.analysed;
  return tokens.findIndex((token, index) => token.text === "not" && tokens[index + 1]?.text === "in");
}

/** Reads an answer placing the asked located symptom; the turn then answers the question. */
export function answerSites(turn: TurnRecord): void {
  const { analysed, context, entries, lexicon } = turn;
  const asked = context.question.items.find(
    (item) => item.slot === "symptom" && item.value !== undefined && item.location !== undefined,
  );
  if (
    !asked ||
    turn.itemsAnswered ||
    turn.found.some(({ entry }) => entry.base === "symptom") ||
    !PLACED.test(analysed.text)
  )
    return;
  const notAt = withdrawnAt(turn);
  const withdrawn = notAt < 0 ? [] : extractLocations(lexicon, analysed, ...clauseRange(analysed, notAt));
  const sites = extractLocations(lexicon, analysed, 0, analysed.tokens.length).filter(
    (site) => !withdrawn.includes(site),
  );
  if (
    sites.length === 0 ||
    (notAt >= 0 && !PLACED.test(textOf(analysed, clauseRange(analysed, notAt)[1], analysed.tokens.length)))
  )
    return;
  const entry = entries.add("symptom", "positive", asked.value);
  if (!entry) return;
  entries.set(entry, "location", sites);
  turn.itemsAnswered = true;
}
