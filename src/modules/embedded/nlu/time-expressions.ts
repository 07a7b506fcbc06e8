import { NUMBER_PATTERN, tidySpan } from "./text.ts";

/**
 * Onset, duration and frequency phrases, extracted as the short spans annotators copy from the
 * utterance. Inputs are cleaned text (lower case, no hesitations). Conventions of the training
 * annotations: hedges are dropped ("around two months ago" → "two months ago"), "a few"/"a couple"
 * lose the article ("few months ago"), and "for the last few months" is an onset ("few months ago").
 */

/** A count: "two", "2", "2 to 3", "two or three", "6-10", "a few", "a couple of", "several", "a". */
const QUANTITY = `(?:${NUMBER_PATTERN}(?:\\s*(?:to|or|-)\\s*${NUMBER_PATTERN})?|a\\s+few|few|a\\s+couple(?:\\s+of)?|couple(?:\\s+of)?|several|a\\s+(?:good\\s+)?(?:number|bunch)\\s+of|many|an?|half\\s+an?|one\\s+and\\s+a\\s+half)`;
const UNIT = `(?:second|minute|hour|day|night|week|month|year|weekend)s?(?:\\s+and\\s+a\\s+half)?`;
const HEDGE = `(?:(?:about|around|roughly|approximately|probably|maybe|like|almost|nearly|over|just|at\\s+least|more\\s+than|less\\s+than|only|i'd\\s+say|i\\s+would\\s+say|say)\\s+)*`;

/** Drops the article of "a few"/"a couple", as the annotations do. */
function normaliseQuantity(span: string): string {
  return tidySpan(span.replace(/^an?\s+(few|couple)\b/, "$1"));
}

/** "Around two months ago", "a few days ago". */
const AGO = new RegExp(`\\b${HEDGE}(${QUANTITY}\\s+${UNIT})\\s+ago\\b`);
/** "For the last few months", "over the past 2 weeks": a period reaching to now. */
const LAST_PERIOD = new RegExp(
  `\\b(?:for|in|over|during|within|these|those|the)\\s+(?:the\\s+)?(?:last|past)\\s+(?:like\\s+|about\\s+|around\\s+)?(${QUANTITY}\\s+${UNIT})\\b`,
);
/** "Over the past week", "for the past hour": one unit, no count. */
const LAST_UNIT = /\b(?:for|in|over|during|within)\s+the\s+(?:last|past)\s+(hour|day|week|month|year)\b/;
/** "I've had a cough for about five days now": a period reaching to now, in the perfect, is an onset. */
const FOR_PERIOD = new RegExp(`\\bfor\\s+${HEDGE}(${QUANTITY}\\s+${UNIT})(?:\\s+now)?\\b`);
const PERFECT = /\b(?:i've|i\s+have|have\s+been|has\s+been|it's\s+been|been\s+having|had|been)\b/;
/** "It's been about a week now", "this has been going on two days": how long it has been is an onset. */
const BEEN_PERIOD = new RegExp(
  `\\b(?:it's|it\\s+has|that's|that\\s+has|this\\s+has)\\s+been\\s+(?:going\\s+on\\s+)?${HEDGE}(${QUANTITY}\\s+${UNIT})\\b`,
);
/**
 * A period after "since" or "from", as speakers of English as a second language say it: "since two
 * days", "from 3 weeks" → "two days ago". Example: "pain in my belly since two days".
 */
const SINCE_PERIOD = new RegExp(`\\b(?:since|from)\\s+${HEDGE}(${QUANTITY}\\s+${UNIT})\\b(?!\\s+ago)`);
/** "Since yesterday", "since last week", "since Christmas", "since I was 20". */
const SINCE =
  /\bsince\s+((?:yesterday|last\s+\w+|this\s+(?:morning|week|past\s+\w+)|the\s+(?:weekend|morning|summer|winter|spring|fall)|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(?:january|february|march|april|may|june|july|august|september|october|november|december)|i\s+was\s+\w+|then|christmas|new\s+year'?s?))/;
/** "Yesterday", "last night", "the other day", "earlier this week". */
const DEICTIC =
  /\b(yesterday|last\s+night|this\s+morning|this\s+past\s+(?:week|weekend)|last\s+(?:week|weekend|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|the\s+other\s+day|earlier\s+this\s+(?:week|month|year)|a\s+(?:few|couple\s+of)\s+days\s+back|a\s+week\s+back)\b/;
/** "It started Monday", "on Sunday": a day of this week; not "every Friday" (a frequency). */
const WEEKDAY = /(?<!\b(?:every|each|most|some)\s+)\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b(?!s)/;
const BARE_PERIOD = new RegExp(`\\b${HEDGE}(${QUANTITY}\\s+${UNIT})\\b`);

/** "Over the last year", "two years ago", "when I was a kid": a past condition's start as said. */
const RAW_PERIOD = new RegExp(
  `\\b((?:over|in|during|for|within)\\s+the\\s+(?:last|past)\\s+(?:${QUANTITY}\\s+)?${UNIT}|${QUANTITY}\\s+${UNIT}\\s+ago|(?:when|since)\\s+i\\s+was\\s+(?:a\\s+)?(?:kid|child|baby|teenager|young|little|\\d+))\\b`,
);

/**
 * A time phrase as said, for when a past condition began ("over the last year", "when I was a kid"):
 * the annotations keep these verbatim, unlike symptom onsets.
 */
export function extractTimePhrase(text: string): string | undefined {
  const match = RAW_PERIOD.exec(text);
  return match ? normaliseQuantity(match[1]!) : undefined;
}

/** "two months" → "two months ago". */
export function toAgo(period: string): string {
  const span = normaliseQuantity(period);
  return /\bago$/.test(span) ? span : `${span} ago`;
}

/**
 * When a symptom began: "started around two months ago" → "two months ago", "for the last few months"
 * → "few months ago", "since yesterday" → "since yesterday", "yesterday". Undefined if none.
 */
export function extractOnset(text: string): string | undefined {
  const ago = AGO.exec(text);
  if (ago) return toAgo(ago[1]!);
  const last = LAST_PERIOD.exec(text);
  if (last) return toAgo(last[1]!);
  const unit = LAST_UNIT.exec(text);
  if (unit) return `${unit[1] === "hour" ? "an" : "a"} ${unit[1]} ago`;
  const sincePeriod = SINCE_PERIOD.exec(text);
  if (sincePeriod) return toAgo(sincePeriod[1]!);
  const since = SINCE.exec(text);
  if (since) return tidySpan(`since ${since[1]}`);
  const period = FOR_PERIOD.exec(text);
  if (period && PERFECT.test(text.slice(0, period.index))) return toAgo(period[1]!);
  const been = BEEN_PERIOD.exec(text);
  if (been) return toAgo(been[1]!);
  const deictic = DEICTIC.exec(text);
  if (deictic) return tidySpan(deictic[1]!);
  return WEEKDAY.exec(text)?.[1];
}

/**
 * An onset given as a bare period, for answers to "when did it start?"/"how long have you smoked?":
 * "probably at least 25 years" → "25 years ago". Falls back to `extractOnset` forms first.
 */
export function extractOnsetAnswer(text: string): string | undefined {
  const onset = extractOnset(text);
  if (onset) return onset;
  const bare = BARE_PERIOD.exec(text);
  if (!bare || /\b(?:times?|a|an|per|every)\s*$/.test(text.slice(0, bare.index))) return undefined;
  // "I'm 38 weeks pregnant" to "when did the headache start?": how far on a pregnancy is, not the onset.
  if (GESTATION_AFTER.test(text.slice(bare.index + bare[0].length))) return undefined;
  return toAgo(bare[1]!);
}

/** What follows a period that dates a pregnancy. Example: "(38 weeks) pregnant", "(7 months) along", "(20 weeks) gone". */
const GESTATION_AFTER = /^\s*(?:pregnant|along|gone|into\s+(?:the|my|her)\s+pregnancy|of\s+pregnancy|gestation)\b/;

/** Whole-day patterns ("all day long", "comes and goes"): only read as a duration when the doctor asked how long or how constant. */
const CONTINUOUS =
  /\b(all\s+day(?:\s+long)?(?:\s+and\s+(?:throughout|all|through)\s+the\s+night)?|all\s+night(?:\s+long)?|all\s+the\s+time|constant(?:ly)?|continuous(?:ly)?|non\s*stop|24\/7|on\s+and\s+off|comes?\s+and\s+goes?|intermittent(?:ly)?|throughout\s+the\s+day)\b/;
/** Patterns that state a duration unprompted ("constant", "non stop", "all day long"). */
const STATED_CONTINUOUS =
  /\b(constant(?:ly)?|continuous(?:ly)?|non\s*stop|24\/7|comes?\s+and\s+goes?|all\s+day(?:\s+long)?(?:\s+and\s+(?:throughout|all|through)\s+the\s+night)?)\b/;
/** "It lasts about 20 minutes", "lasting for hours" — not "these last 2 days" (an onset). */
const LASTING = new RegExp(
  `\\b(?:lasts|lasting|lasted|(?:it|they|that|each\\s+\\w+|episodes?|attacks?)\\s+(?:usually\\s+|normally\\s+|only\\s+)?last|for|takes?|about|around|maybe|like)\\s+(?:for\\s+)?${HEDGE}(${QUANTITY}\\s+(?:second|minute|hour|day)s?)\\b`,
);
const SHORT_PERIOD = new RegExp(`\\b${HEDGE}(${QUANTITY}\\s+(?:second|minute|hour)s?)\\b`);

/**
 * How long a symptom lasts: "all day long and throughout the night", "constant", "15-20 minutes".
 * `asked` widens the net to bare periods ("about 20 minutes") when the doctor asked how long it lasts.
 */
export function extractDuration(text: string, asked = false): string | undefined {
  const continuous = (asked ? CONTINUOUS : STATED_CONTINUOUS).exec(text);
  if (continuous) return tidySpan(continuous[1]!.replace(/^constantly$/, "constant"));
  const lasting = LASTING.exec(text);
  if (lasting && (asked || /\blast(?:s|ing|ed)?\b/.test(lasting[0]))) return normaliseQuantity(lasting[1]!);
  if (asked) {
    const period = SHORT_PERIOD.exec(text) ?? BARE_PERIOD.exec(text);
    if (period) return normaliseQuantity(period[1]!);
  }
  return undefined;
}

const RATE_UNIT = `(?:a|an|per|in\\s+a|in\\s+an|each|every|a\\s+single)\\s+(?:day|hour|week|month|year|night|minute|morning|evening)`;
/** "A few times an hour", "at least six to 10 times in a week", "twice a day". */
const TIMES = new RegExp(
  `\\b((?:at\\s+least\\s+|at\\s+most\\s+|more\\s+than\\s+|less\\s+than\\s+)?(?:once|twice|${QUANTITY}\\s+times?|a\\s+few\\s+times|few\\s+times|several\\s+times|many\\s+times|multiple\\s+times|a\\s+couple(?:\\s+of)?\\s+times|couple(?:\\s+of)?\\s+times)(?:\\s+or\\s+(?:once|twice|${NUMBER_PATTERN}\\s+times?))?\\s+${RATE_UNIT})\\b`,
);
/** "Every day", "almost every night", "every few hours", "daily". */
const EVERY = new RegExp(
  `\\b((?:almost\\s+|nearly\\s+)?every\\s+(?:single\\s+)?(?:day|night|morning|evening|hour|week|month|other\\s+day|(?:few|couple\\s+of|${NUMBER_PATTERN})\\s+(?:minutes|hours|days|weeks))|daily|nightly|weekly|twice\\s+daily|once\\s+daily)\\b`,
);
/** Vague frequencies, only when asked: "all the time", "on and off", "occasionally". */
const LOOSE =
  /\b(all\s+the\s+time|constantly|on\s+and\s+off|every\s+now\s+and\s+then|once\s+in\s+a\s+while|from\s+time\s+to\s+time|occasionally|rarely|frequently|often|sometimes|on\s+weekends|on\s+the\s+weekends?)\b/;

/**
 * How often: "a few times an hour" → "few times an hour", "at least six to 10 times in a week",
 * "every day". Vague words ("sometimes") only when `asked`.
 */
export function extractFrequency(text: string, asked = false): string | undefined {
  const times = TIMES.exec(text);
  if (times) return normaliseQuantity(times[1]!);
  const every = EVERY.exec(text);
  if (every) return tidySpan(every[1]!);
  if (asked) {
    const loose = LOOSE.exec(text);
    if (loose) return tidySpan(loose[1]!);
  }
  return undefined;
}

/** "In seconds", "within a few seconds", "in a split second", "instantly", "like a thunderclap": at once. */
const WITHIN_SECONDS =
  /\b(?:(?:in|within) (?:a (?:few |couple of )?|few |a matter of |just )?(?:seconds?|split second|heartbeat|instant)|instant(?:ly|aneously)?|like a (?:thunderclap|bolt|switch))\b/;
/** "Over a few days", "over the last couple of weeks": bit by bit. */
const OVER_DAYS =
  /\bover (?:a |the )?(?:(?:last|past|next) )?(?:few |couple of |several |number of )?(?:days|weeks|months)\b/;

/** How a symptom came on, in the ontology's words: "really suddenly", "out of nowhere" → "abruptly"; "slowly" → "gradually". */
export function extractInitiation(text: string): string | undefined {
  if (
    /\b(?:sudden(?:ly)?|all of a sudden|abrupt(?:ly)?|out of (?:nowhere|the blue)|came on (?:fast|quickly))\b/.test(
      text,
    ) ||
    WITHIN_SECONDS.test(text)
  )
    return "abruptly";
  if (/\b(?:gradual(?:ly)?|slowly|over time|bit by bit|little by little|crept up)\b/.test(text) || OVER_DAYS.test(text))
    return "gradually";
  return undefined;
}

/** "It came on gradually", "started all of a sudden", "came on in seconds", "built up over a few days": how it came on (group 1). */
const CAME_ON =
  /\b(?:came|come|comes|started|starts|began|begins|happened|hit me|built up|peaked)\s+(?:on\s+)?(?:\w+\s+)?(suddenly|all of a sudden|abruptly|out of (?:nowhere|the blue)|gradually|slowly|(?:in|within) (?:a (?:few |couple of )?|few |a matter of |just )?(?:seconds?|split second|instant)|instantly|like a (?:thunderclap|bolt)|over (?:a |the )?(?:(?:last|past) )?(?:few |couple of |several )?(?:days|weeks|months))\b/;

/** How a symptom came on, when the patient says so while describing it ("it came on gradually"); "gradually getting worse" is progression, not this. */
export function extractVolunteeredInitiation(text: string): string | undefined {
  const match = CAME_ON.exec(text);
  return match ? extractInitiation(match[1]!) : undefined;
}
