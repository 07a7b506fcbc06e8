import { textOf, type AnalysedText } from "./analysed-text.ts";
import type { Lexicon } from "./lexicon.ts";

/**
 * Body locations named in a token range, as canonical location names ("in your legs or arms" →
 * ["leg", "upper extremity"], "calves" → ["structure of calf of leg"]), in the order said.
 *
 * The side and region are kept as the annotation tool's location values allow (its lists hold
 * "knee(L)", "iliac fossa(R)", "hypochondrium(L)", "epigastric"; MediTOD-style names write the side
 * first, "left knee"), beside the site itself, so that what reads a site ("abdomen" for a pregnancy
 * question, "chest" for chest pain) still finds it: "my right knee" → ["knee", "right knee"]; "my
 * right lower tummy", "lower right side of my belly", "left side low down" → ["abdomen", "right iliac
 * fossa"] / ["abdomen", "left iliac fossa"]; "under my right ribs" → ["abdomen", "right hypochondrium"];
 * "the top of my tummy" → ["abdomen", "epigastric"]; "the right side of my tummy" → ["abdomen", "right
 * flank"]. A lower tummy said without a side has no value of its own in the tool's lists, and stays
 * "abdomen".
 */

/** The abdomen's location name. */
export const ABDOMEN = "abdomen";
/** How many tokens either side of an abdominal site its side and level may be said ("low down on my left side"). */
const REGION_WINDOW = 4;
/** Words for the side. Example: "right", "left". */
const SIDE = /\b(right|left)\b/;
/** Words for the lower abdomen. Example: "lower", "low down", "bottom of". */
const LOWER = /\b(?:lower|low|bottom)\b/;
/** Words for the upper abdomen. Example: "upper", "top of", "under my ribs", "below my breastbone", "pit of my stomach". */
const UPPER = /\b(?:upper|top|ribs?|breastbone|sternum|pit of)\b/;

/** The region of the abdomen said in some words ("right lower", "top of my tummy"), as the tool's values name it, or undefined. */
export function abdominalRegion(words: string): string | undefined {
  const side = SIDE.exec(words)?.[1];
  const lower = LOWER.test(words);
  const upper = UPPER.test(words);
  if (side && lower && !upper) return `${side} iliac fossa`;
  if (side && upper && !lower) return `${side} hypochondrium`;
  if (side && !upper && !lower) return `${side} flank`;
  return upper && !lower ? "epigastric" : undefined;
}

/** The side said in a site's phrase or right before it ("my left knee", "the right eye", "my right side"), or undefined. */
function sideOf(analysed: AnalysedText, start: number, end: number, from: number): string | undefined {
  for (let index = Math.max(from, start - 1); index < end; index += 1) {
    const word = analysed.tokens[index]!.text;
    if (word === "left" || word === "right") return word;
  }
  return undefined;
}

/** The words within `REGION_WINDOW` tokens of `[start, end)`, inside `[from, to)` and the clause (no punctuation). */
function wordsAround(analysed: AnalysedText, start: number, end: number, from: number, to: number): string {
  const words: string[] = [];
  for (let index = Math.max(from, start - REGION_WINDOW); index < Math.min(to, end + REGION_WINDOW); index += 1) {
    const token = analysed.tokens[index]!;
    if (token.kind === "punct") {
      if (index < start) words.length = 0;
      else break;
    } else words.push(token.text);
  }
  return words.join(" ");
}

/** The location of what is felt all over. */
export const WHOLE_BODY = "whole body";
/** The region of an abdomen that hurts all over ("all over my tummy"): the annotation tool's lists have none, so it is named. */
export const GENERALISED = "generalized";
/** Words between "all over" and the site it spreads over. Example: "all over my tummy", "everywhere in the belly". */
const SPREAD_OVER = /^(?:my|the|his|her|their|your|in|across|round|around|of)$/;

type LocationMatch = ReturnType<Lexicon["locations"]["findAll"]>[number];

/**
 * The site a "whole body" phrase ("all over", "everywhere") spreads over when one follows it, or
 * undefined: "all over my tummy" is the whole abdomen, not the whole body.
 */
function spreadOver(
  analysed: AnalysedText,
  match: LocationMatch,
  matches: readonly LocationMatch[],
): LocationMatch | undefined {
  if (!match.payloads.includes(WHOLE_BODY)) return undefined;
  let next = match.end;
  while (next < match.end + 2 && SPREAD_OVER.test(analysed.tokens[next]?.text ?? "")) next += 1;
  return matches.find((other) => other.start === next && !other.payloads.includes(WHOLE_BODY));
}

/** Body locations in `[from, to)`, each followed by its side or region when said. */
export function extractLocations(lexicon: Lexicon, analysed: AnalysedText, from: number, to: number): string[] {
  const found: string[] = [];
  const add = (site: string | undefined) => {
    if (site !== undefined && !found.includes(site)) found.push(site);
  };
  const all = lexicon.locations.findAll(analysed.tokens, from, to);
  const spreads = all.map((match) => spreadOver(analysed, match, all));
  const matches = all.filter((_, index) => spreads[index] === undefined);
  // The abdomen's region from the words around every phrase naming it ("lower right side of my belly"), or all of it.
  const abdominal = matches.filter((match) => match.payloads.includes(ABDOMEN));
  const allOver = spreads.some((site) => site?.payloads.includes(ABDOMEN));
  const region = allOver
    ? GENERALISED
    : abdominalRegion(abdominal.map((match) => wordsAround(analysed, match.start, match.end, from, to)).join(" "));
  for (const match of matches) {
    for (const location of match.payloads) {
      add(location);
      if (location === ABDOMEN) add(region);
      const side = location === ABDOMEN ? undefined : sideOf(analysed, match.start, match.end, from);
      if (side && lexicon.pairedSites.has(location)) add(`${side} ${location}`);
    }
  }
  return found;
}

/**
 * A second complaint joined on, its site the subject of a verb of its own. Example: "and now my knee
 * is swollen", "but my knee's fine", "and my left leg hurts".
 */
const NEXT_SUBJECT =
  /^(?:and|but|plus)\s+(?:(?:now|then|also)\s+)?(?:my|his|her|their|the|your)\s+\w+(?:\s+\w+)?(?:'s\b|\s+(?:is|are|has|have|was|were|feels?|hurts?|looks?|keeps?|got|gone|went|swelled|swollen|been|aches?|killing)\b)/;

/**
 * Where a symptom's own site can be said after it ends: before a second complaint about another site
 * ("my back's been killing me and now my knee is swollen": the knee is the swelling's, not the pain's).
 */
export function nextSubjectStart(analysed: AnalysedText, from: number, to: number): number {
  for (let index = from; index < to; index += 1) if (NEXT_SUBJECT.test(textOf(analysed, index, to))) return index;
  return to;
}
