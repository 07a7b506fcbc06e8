import type { MedicineMention } from "../../../language/medicines.ts";
import { loadOntologyFile } from "../../../ontology/ontology-files.ts";
import { conversationVocabulary } from "./conversation-vocabulary.ts";

/**
 * Each medicine a patient turn names, with its dose and frequency as said: known medicines by any of
 * their names (`ontology/medicines.json`: generic, brand and lay names, "the water tablet"), and, in an
 * answer to a question about medicines, a name the list lacks kept as said ("zorblex 10mg"). Several
 * medicines in one answer each keep their own dose and frequency: a medicine's words run from the
 * clause boundary before it to the one before the next medicine.
 */

/** A dose as an amount. Example: "500mg", "5 mg", "10 units", "2.5 micrograms". */
const DOSE_AMOUNT =
  /\b\d+(?:\.\d+)?\s*(?:mg|mcg|micrograms?|milligrams?|grams?|g|ml|millilitres?|milliliters?|units?|iu)\b/i;

/** A dose as a count of what is taken. Example: "two puffs", "half a tablet", "1 tablet", "two paracetamol". */
const DOSE_COUNT =
  /\b(?:half\s+a|one\s+and\s+a\s+half|a\s+couple\s+of|one|two|three|four|five|six|a|an|\d+(?:\.\d+)?)\s+(?:tablets?|tabs?|pills?|capsules?|caps|puffs?|sprays?|drops?|teaspoons?|spoonfuls?|sachets?|patch(?:es)?|injections?|doses?)\b/i;

/**
 * How often, as said. Example: "twice a day", "three times daily", "every 4 hours", "in the morning",
 * "at night", "when I need it", "as needed", "once a week".
 */
const FREQUENCY = new RegExp(
  [
    String.raw`\b(?:once|twice|three\s+times|four\s+times|\d+\s+times|two\s+times)\s+(?:a|per|each|every)\s+(?:day|night|week|month)`,
    String.raw`\b(?:once|twice|three\s+times|four\s+times)\s+daily`,
    String.raw`\bevery\s+(?:other\s+day|day|morning|evening|night|week|month|\d+\s+hours|(?:two|three|four|six|eight|twelve)\s+hours)`,
    String.raw`\b(?:in\s+the|each|every)\s+(?:morning|evening|afternoon)`,
    String.raw`\bat\s+(?:night|bedtime|lunchtime|breakfast|tea\s*time|dinner)`,
    String.raw`\bbefore\s+bed`,
    String.raw`\b(?:when(?:ever)?|if)\s+(?:i|she|he|they|we)\s+(?:needs|needed|need)\b(?:\s+(?:it|them|to|one)\b)?`,
    String.raw`\bas\s+(?:and\s+when\s+)?(?:needed|required)`,
    String.raw`\b(?:daily|nightly|weekly|monthly)\b`,
    String.raw`\b(?:a|per)\s+day\b`,
  ].join("|"),
  "i",
);

/** Where a clause ends (for what follows a word). Example: the comma of "zorblex, and aspirin". */
const CLAUSE_END = /[,;.!?]|\b(?:and|but|though|although|except)\b/i;

/** Words an answer of a dose or frequency alone may have besides them. Example: "I take" and "usually" of "I take 500mg, usually twice a day". */
const DOSE_ANSWER_FILLER = new Set(
  "i take takes taking it them one just about around usually normally maybe um uh yes yeah only like so and or of a".split(
    " ",
  ),
);

/**
 * A dose or frequency said alone, as the answer to "how much do you take?" — the medicine last named's;
 * none when the answer says more ("I take walks every day" is no dose).
 */
function doseSaidAlone(utterance: string): MedicineMention[] {
  const dose = doseIn(utterance);
  const frequency = firstSaid(FREQUENCY, utterance);
  if (!dose && !frequency) return [];
  let rest = utterance;
  for (const said of [dose, frequency]) if (said) rest = rest.replace(said, " ");
  const words = rest.toLowerCase().match(/[a-z']+/g) ?? [];
  return words.every((word) => DOSE_ANSWER_FILLER.has(word)) ? [{ name: null, dose, frequency }] : [];
}

/**
 * A number right after a medicine's name, with no unit: its dose as said. Example: "20" of
 * "atorvastatin 20 at night" — not "aspirin 2 times a day" nor "metformin 3 years now".
 * Group 1: the number.
 */
const BARE_DOSE_AFTER_NAME =
  /^\s+(\d+(?:\.\d+)?)\b(?!\s*(?:times?|x\b|years?|yrs?|days?|weeks?|months?|hours?|hrs?|%|a\s+day|per|daily|or\s+so|ago))/i;

/** Where a clause begins. Example: "but" of "I take aspirin but not the statin". */
const CLAUSE_START = /[,;.]|\b(?:and|but|though|although|except)\b/gi;

/** Where one medicine's words end and the next one's begin. Example: ", " or " and " in "ramipril in the morning and atorvastatin at night". */
const CLAUSE_BOUNDARY = /[,;.]|\b(?:and|plus|also|then)\b/gi;

/**
 * A word said just before a dose: an unknown medicine's name. Example: "zorblex" in "zorblex 10mg".
 * Group 1: the name.
 */
const NAME_BEFORE_DOSE = /\b([a-z][a-z-]{3,})\s+\d+(?:\.\d+)?\s*(?:mg|mcg|micrograms?|milligrams?|g|ml|units?|iu)\b/gi;

/** A word after "I take", "I'm on": an unknown medicine's name. Example: "metoprolol" in "I'm on metoprolol". Group 1: the name. */
const NAME_AFTER_TAKING = /\b(?:take|takes|taking|took|on|using|use|prescribed|started)\s+([a-z][a-z-]{3,})\b/gi;

/** The endings of drug names' stems (WHO INN stems), for unknown names that are everyday-looking words. Example: "-pril" of "perindopril". */
const DRUG_STEM =
  /(?:pril|olol|sartan|statin|dipine|prazole|cillin|mycin|cycline|floxacin|tidine|oxetine|triptan|gliptin|formin|parin|xaban|lukast|olone|afil|umab|inib|azepam|azolam|setron|tropium|terol)$/i;

/**
 * Words before a medicine, in its own clause, that say it is not taken: a denial, an allergy, a
 * medicine stopped. Example: "not on any" of "I'm not on any blood thinners", "allergic to" of
 * "allergic to penicillin", "stopped" of "I stopped the ramipril".
 */
const NOT_TAKEN =
  /\b(?:not|no|never|don'?t|doesn'?t|didn'?t|haven'?t|hasn'?t|isn'?t|aren'?t|wasn'?t|none|without|stopped|quit|allerg\w*|react(?:ion|s|ed)?|intoleran\w*)\b/i;

/**
 * Words after a medicine, in its own clause, that say it brought on an allergic reaction: the medicine
 * is an allergy, not one taken. A side effect of a medicine still taken ("ramipril gives me a cough")
 * is not one. Example: "gives me a rash" of "penicillin gives me a rash", "brought me out in hives".
 */
const CAUSED_REACTION =
  /^[^,;.]*?\b(?:gives?|gave|brings?|brought|makes?|made|causes?|caused|sets?|triggers?|triggered)\b[^,;.]*?\b(?:rash\w*|hives|allerg\w*|reactions?|anaphyla\w*|out in|(?:lips?|face|tongue|throat) (?:to )?swell\w*)/i;

/** Words that are never a medicine's name, wherever they stand. */
const NOT_A_NAME = new Set([
  "anything",
  "nothing",
  "something",
  "medication",
  "medications",
  "medicine",
  "medicines",
  "tablets",
  "tablet",
  "pills",
  "tabs",
  "them",
  "that",
  "this",
  "those",
  "these",
  "about",
  "around",
  "maybe",
  "every",
  "some",
  "regular",
  "regularly",
  "daily",
  "each",
  "much",
  "more",
  "less",
]);

interface Found {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

/** A medicine's words without spaces or hyphens, as a key: "co-codamol", "co codamol" and "cocodamol" are one. */
const squashed = (words: string) => words.toLowerCase().replace(/[\s-]+/g, "");

let knownPattern: { pattern: RegExp; nameOf: ReadonlyMap<string, string> } | undefined;

/** One pattern for every known medicine's words, longest first, and the name each word (squashed) stands for. */
function knownMedicines(): { pattern: RegExp; nameOf: ReadonlyMap<string, string> } {
  if (knownPattern) return knownPattern;
  const nameOf = new Map<string, string>();
  const words: string[] = [];
  for (const medicine of loadOntologyFile("medicines.json").medicines)
    for (const said of medicine.said) {
      nameOf.set(squashed(said), medicine.name);
      words.push(said);
    }
  words.sort((a, b) => b.length - a.length);
  const escaped = words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/[ -]/g, "[\\s-]?"));
  knownPattern = { pattern: new RegExp(`\\b(?:${escaped.join("|")})\\b`, "gi"), nameOf };
  return knownPattern;
}

/** The known medicines `text` names, in order. */
function knownIn(text: string): Found[] {
  const { pattern, nameOf } = knownMedicines();
  const found: Found[] = [];
  for (const match of text.matchAll(pattern)) {
    const name = nameOf.get(squashed(match[0]));
    if (name) found.push({ name, start: match.index, end: match.index + match[0].length });
  }
  return found;
}

/** Whether an unknown word may be a medicine's name: no everyday word (MTS-Dialog's vocabulary) unless it ends in a drug stem. */
function mayBeName(word: string): boolean {
  const lower = word.toLowerCase();
  if (NOT_A_NAME.has(lower)) return false;
  return DRUG_STEM.test(lower) || !conversationVocabulary().has(lower);
}

/** Unknown medicines' names in `text`, outside the known ones. */
function unknownIn(text: string, known: readonly Found[]): Found[] {
  const found: Found[] = [];
  const overlaps = (start: number, end: number) =>
    [...known, ...found].some((other) => start < other.end && other.start < end);
  for (const pattern of [NAME_BEFORE_DOSE, NAME_AFTER_TAKING]) {
    for (const match of text.matchAll(pattern)) {
      const word = match[1]!;
      const start = match.index + match[0].indexOf(word);
      const end = start + word.length;
      if (!mayBeName(word) || overlaps(start, end)) continue;
      if (pattern === NAME_AFTER_TAKING && !DRUG_STEM.test(word) && !endsAsMedicine(text.slice(end))) continue;
      found.push({ name: word.toLowerCase(), start, end });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/**
 * What follows a word after "I'm on" that makes it a medicine's name: the end of its clause, what it
 * is for, its form, or a dose or frequency in its clause ("I'm on zorblex." / "zorblex tablets" /
 * "zorblex twice a day"), unlike "I'm on holiday next week".
 */
function endsAsMedicine(after: string): boolean {
  const clause = after.split(CLAUSE_END)[0]!;
  return (
    /^\s*(?:$|for\b|tablets?\b|pills?\b|capsules?\b|inhaler\b|cream\b|injections?\b)/i.test(clause) ||
    DOSE_AMOUNT.test(clause) ||
    DOSE_COUNT.test(clause) ||
    FREQUENCY.test(clause)
  );
}

/** The last clause boundary in `text` between `from` and `to`, or `to` when there is none. */
function boundaryBetween(text: string, from: number, to: number): number {
  let at = to;
  for (const match of text.slice(from, to).matchAll(CLAUSE_BOUNDARY)) at = from + match.index;
  return at;
}

/** The first match of `pattern` in `words`, as said (spaces tidied), or null. */
function firstSaid(pattern: RegExp, words: string): string | null {
  const match = pattern.exec(words);
  return match ? match[0].trim().replace(/\s+/g, " ") : null;
}

/** A dose said in `words`: an amount before a count ("500mg" of "500mg, two tablets"). */
function doseIn(words: string): string | null {
  return firstSaid(DOSE_AMOUNT, words) ?? firstSaid(DOSE_COUNT, words);
}

/**
 * The medicines a patient turn names, each with the dose and frequency said in its own words.
 * `aboutMedicines`: the turn answers a question about medicines (or the NLU read a medication in it) —
 * only then is a name the list lacks kept, and a dose or frequency said alone given to the medicine
 * last named. Example: "I take ramipril 5mg in the morning and atorvastatin at night" →
 * ramipril 5mg in the morning; atorvastatin at night.
 */
export function readMedicineMentions(utterance: string, aboutMedicines: boolean): MedicineMention[] {
  const known = knownIn(utterance);
  const named = aboutMedicines ? [...known, ...unknownIn(utterance, known)].sort((a, b) => a.start - b.start) : known;
  if (named.length === 0) return aboutMedicines ? doseSaidAlone(utterance) : [];
  return named.flatMap((medicine, index) => {
    const previous = named[index - 1];
    const next = named[index + 1];
    const start = previous ? boundaryBetween(utterance, previous.end, medicine.start) : 0;
    const end = next ? boundaryBetween(utterance, medicine.end, next.start) : utterance.length;
    const before = utterance.slice(clauseStart(utterance, start, medicine.start), medicine.start);
    if (NOT_TAKEN.test(before) || CAUSED_REACTION.test(utterance.slice(medicine.end, end))) return [];
    const after = utterance.slice(medicine.end, end);
    const words = `${utterance.slice(start, medicine.start)} ${after}`;
    const dose = doseIn(words) ?? BARE_DOSE_AFTER_NAME.exec(after)?.[1] ?? null;
    return [{ name: medicine.name, dose, frequency: firstSaid(FREQUENCY, words) }];
  });
}

/** Where the clause holding `at` begins (a comma, "and", "but"…), not before `from`. */
function clauseStart(text: string, from: number, at: number): number {
  let start = from;
  for (const match of text.slice(from, at).matchAll(CLAUSE_START)) start = from + match.index + match[0].length;
  return start;
}
