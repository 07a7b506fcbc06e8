import type { AnalysedText } from "./analysed-text.ts";
import type { Lexicon } from "./lexicon.ts";
import { NUMBER_PATTERN, numberValue, tidySpan } from "./text.ts";

/**
 * Social and demographic facts: age (basic_information), residence (`living`), occupation (`true`)
 * and travel (`traveled`/`not_traveled`). Values are the patient's words, trimmed to the noun phrase.
 */

/**
 * "I'm 60", "I just turned forty-five", "I'll be 30": the patient's own age, not a count of things, nor
 * the whole part of one ("I'm 38.5 weeks pregnant" is no age of 38).
 */
const FIRST_PERSON_AGE = new RegExp(
  `\\b(?:i'm|i\\s+am|i\\s+just\\s+turned|i\\s+turned|i'll\\s+be|i\\s+will\\s+be|i'm\\s+turning)\\s+(?:(?:about|around|almost|nearly|just|now)\\s+)?(${NUMBER_PATTERN})\\b(?![.,]\\d)(?!\\s*(?:times|seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|pounds?|kilos?|feet|foot|inches|cm|percent))`,
);

/** "I'm a 30-year-old woman", "I am a 62 year old man": the age before "years old". */
const FIRST_PERSON_YEARS_OLD = new RegExp(
  `\\b(?:i'm|i\\s+am)\\s+(?:an?\\s+)?(${NUMBER_PATTERN})[\\s-]*(?:years?|yrs?)[\\s-]*old\\b`,
);

/** Age in years as digits ("I'm 60 years old" → "60"); a bare number only when `asked`. */
export function extractAge(text: string, asked = false): string | undefined {
  // First person only: "my father was 71" is not the patient's age.
  const explicit = FIRST_PERSON_YEARS_OLD.exec(text) ?? FIRST_PERSON_AGE.exec(text);
  const raw = explicit?.[1] ?? (asked ? new RegExp(`\\b(${NUMBER_PATTERN})\\b`).exec(text)?.[1] : undefined);
  if (!raw) return undefined;
  const parts = raw.split(/[- ]/).map((part) => numberValue(part));
  const value = parts.every((part) => part !== undefined)
    ? parts.reduce<number>((sum, part) => sum + (part ?? 0), 0)
    : undefined;
  return value !== undefined && value > 0 && value < 120 ? String(value) : undefined;
}

/** Words for a woman and for a man, as a patient says them of themself. */
const FEMALE_WORDS = "woman|female|lady|girl|mum|mom|mother";
const MALE_WORDS = "man|male|guy|gentleman|boy|dad|father";

/** "I'm a 30-year-old woman", "I'm a guy", "I'm a stay at home mom": the patient's own sex. Example: "i'm a 62 year old man" → male. */
const FIRST_PERSON_SEX = new RegExp(
  `\\b(?:i'm|i\\s+am)\\s+(?:an?\\s+)?(?:(?:${NUMBER_PATTERN}|years?|yrs?|old|young|older|healthy|single|married|retired|working|stay|at|home)[\\s-]+){0,6}(?:(${FEMALE_WORDS})|(${MALE_WORDS}))\\b`,
);

/** A bare answer to "are you male or female?": "Female.", "a man". */
const BARE_SEX = new RegExp(
  `^(?:i'm\\s+|i\\s+am\\s+)?(?:an?\\s+)?(?:(woman|female|lady|girl)|(man|male|guy|gentleman|boy))\\b`,
);

/** The patient's sex ("female"/"male"); a bare word only when `asked`. */
export function extractSex(text: string, asked = false): string | undefined {
  const match = FIRST_PERSON_SEX.exec(text) ?? (asked ? BARE_SEX.exec(text.trim()) : null);
  if (!match) return undefined;
  return match[1] ? "female" : "male";
}

/** Words that describe a dwelling: "small", "two bedroom", "basement". */
const DWELLING_ADJECTIVE =
  /^(?:small|big|large|little|tiny|old|new|shared|rented|private|single|detached|semi|two|three|one|bedroom|storey|story|family|basement|ground|floor|high|rise|cramped|nice|quiet)$/;

/**
 * Where the patient lives: "I live in London in a small apartment" → "small apartment" (the dwelling
 * with its adjectives), else the place after "live in".
 */
export function extractResidence(lexicon: Lexicon, analysed: AnalysedText, asked = false): string | undefined {
  const { tokens } = analysed;
  const livesAt = tokens.findIndex((token) => /^(?:live|living|lives|stay|staying|reside)$/.test(token.text));
  if (livesAt < 0 && !asked) return undefined;
  const from = livesAt < 0 ? 0 : livesAt;
  for (const match of lexicon.residences.findAll(tokens, from, tokens.length)) {
    const dwelling = match.payloads[0]!;
    if (dwelling === "home" && match.start > from + 2) continue;
    // Keep adjectives right before the dwelling ("small apartment", "two bedroom house").
    let start = match.start;
    while (start > from + 1 && DWELLING_ADJECTIVE.test(tokens[start - 1]!.text)) start -= 1;
    return tidySpan(analysed.text.slice(tokens[start]!.start, tokens[match.end - 1]!.end));
  }
  return undefined;
}

/** How a patient says their job: "I work as a cook", "my job is pretty much a desk job", "I'm in sales", "I do construction for work". */
const WORK_PATTERNS = [
  /\bi\s+(?:work|worked)\s+(?:as\s+(?:an?\s+)?|at\s+(?:an?\s+|the\s+)?|in\s+(?:an?\s+|the\s+)?|for\s+(?:an?\s+|the\s+)?)([a-z' ]{2,40}?)(?=[,.;!?]|$|\s+(?:and|but|so|where|which|for|since|now|at|in|with|these|this|currently|right))/,
  /\bmy\s+(?:work|job)\s+is\s+(?:(?:pretty\s+much|mostly|basically|just|like)\s+)*(?:an?\s+)?([a-z' ]{2,40}?)(?=[,.;!?]|$|\s+(?:and|but|so|where|which|these|this|now|nowadays|currently|right))/,
  /\b(?:i'm|i\s+am)\s+(?:an?\s+|in\s+)([a-z' ]{2,30}?)(?=[,.;!?]|$|\s+(?:and|but|so|at|for|now))/,
  /\bi\s+do\s+([a-z' ]{2,30}?)\s+for\s+(?:work|a\s+living)/,
];

/** The patient's occupation ("my work is pretty much a desk job" → "desk job"; "I'm in sales" → "sales"). */
export function extractOccupation(lexicon: Lexicon, analysed: AnalysedText, asked = false): string | undefined {
  for (const pattern of WORK_PATTERNS) {
    const match = pattern.exec(analysed.text);
    if (!match) continue;
    const phrase = tidySpan(match[1]!);
    // "I worked for twenty years in …": a period, not a job.
    if (
      new RegExp(`^(?:${NUMBER_PATTERN}|a|an|many|several|a few|few)\\s+(?:years?|months?|weeks?|days?)\\b`).test(
        phrase,
      )
    )
      continue;
    // "I'm a bit tired" is not a job: the phrase must contain a known occupation word.
    const known = lexicon.occupations.findAll(analysed.tokens).map((found) => found.payloads[0]!);
    const hit = known.find((occupation) => phrase.includes(occupation));
    if (hit) return phrase.split(/\s+/).length <= 4 ? phrase : hit;
    if (pattern === WORK_PATTERNS[0] && phrase.split(/\s+/).length <= 3) return phrase;
  }
  if (asked) {
    const known = lexicon.occupations.findAll(analysed.tokens);
    if (known.length > 0) return known[0]!.payloads[0];
  }
  return undefined;
}

/** "I went to Mexico last month", "back from Spain", "I was in Mexico": the place travelled to (group 1). */
const DESTINATION =
  /\b(?:went|been|(?:was|were)\s+in|travel(?:l?ed)?|trip|flew|visited|visiting|back\s+from|came\s+back\s+from|returned\s+from)\s+(?:to\s+|from\s+)?([a-z]+(?:\s[a-z]+){0,2}?)(?=[,.;!?]|$|\s+(?:for|last|this|a|in|on|about|and|but|recently|with|ago|over|around|like|few|couple|several|\d+|one|two|three|four|five|six|seven|eight|nine|ten))/;

/** A travel destination after "to"/"went to"/"visited", or undefined. */
export function extractDestination(text: string): string | undefined {
  const match = DESTINATION.exec(text);
  if (!match) return undefined;
  const place = tidySpan(match[1]!);
  return /^(?:anywhere|there|here|the|a|work|home|school|it|that|out|back|(?:the\s+)?(?:hospital|er|emergency|clinic|bed))$/.test(
    place,
  )
    ? undefined
    : place;
}
