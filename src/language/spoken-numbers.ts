import { loadOntologyFile } from "../ontology/ontology-files.ts";

/**
 * Numbers as a note writes them: a spoken amount in digits ("five hundred milligrams three times a
 * day" → "500 mg 3 times a day", "three out of six" → "3/6"), so that a dose or a grade reads as a
 * clinician writes it. Only amounts are changed — a number word before a unit, a number of twenty or
 * more, or a grade — never "one of the stones".
 */

const NUMBER_WORDS = loadOntologyFile("word-lists.json").number_words;
const MULTIPLIERS: Readonly<Record<string, number>> = { hundred: 100, thousand: 1000 };

/** One number word, its multipliers, or "a" before a multiplier. */
const NUMBER_WORD = new RegExp(`^(?:${Object.keys(NUMBER_WORDS).join("|")}|hundred|thousand)$`);

/**
 * Words that make the number before them an amount. Example: "twenty milligrams", "two weeks", "three
 * times", "ten percent".
 */
const UNIT =
  /^(?:milligrams?|mg|micrograms?|mcg|grams?|units?|ml|cc|iu|times|days?|weeks?|months?|years?|hours?|minutes?|seconds?|percent|pounds?|degrees?|tablets?|pills?|puffs?|doses?|refills?|sessions?|visits?|views?|beats?)$/;

/** Unit names as notes abbreviate them. Example: "milligrams" → "mg". */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  milligram: "mg",
  milligrams: "mg",
  microgram: "mcg",
  micrograms: "mcg",
  percent: "%",
};

/**
 * The value of number words in order ("five hundred" → 500, "twenty five" → 25, and as readings are
 * spoken, "one twenty eight" → 128), or null.
 */
function valueOf(words: readonly string[]): number | null {
  const [first, ...rest] = words;
  const lead = NUMBER_WORDS[first ?? ""];
  const restValue = rest.length > 0 && MULTIPLIERS[rest[0]!] === undefined ? plainValue(rest) : null;
  if (lead !== undefined && lead >= 1 && lead <= 2 && restValue !== null && restValue >= 10 && restValue < 100)
    return lead * 100 + restValue;
  return plainValue(words);
}

function plainValue(words: readonly string[]): number | null {
  let total = 0;
  let current = 0;
  for (const word of words) {
    const multiplier = MULTIPLIERS[word];
    if (multiplier !== undefined) {
      current = (current === 0 ? 1 : current) * multiplier;
      if (multiplier === 1000) {
        total += current;
        current = 0;
      }
    } else if (word !== "a") current += NUMBER_WORDS[word] ?? Number.NaN;
  }
  const value = total + current;
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** The longest run of number words starting at `start` (with "a" only before a multiplier), as its end index. */
function runEnd(words: readonly string[], start: number): number {
  let end = start;
  while (end < words.length) {
    const word = words[end]!;
    const isA = word === "a" && MULTIPLIERS[words[end + 1] ?? ""] !== undefined;
    if (!isA && !NUMBER_WORD.test(word)) break;
    end += 1;
  }
  return end;
}

/** A text with its spoken amounts in digits and their units abbreviated. */
export function writtenNumbers(text: string): string {
  const words = text.split(" ");
  const out: string[] = [];
  for (let index = 0; index < words.length;) {
    const end = runEnd(words, index);
    const value = end > index ? valueOf(words.slice(index, end)) : null;
    const next = (words[end] ?? "").replace(/[,.;:]$/, "");
    const graded = words[index - 2] === "out" && words[index - 1] === "of";
    const amount = value !== null && (UNIT.test(next) || next === "out" || graded || value >= 20);
    if (!amount) {
      out.push(words[index]!);
      index += 1;
      continue;
    }
    out.push(String(value));
    index = end;
  }
  return out
    .join(" ")
    .replace(/\b(\d+) (?:out of|over) (\d+)\b/g, "$1/$2")
    .replace(/\b(\d+) (milligrams?|micrograms?|percent)\b/g, (_, amount: string, unit: string) =>
      unit === "percent" ? `${amount}%` : `${amount} ${ABBREVIATIONS[unit]}`,
    );
}
