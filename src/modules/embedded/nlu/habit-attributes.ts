import { NUMBER_PATTERN, tidySpan } from "./text.ts";
import { extractFrequency, extractOnsetAnswer } from "./time-expressions.ts";
import type { Status } from "./negation.ts";

/**
 * Habit attributes: how much/how often ("30 cigarettes a day", "one or two beers on the weekend"),
 * since when ("25 years ago"), and the status judgement the annotation guidelines ask for: occasional
 * or light use ("not much", "once a week", "socially") is recorded as unknown (not clearly a habit);
 * regular or heavy use as positive.
 */

/** An amount per period: "30 cigarettes a day", "one or two beers on the weekend", "4 pints on a Saturday". */
const AMOUNT = new RegExp(
  `\\b((?:${NUMBER_PATTERN}(?:\\s*(?:to|or|-)\\s*${NUMBER_PATTERN})?|a|an|half\\s+a|a\\s+couple(?:\\s+of)?|couple(?:\\s+of)?|a\\s+few|few)\\s+(?:cigarettes?|cigs?|packs?(?:\\s+of\\s+(?:cigarettes|cigs|smokes))?|beers?|drinks?|glass(?:es)?(?:\\s+of\\s+(?:wine|beer|whiskey|vodka))?|bottles?(?:\\s+of\\s+(?:wine|beer))?|cans?(?:\\s+of\\s+beer)?|shots?|joints?|pints?|cups?(?:\\s+of\\s+coffee)?|times?)\\s+(?:a|an|per|each|every|on\\s+the|on\\s+an?|on|at\\s+the|over\\s+the|in\\s+a|during\\s+the)\\s+(?:day|days|week|weeks|weekend|weekends|night|nights|month|evening|occasion|year|(?:mon|tues|wednes|thurs|fri|satur|sun)days?(?:\\s+nights?)?))\\b`,
);

/** "About 10 a day" answering "how many cigarettes do you smoke?": the count without its unit. */
const BARE_AMOUNT = new RegExp(
  `\\b(${NUMBER_PATTERN}(?:\\s*(?:to|or|-)\\s*${NUMBER_PATTERN})?\\s+(?:a|per|each|every)\\s+(?:day|week|weekend|night|month))\\b`,
);

/** Pack-years as said. Example: "about 30 pack years" → "30 pack-years". */
const PACK_YEARS = new RegExp(`\\b(${NUMBER_PATTERN}|a)\\s+pack[- ]years?\\b`);

/** How much or how often the patient uses it, or undefined. */
export function extractHabitFrequency(text: string, asked = false): string | undefined {
  const packYears = PACK_YEARS.exec(text);
  if (packYears) return `${packYears[1]} pack-years`;
  const amount = AMOUNT.exec(text);
  if (amount) return tidySpan(amount[1]!.replace(/^an?\s+(few|couple)\b/, "$1"));
  const bare = asked ? BARE_AMOUNT.exec(text) : null;
  if (bare) return tidySpan(bare[1]!);
  return extractFrequency(text, asked);
}

/** A count per period without its unit ("20 a day"), for a habit the doctor's question named. */
export function extractBareHabitAmount(text: string): string | undefined {
  const bare = BARE_AMOUNT.exec(text);
  return bare ? tidySpan(bare[1]!) : undefined;
}

/** "Since I was 18", "when I was a teenager": a start given as an age. */
const SINCE_AGE = /\b(?:since|from\s+when|when)\s+i\s+was\s+(?:(?:about|around|like)\s+)?(an?\s+teen(?:ager)?|\w+)/;
/** "For the last 20 years", "for about 25 years": a start given as a number of years. */
const FOR_YEARS = new RegExp(
  `\\bfor\\s+(?:the\\s+(?:last|past)\\s+)?(?:(?:about|around|like|almost|over|at\\s+least)\\s+)?(${NUMBER_PATTERN})\\s+years?\\b`,
);

function sinceAge(text: string): string | undefined {
  const age = SINCE_AGE.exec(text)?.[1];
  if (age === undefined) return undefined;
  return `since ${/teen/.test(age) ? "teenage" : age}`;
}

/** When the habit started, answering "how long have you smoked?": "for 25 years" → "25 years ago"; "since I was 18" → "since 18". */
export function extractHabitStarting(text: string): string | undefined {
  return sinceAge(text) ?? extractOnsetAnswer(text);
}

/**
 * How long a habit given up lasted, added to its amount: "20 a day" said with "for 30 years" is "20 a
 * day for 30 years" (the 30 years are no start: "smoked for 30 years, quit 5 years ago" began 35 years
 * ago), which the note turns into pack-years.
 */
export function withYearsKept(amount: string | undefined, text: string): string | undefined {
  const years = FOR_YEARS.exec(text)?.[1];
  if (amount === undefined || years === undefined || /\bpack-years\b/.test(amount)) return amount;
  return `${amount} for ${years} years`;
}

/** A start the patient volunteers while describing the habit ("a pack a day for the last 20 years", "ever since I was a teenager"). */
export function extractVolunteeredHabitStart(text: string): string | undefined {
  const years = FOR_YEARS.exec(text)?.[1];
  return sinceAge(text) ?? (years === undefined ? undefined : `${years} years ago`);
}

/** Light or occasional use: "not much", "socially", "once a week", "a couple on the weekend". */
const LIGHT =
  /\b(?:not\s+(?:much|really|a\s+lot|that\s+much|often|too\s+much|very\s+much|regularly)|occasionally|occasional|socially|social\s+drinker|once\s+in\s+a\s+while|every\s+(?:now\s+and\s+then|once\s+in\s+a\s+while)|rarely|sometimes|on\s+(?:the\s+)?weekends?|special\s+occasions|here\s+and\s+there|once\s+a\s+(?:week|month)|one\s+or\s+two|a\s+couple|a\s+few|(?:a|one)\s+(?:glass|drink|beer)|just\s+(?:one|a|the\s+odd)|the\s+odd|few\s+times\s+a\s+(?:month|year)|used\s+to|tried)\b/;
/** Regular or heavy use: "every day", "a pack a day", "heavily", "most nights". */
const HEAVY =
  /\b(?:every\s+day|everyday|daily|a\s+day|per\s+day|each\s+day|a\s+lot|heavily|heavy|packs?|all\s+the\s+time|every\s+night|nightly|most\s+(?:nights|days|evenings)|chain)\b/;

/** The status of a habit the patient admits to: light or occasional use is "unknown". */
export function habitStatus(text: string, status: Status): Status {
  if (status !== "positive") return status;
  if (HEAVY.test(text)) return "positive";
  if (LIGHT.test(text)) return "unknown";
  return status;
}

/** Not after words of an attempt or a wish: "trying to quit", "I want to stop", "I can't give up". */
const NOT_AN_ATTEMPT = String.raw`(?<!\b(?:to|trying|tried|try|want|wanted|going|gonna|should|can't|cannot|couldn't|never)\s+)`;

/**
 * Smoking given up, told apart from the smoking: "smoked for 30 years, stopped 5 years ago", "I
 * smoked but gave it up", "haven't had one since 2015". Not an attempt ("I've tried to quit"), not
 * another habit's stop ("stopped drinking", "quit the booze"), and not said beside smoking now ("I
 * smoke half a pack, I've cut down") or a stop that did not last ("quit for a year but started again").
 */
const GAVE_UP = new RegExp(
  `${NOT_AN_ATTEMPT}\\b(?:stopped|quit|gave (?:it |them |up)|given (?:it |them )?up|packed (?:it |them )?in|kicked the habit|(?:haven't|have not|not) (?:smoked|had one) (?:since|for|in))\\b(?!\\s+(?:\\w+\\s+)?(?:drinking|alcohol|booze|drugs|weed|cannabis|vaping|the vape|eating|working))`,
);
/** Smoking now, or again, said beside a stop. Example: "I quit for a year but started again", "I still smoke, I've cut down". */
const STILL_SMOKES =
  /\b(?:started again|back on (?:them|it|the)|relapsed|took it up again|smoke again|i (?:still )?smoke|i'm (?:still )?smoking|still smok\w*|cut (?:it |them )?down)\b/;

/** Whether a sentence about smoking says the patient has given it up. */
export function gaveUpSmoking(sentence: string): boolean {
  return GAVE_UP.test(sentence) && !STILL_SMOKES.test(sentence);
}

/**
 * Drinking given up: "I stopped drinking two years ago", "gave up the booze", "haven't touched a drop
 * since 2019", "I don't drink any more", "sober for five years". Not an attempt ("trying to stop
 * drinking"), and not said beside drinking now or again (`STILL_DRINKS`).
 */
const GAVE_UP_DRINKING = new RegExp(
  `${NOT_AN_ATTEMPT}\\b(?:(?:stopped|quit|gave\\s+up|given\\s+up|packed\\s+in|cut\\s+out|knocked\\s+off)\\s+(?:smoking\\s+and\\s+|the\\s+)?(?:drinking|alcohol|booze|drink)|(?:haven't|have\\s+not|hasn't|has\\s+not|not)\\s+(?:had\\s+a\\s+(?:drink|drop)|touched\\s+(?:a\\s+drop|alcohol|a\\s+drink|the\\s+stuff)|drunk\\s+(?:alcohol|since|for|in))|(?:don't|do\\s+not|doesn't|does\\s+not)\\s+drink\\s+any\\s?more|(?:sober|teetotal|dry)\\s+(?:for|since|now)|off\\s+the\\s+(?:booze|drink|alcohol))\\b`,
);
/** Drinking now, or again, said beside a stop. Example: "I stopped for a year but started again", "I still drink at weekends". */
const STILL_DRINKS =
  /\b(?:started\s+again|back\s+on\s+(?:the|it)|relapsed|drink(?:ing)?\s+again|still\s+drink\w*|fell\s+off\s+the\s+wagon)\b/;

/** Whether a sentence about drinking says the patient has given it up (a drinking habit then denied now). */
export function gaveUpDrinking(sentence: string): boolean {
  return GAVE_UP_DRINKING.test(sentence) && !STILL_DRINKS.test(sentence);
}
