import { conceptKey } from "../history-context-reader.ts";
import type { Status } from "../negation.ts";
import {
  CONTRACEPTION,
  DELAYED_PERIOD,
  LAST_PERIOD,
  PREGNANCY,
  PREGNANCY_TEST,
  VAGINAL_BLEEDING,
  readLastPeriodTime,
  readLatePeriod,
  readGestation,
  readPregnancyBleeding,
  readPregnancyChance,
  readPregnancyTest,
} from "../menstrual-history.ts";
import type { TurnRecord } from "../turn-record.ts";

/**
 * Pass 7a, periods and a possible pregnancy (`menstrual-history.ts`): "my period is about 2 weeks
 * late" is a delayed period, never the pain asked about; "about 6 weeks ago" to "when was your last
 * period?" is when the last period began, not a pregnancy's start; "yes" to "any chance you could be
 * pregnant?" makes a pregnancy possible, not known; "I'm on the pill" says nothing of it either way.
 * To a pregnancy question the pass settles the pregnancy item, so the attribute and yes/no passes
 * leave it.
 */

/** A pregnancy named with a word of its own in a test ("pregnancy test", "BFP"), or asked about. */
const ABOUT_PREGNANCY = /\bpregnan\w*|\bpreg test\b|\bbf[pn]\b/;
/** "6 weeks ago, and no", "about a month ago, nope": a bare no in a clause of its own after the time. */
const TRAILING_NO = /(?:^|[,;]|\band\b|\bbut\b)\s*(?:no|nope|no no|not at all)\s*[.!]*\s*$/;

/** The pregnancy status an answer to a pregnancy question gives, or undefined when it says none. */
function askedPregnancyStatus(
  turn: TurnRecord,
  test: "positive" | "negative" | undefined,
  late: boolean,
): Status | undefined {
  const { analysed, context } = turn;
  if (test) return test;
  const chance = readPregnancyChance(analysed.text);
  if (chance) return chance;
  // "My period hasn't come": the no is the period's, not an answer about a pregnancy.
  const polarity = late ? undefined : turn.polarity;
  if (polarity === "no" || TRAILING_NO.test(analysed.text)) return "negative";
  // "I'm on the pill" tells how likely a pregnancy is, not whether there is one.
  if (CONTRACEPTION.test(analysed.text) || polarity === undefined) return undefined;
  if (polarity === "unknown") return "unknown";
  return polarity === "yes" && !context.question.pregnancyChance ? "positive" : "unknown";
}

/** A pregnancy the utterance itself names ("I'm 8 weeks pregnant", "I might be pregnant"): its own reading stands. */
function namesPregnancy(turn: TurnRecord): boolean {
  return turn.found.some(({ entry }) => entry.base === "medical_history" && entry.attributes.value === PREGNANCY);
}

/** Whether the patient is or may be pregnant, or her period is late: in this turn, on record, or asked about now. */
function mayBePregnant(turn: TurnRecord, pregnancyAsked: boolean): boolean {
  const { context, entries } = turn;
  const pregnancy = entries.find("medical_history", PREGNANCY);
  return (
    pregnancyAsked ||
    (pregnancy !== undefined && pregnancy.status !== "negative") ||
    entries.find("symptom", DELAYED_PERIOD) !== undefined ||
    context.knownPositive.has(conceptKey("medical_history", PREGNANCY)) ||
    context.knownPositive.has(conceptKey("symptom", DELAYED_PERIOD))
  );
}

/**
 * "I'm 28 weeks pregnant and I've had some bleeding": bleeding said without a site by a woman who is
 * or may be pregnant is vaginal bleeding (it was lost: no lexicon form says "bleeding" alone), unless
 * the turn names another bleeding of its own ("blood in my stool").
 */
function readBleedingInPregnancy(turn: TurnRecord, pregnancyAsked: boolean): void {
  const status = readPregnancyBleeding(turn.analysed.text);
  if (!status || !mayBePregnant(turn, pregnancyAsked)) return;
  if (
    turn.found.some(
      ({ entry }) =>
        entry.base === "symptom" &&
        /bleed|blood|hemorrh|hematoch|epistaxis|hemopt|hematur|melena/.test(String(entry.attributes.value)),
    )
  )
    return;
  turn.entries.add("symptom", status, VAGINAL_BLEEDING);
}

/** Reads a late or missed period, the last period's time, a pregnancy test and, when asked, a possible pregnancy. */
export function readPeriodsAndPregnancy(turn: TurnRecord): void {
  const { analysed, context, entries } = turn;
  const { question } = context;
  const pregnancyAsked = question.items.some((item) => item.slot === "medical_history" && item.value === PREGNANCY);
  const late = readLatePeriod(analysed.text, question.lastPeriod || pregnancyAsked);
  if (late) {
    const entry = entries.add("symptom", "positive", DELAYED_PERIOD);
    if (entry && late.onset) entries.set(entry, "onset", late.onset);
  }
  const lastPeriod = readLastPeriodTime(analysed.text, question.lastPeriod);
  if (lastPeriod) entries.set(entries.add("medical_history", "positive", LAST_PERIOD)!, "starting", lastPeriod);
  const test = pregnancyAsked || ABOUT_PREGNANCY.test(analysed.text) ? readPregnancyTest(analysed.text) : undefined;
  if (test) entries.add("medical_test", "positive", PREGNANCY_TEST);
  if (pregnancyAsked) turn.settled.add(PREGNANCY);
  const status =
    namesPregnancy(turn) || (!pregnancyAsked && test !== "positive")
      ? undefined
      : askedPregnancyStatus(turn, test, late !== undefined);
  const entry = status ? entries.add("medical_history", status, PREGNANCY) : entries.find("medical_history", PREGNANCY);
  const gestation = readGestation(analysed.text);
  if (entry?.status === "positive" && gestation) entries.set(entry, "starting", gestation);
  readBleedingInPregnancy(turn, pregnancyAsked);
}
