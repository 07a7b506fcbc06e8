import type { SlotEntry } from "../cmas/schemas.ts";

/**
 * Pack-years of a smoking history, as clinicians count them: packs of 20 a day times the years smoked.
 * Read from what the state holds of a smoker: the amount (`frequency`: "20 a day", "a pack a day",
 * "10 cigarettes a day for 15 years") and the years, from the amount ("for 15 years", a habit given up)
 * or, for someone who still smokes, from when they began ("20 years ago"). None when either is missing
 * or vague ("a few a day", "since I was a teenager"): a figure the patient did not give is not made up.
 */

/** The values of `habit` that are smoking tobacco, now or in the past. */
const SMOKING_VALUES = new Set(["smoking", "former smoker", "cigarette smoking", "tobacco use"]);

/** Number words a patient uses for cigarettes a day and years smoked. */
const NUMBER_WORDS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  "twenty five": 25,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
};
const NUMBER = `(\\d+(?:\\.\\d+)?|${Object.keys(NUMBER_WORDS)
  .sort((a, b) => b.length - a.length)
  .join("|")})`;

/** Packs a day. Example: "a pack a day", "2 packs a day", "half a pack a day", "1.5 packs per day". */
const PACKS_A_DAY = new RegExp(`\\b(half an?|${NUMBER.slice(1, -1)}) packs? (?:a|per|each) day\\b`);
/** Cigarettes a day. Example: "20 a day", "ten cigarettes a day", "15 cigs per day", "about 20 roll-ups a day". */
const CIGARETTES_A_DAY = new RegExp(
  `\\b${NUMBER} (?:(?:cigarettes?|cigs?|fags?|roll-?ups?|smokes?) )?(?:a|per|each) day\\b`,
);
/** Years smoked said with the amount. Example: "for 30 years". */
const FOR_YEARS = new RegExp(`\\bfor ${NUMBER} years?\\b`);
/** When a current smoker began, as the state writes it. Example: "20 years ago". */
const YEARS_AGO = new RegExp(`^${NUMBER} years? ago$`);

function numberOf(said: string): number {
  return /^half an?$/.test(said) ? 0.5 : (NUMBER_WORDS[said] ?? Number(said));
}

/** Packs a day in an amount as said, or null. */
function packsADay(amount: string): number | null {
  const packs = PACKS_A_DAY.exec(amount);
  if (packs) return numberOf(packs[1]!);
  const cigarettes = CIGARETTES_A_DAY.exec(amount);
  return cigarettes ? numberOf(cigarettes[1]!) / 20 : null;
}

/** The pack-years of a smoking entry, rounded to one decimal, or null when the state does not say enough. */
export function packYears(entry: SlotEntry): number | null {
  if (typeof entry.value !== "string" || !SMOKING_VALUES.has(entry.value)) return null;
  const amount = typeof entry.frequency === "string" ? entry.frequency.toLowerCase() : "";
  const packs = packsADay(amount);
  if (packs === null) return null;
  const starting = typeof entry.starting === "string" ? entry.starting.toLowerCase() : "";
  const years =
    FOR_YEARS.exec(amount)?.[1] ?? (entry.value === "former smoker" ? undefined : YEARS_AGO.exec(starting)?.[1]);
  if (years === undefined) return null;
  return Math.round(packs * numberOf(years) * 10) / 10;
}
