import { NUMBER_PATTERN, numberValue } from "./text.ts";

/**
 * Severity on a 0–10 scale, as the annotators record it: the number alone ("6"). A range or
 * alternative ("a 7 or 8", "6 to 7") is recorded as its upper end, the worst the patient reports.
 */

const NUMBER = `(${NUMBER_PATTERN})`;
/** "7 out of 10", "a 6/10", "6 or 7 over ten". */
const OUT_OF = new RegExp(`\\b${NUMBER}(?:\\s*(?:or|to|-)\\s*${NUMBER})?\\s*(?:out\\s+of|\\/|over)\\s*(?:10|ten)\\b`);
/** Numbers followed by a unit are counts or periods, not ratings ("3 times", "2 days"). */
const NOT_A_RATING = `(?!\\s*(?:times|days?|weeks?|months?|years?|hours?|minutes?|seconds?|teaspoons?|tablespoons?|cigarettes?|packs?|drinks?|beers?|pounds?|kilos?|percent|%))`;
/** "A 6", "about a 7 or 8", "maybe 5": a rating after an article or hedge. */
const ARTICLE = new RegExp(
  `\\b(?:a|an|about|around|like|maybe|probably|say|at)\\s+(?:a\\s+|an\\s+)?${NUMBER}(?:\\s*(?:or|to|-)\\s*(?:a\\s+|an\\s+)?${NUMBER})?\\b${NOT_A_RATING}`,
);
/** "Uh, 6.", "I'd say 7 or 8": a bare leading number. */
const BARE = new RegExp(
  `^(?:(?:it's|it\\s+is|i'd\\s+say|i\\s+would\\s+say|say|probably|maybe|about|around|like|a|an|uh|um|oh|so|well)\\s+)*${NUMBER}(?:\\s*(?:or|to|-)\\s*${NUMBER})?\\b${NOT_A_RATING}`,
);

/** A rating in words. Example: "mild", "pretty severe", "excruciating", "really bad", "agonising". */
const VERBAL =
  /\b(mild|moderate|very severe|severe|excruciating|unbearable|agoni[sz]ing|really bad|very bad|terrible|awful|horrendous)\b/;

/**
 * A rating in words said while describing a symptom, unasked: "a severe headache", "the pain is
 * unbearable", "really bad cramps".
 */
export function verbalSeverity(text: string): string | undefined {
  return VERBAL.exec(text)?.[1];
}

function onScale(...words: Array<string | undefined>): string | undefined {
  const numbers = words
    .filter((word): word is string => word !== undefined)
    .map((word) => numberValue(word.split(/[- ]/)[0]!));
  const valid = numbers.filter((value): value is number => value !== undefined && value >= 0 && value <= 10);
  if (valid.length === 0) return undefined;
  return String(Math.max(...valid));
}

/**
 * Severity from "7 out of 10", "a 6", "about a 7 or 8"; with `asked` (the doctor asked for a rating)
 * also a bare leading number ("Uh, 6."). Undefined when none.
 */
export function extractSeverity(text: string, asked = false): string | undefined {
  const outOf = OUT_OF.exec(text);
  if (outOf) return onScale(outOf[1], outOf[2]);
  if (!asked) return undefined;
  const stripped = text
    .replace(/,/g, " ")
    .replace(/\s+/g, " ")
    .replace(/^[\s.]+/, "");
  const bare = BARE.exec(stripped);
  if (bare) return onScale(bare[1], bare[2]);
  const article = ARTICLE.exec(text);
  if (article) return onScale(article[1], article[2]);
  // "Mild", "pretty severe": a rating in words, kept as said.
  return VERBAL.exec(text)?.[1];
}

/** "Maybe 100 meters", "a couple of blocks", "half a mile". */
const DISTANCE = new RegExp(
  `\\b((?:${NUMBER_PATTERN}|a|one|a couple of|a few|half a)\\s+(?:meters?|metres?|blocks?|kilometers?|kilometres?|km|miles?|yards?|flights? of stairs|steps|stairs))\\b`,
);

/**
 * A distance told by a landmark, as patients usually tell it: "to the end of the road", "to the bus
 * stop", "across the room", "up one flight", "from the bed to the toilet".
 */
const LANDMARK_DISTANCE =
  /\b((?:from\s+(?:the|my)\s+\w+\s+)?(?:to|as far as)\s+(?:the\s+end\s+of\s+(?:the|my)\s+(?:road|street|garden|drive|driveway|corridor|hall|hallway|block|path)|the\s+(?:shops?|corner|corner\s+shop|bus\s+stop|car|gate|front\s+door|door|postbox|letterbox|toilet|bathroom|loo|kitchen|next\s+room|top\s+of\s+the\s+stairs|end\s+of\s+the\s+\w+))|across\s+the\s+(?:room|road|street|kitchen)|up\s+(?:one|a|the)\s+(?:flight|stairs|hill))\b/;

/**
 * A walking distance ("maybe 100 meters", "a couple of blocks", "only to the end of the road"): the
 * answer to an exercise-tolerance question.
 */
export function extractWalkingDistance(text: string): string | undefined {
  return DISTANCE.exec(text)?.[1] ?? LANDMARK_DISTANCE.exec(text)?.[1];
}
