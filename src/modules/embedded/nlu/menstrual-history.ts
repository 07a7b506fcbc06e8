import { NUMBER_PATTERN, tidySpan } from "./text.ts";
import { extractOnsetAnswer, toAgo } from "./time-expressions.ts";

/**
 * Periods and a possible pregnancy, as lay patients tell them (issue 20: a woman of child-bearing age
 * with lower abdominal pain is asked "when was your last period, and is there any chance you could be
 * pregnant?"). MediTOD's CMAS has no menstrual slot; what is said is kept in its existing slots:
 *
 * - a late or missed period is the symptom `delayed menstruation` (a value the red-flag criteria of
 *   `ontology/red-flags.json` already read for an ectopic pregnancy), its onset how late it is;
 * - the last period is the medical history `last menstrual period`, its `starting` when it began
 *   (which is what "last menstrual period" means: the first day of the last period);
 * - a possible pregnancy is `pregnancy` unknown, a confirmed one (a positive test) positive, a denial
 *   negative; a positive or negative home test is also the medical test `pregnancy test`.
 *
 * Inputs are cleaned text (`text.ts`: lower case, apostrophes restored).
 */

/** The symptom value of a late or missed period. */
export const DELAYED_PERIOD = "delayed menstruation";
/** The medical-history value of the last period; its `starting` is when it began. */
export const LAST_PERIOD = "last menstrual period";
/** The medical-history value of a pregnancy. */
export const PREGNANCY = "pregnancy";
/** The symptom value of bleeding from the womb or vagina. */
export const VAGINAL_BLEEDING = "vaginal bleeding";
/** The medical-test value of a pregnancy test. */
export const PREGNANCY_TEST = "pregnancy test";

const AMOUNT = `${NUMBER_PATTERN}|a|an|a few|a couple of|couple of|few`;
/** How late: "about 2 weeks", "a few days", "10 days". */
const LATENESS = `(?:(?:about|around|roughly|nearly|almost|over|like|maybe|probably|just)\\s+)?((?:${AMOUNT})\\s+(?:days?|weeks?|months?))`;

/**
 * A period said to be late or missed. Examples: "my period is about 2 weeks late", "my period's
 * overdue", "I've missed a period", "I haven't had a period for 6 weeks", "I'm 10 days late" (with a
 * period word in the turn or the question), "my period hasn't come".
 */
const PERIOD_LATE = new RegExp(
  [
    `\\bperiods?(?:'s| is| are| was| has been| have been)?\\s+(?:${LATENESS}\\s+)?(?:late|overdue)\\b`,
    `\\b(?:missed|skipped)\\s+(?:a|my|her|one|two|\\d+|the last)?\\s*(?:\\w+\\s+)?periods?\\b`,
    `\\b(?:haven't|hasn't|not|never)\\s+(?:had|got|gotten|come on|started)\\s+(?:a|my|her|any)?\\s*periods?\\b`,
    `\\bperiods?\\s+(?:hasn't|has not|haven't|didn't|did not|never)\\s+(?:come|came|started|arrived|turned up|shown up)\\b`,
    `\\bno periods?\\s+(?:for|since|in)\\b`,
  ].join("|"),
);
/** "2 weeks late", "a few days overdue": how late, said with or without the period named. */
const LATE_BY = new RegExp(`\\b${LATENESS}\\s+(?:late|overdue)\\b`);
/** "I'm 10 days late": lateness said without the period, read only when periods are the topic. */
const LATE_WITHOUT_PERIOD = new RegExp(`\\b(?:i'm|i am|she's|she is|i was)\\s+${LATENESS}\\s+(?:late|overdue)\\b`);
/** A period said not to be late. Examples: "my period isn't late", "I haven't missed any periods", "it came on time". */
const NOT_LATE =
  /\b(?:isn't|is not|wasn't|not|never)\s+(?:\w+\s+)?(?:late|overdue)\b|\b(?:haven't|hasn't|never|not)\s+missed\b|\bon time\b|\bregular as clockwork\b/;
/** A word for periods. Example: "my period", "periods", "menstrual". */
export const PERIOD_WORD = /\b(?:periods?|menstrua\w*|menses|time of the month)\b/;

/** Whether (and how late) the text says a period is late or missed; undefined when it says none is. */
export function readLatePeriod(text: string, periodsAsked: boolean): { readonly onset?: string } | undefined {
  const late =
    PERIOD_LATE.exec(text) ?? (periodsAsked || PERIOD_WORD.test(text) ? LATE_WITHOUT_PERIOD.exec(text) : null);
  if (!late) return undefined;
  // The denial may stand before the match, in its clause: "I haven't missed any periods".
  const clauseBefore = text
    .slice(0, late.index)
    .split(/[,.;!?]|\bbut\b/)
    .pop()!;
  if (NOT_LATE.test(`${clauseBefore}${late[0]}`)) return undefined;
  const by = LATE_BY.exec(text)?.[1];
  return by ? { onset: toAgo(by) } : {};
}

/** "My last period was 6 weeks ago", "last period about a month ago": the last period named with its time. */
const LAST_PERIOD_SAID = /\blast (?:menstrual )?period\b|\b(?:had|got|came on|started) my (?:last )?period\b/;
/** "At the start of last month", "the beginning of the month": a time of the month, kept as said. */
const TIME_OF_MONTH = /\b((?:the )?(?:start|beginning|middle|end) of (?:last |this |the )?month)\b/;
/** Time phrases that are not when the last period began: how late it is, how far along a pregnancy is. */
const NOT_LAST_PERIOD_TIME = new RegExp(`${LATE_BY.source}|\\b${LATENESS}\\s+(?:pregnant|gone|along)\\b`, "g");

/**
 * When the last period began, from an answer to "when was your last period?" (`asked`) or a sentence
 * that names the last period: "about 6 weeks ago" → "6 weeks ago"; undefined when no time is said.
 */
export function readLastPeriodTime(text: string, asked: boolean): string | undefined {
  if (!asked && !LAST_PERIOD_SAID.test(text)) return undefined;
  const rest = text.replace(NOT_LAST_PERIOD_TIME, " ");
  return TIME_OF_MONTH.exec(rest)?.[1] ?? extractOnsetAnswer(rest);
}

/**
 * A home pregnancy test and its result. Examples: "did a test, it was positive", "positive pregnancy
 * test", "the test came back negative", "got a BFP".
 */
const TEST_RESULT =
  /\b(?:(?:pregnancy |home |preg )?tests?|it)\b[^.?!]{0,30}?\b(positive|negative)\b|\b(positive|negative) (?:pregnancy |home )?tests?\b|\b(bfp|bfn)\b/;
/** A result said not to be: "it wasn't positive". */
const RESULT_DENIED = /\b(?:wasn't|was not|isn't|not|never)\s+(?:\w+\s+)?(?:positive|negative)\b/;

/** The result of a pregnancy test the text reports, if any ("positive" / "negative"). */
export function readPregnancyTest(text: string): "positive" | "negative" | undefined {
  const match = TEST_RESULT.exec(text);
  if (!match || RESULT_DENIED.test(match[0])) return undefined;
  const result = tidySpan(match[1] ?? match[2] ?? match[3]!);
  return result === "positive" || result === "bfp" ? "positive" : "negative";
}

/** "I'm 8 weeks pregnant", "about 10 weeks gone": how far along, which dates the pregnancy's start. */
const WEEKS_PREGNANT = new RegExp(`\\b${LATENESS}\\s+(?:pregnant|gone|along)\\b`);

/** When a pregnancy began, from how far along it is said to be ("8 weeks pregnant" → "8 weeks ago"). */
export function readGestation(text: string): string | undefined {
  const weeks = WEEKS_PREGNANT.exec(text)?.[1];
  return weeks ? toAgo(weeks) : undefined;
}

/**
 * Times that belong to the periods or a pregnancy. Examples: "my last period was 6 weeks ago", "2
 * weeks late", "8 weeks pregnant" — never a symptom's onset.
 */
const MENSTRUAL_TIME = new RegExp(
  `(?:${LAST_PERIOD_SAID.source})[^,.;!?]*|${LATE_BY.source}|${WEEKS_PREGNANT.source}`,
  "g",
);

/** The text without its times of periods or pregnancy ("tummy pain, my last period was 6 weeks ago" → "tummy pain, "). */
export function withoutMenstrualTimes(text: string): string {
  return text.replace(MENSTRUAL_TIME, " ");
}

/** "No chance", "definitely not", "can't be": the patient rules a pregnancy out. */
const RULED_OUT =
  /\b(?:no chance|no way|definitely not|can't be|cannot be|couldn't be|not possible|impossible|not pregnant|not sexually active|haven't had sex|no sex)\b/;
/** "Could be", "might be", "possibly", "not sure", "I don't know": a pregnancy possible, not known. */
const POSSIBLE =
  /\b(?:could be|might be|may be|maybe|possibly|possible|perhaps|not sure|unsure|don't know|no idea|can't rule|might have|there's a chance|could have|suppose so|i guess)\b/;
/** Contraception: "I'm on the pill", "I have the coil", "we use condoms". It says how likely, not whether. */
export const CONTRACEPTION =
  /\b(?:the pill|mini pill|contracepti\w*|the coil|an? (?:iud|ius|coil|implant)|implant|the injection|depo|condoms?|sterilised|sterilized|tubes tied|vasectomy)\b/;

/** How an answer to "any chance you could be pregnant?" rules a pregnancy: out, possible, or neither said. */
export function readPregnancyChance(text: string): "negative" | "unknown" | undefined {
  if (RULED_OUT.test(text)) return "negative";
  if (POSSIBLE.test(text)) return "unknown";
  return undefined;
}

/**
 * "When was your last period", "any chance you could be pregnant", "are you pregnant": what a
 * doctor's question asks of periods and pregnancy.
 */
export function periodQuestion(question: string): { readonly lastPeriod: boolean; readonly pregnancyChance: boolean } {
  return {
    lastPeriod: /\blast (?:menstrual )?period\b|\bwhen (?:was|did) (?:your|her) (?:\w+ )?period\b|\blmp\b/.test(
      question,
    ),
    pregnancyChance:
      /\b(?:any chance|chance (?:that )?(?:you|she)|could (?:you|she) be|might (?:you|she) be|possibility)\b/.test(
        question,
      ),
  };
}

/**
 * Bleeding said without a site. Example: "I've had some bleeding", "a bit of spotting", "I bled this
 * morning", "I'm losing blood"; not "bleeding from my nose" (a site follows).
 */
const BLEEDING_WITHOUT_SITE =
  /\b(?:bleeding|bled|bleed|spotting|spotted|(?:some|a bit of|a little|bit of|any) blood|blood loss|losing blood)\b(?!\s+(?:from|in|on|out of|when|with)\s+(?:my|the|her|your)?\s*(?!vagina|womb|down below)\w)/;
/**
 * A site of bleeding other than the womb. Example: "my nose has been bleeding", "bleeding gums", "I
 * cut my finger", "blood in my poo", "coughing up blood".
 */
const BLEEDING_ELSEWHERE =
  /\b(?:nose|gums?|mouth|lips?|teeth|tooth|finger|thumb|hand|arm|leg|foot|toe|knee|head|face|cut|wound|graze|scratch|bottom|bum|back passage|rectum|stools?|poo|urine|wee|pee|cough\w*|ears?|eyes?|skin|mole|nipples?|vomit\w*|sick)\b/;
/** The bleeding denied. Example: "no bleeding", "I haven't had any spotting", "not bled". */
const BLEEDING_DENIED =
  /\b(?:no|not|never|without|haven't|hasn't|hadn't|didn't|don't|isn't|aren't|wasn't)\b(?:\s+\w+){0,3}?\s+(?:bleeding|bled|bleed|spotting|spotted|blood)\b/;

/**
 * Bleeding said without a site by a woman who is or may be pregnant, or whose period is late (the
 * caller knows that): "positive" for vaginal bleeding, "negative" when denied, undefined when the
 * text says no such bleeding.
 */
export function readPregnancyBleeding(text: string): "positive" | "negative" | undefined {
  if (!BLEEDING_WITHOUT_SITE.test(text) || BLEEDING_ELSEWHERE.test(text)) return undefined;
  return BLEEDING_DENIED.test(text) ? "negative" : "positive";
}
