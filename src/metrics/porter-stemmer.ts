/**
 * The Porter stemmer as nltk 3.8 implements it in its default mode, `NLTK_EXTENSIONS`
 * (`nltk/stem/porter.py`), which is what rouge_score's `use_stemmer=True` uses.
 *
 * Written from the algorithm description and the nltk behaviour (not a transliteration). The places
 * where NLTK_EXTENSIONS departs from Porter (1980) are marked "nltk:". Indexing is by UTF-16 code unit,
 * which is exact for BMP text (rouge only ever passes `[a-z0-9]+`).
 */
import { pyLen, pyLower } from "./python-text.ts";

/** Condition on the stem left after removing a suffix; `null` means unconditional. */
type Condition = ((stem: string) => boolean) | null;
type Rule = readonly [suffix: string, replacement: string, condition: Condition];

// nltk: irregular forms looked up before any stemming.
const IRREGULAR: ReadonlyMap<string, string> = new Map([
  ["sky", "sky"],
  ["skies", "sky"],
  ["dying", "die"],
  ["lying", "lie"],
  ["tying", "tie"],
  ["news", "news"],
  ["innings", "inning"],
  ["inning", "inning"],
  ["outings", "outing"],
  ["outing", "outing"],
  ["cannings", "canning"],
  ["canning", "canning"],
  ["howe", "howe"],
  ["proceed", "proceed"],
  ["exceed", "exceed"],
  ["succeed", "succeed"],
]);

function isVowelLetter(c: number): boolean {
  return c === 97 || c === 101 || c === 105 || c === 111 || c === 117; // a e i o u
}

/** Porter's consonant: not a/e/i/o/u, and `y` only when it does not follow a consonant (or starts the word). */
function isConsonant(word: string, i: number): boolean {
  const c = word.charCodeAt(i);
  if (isVowelLetter(c)) return false;
  if (c === 121 /* y */) return i === 0 ? true : !isConsonant(word, i - 1);
  return true;
}

/** The measure m of `[C](VC){m}[V]`: the number of vowel→consonant transitions. */
function measure(stem: string): number {
  let m = 0;
  let prevVowel = false;
  for (let i = 0; i < stem.length; i++) {
    const cons = isConsonant(stem, i);
    if (cons && prevVowel) m++;
    prevVowel = !cons;
  }
  return m;
}

function hasPositiveMeasure(stem: string): boolean {
  return measure(stem) > 0;
}

function measureGreaterThanOne(stem: string): boolean {
  return measure(stem) > 1;
}

function containsVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

/** Condition *d: the word ends with a double consonant. */
function endsDoubleConsonant(word: string): boolean {
  const n = word.length;
  return n >= 2 && word.charCodeAt(n - 1) === word.charCodeAt(n - 2) && isConsonant(word, n - 1);
}

/** Condition *o: ends consonant-vowel-consonant, the last not w/x/y; nltk: also a 2-letter vowel+consonant word. */
function endsCvc(word: string): boolean {
  const n = word.length;
  if (n >= 3) {
    const last = word.charCodeAt(n - 1);
    if (
      isConsonant(word, n - 3) &&
      !isConsonant(word, n - 2) &&
      isConsonant(word, n - 1) &&
      last !== 119 && // w
      last !== 120 && // x
      last !== 121 // y
    ) {
      return true;
    }
  }
  return n === 2 && !isConsonant(word, 0) && isConsonant(word, 1);
}

/**
 * Applies the first rule whose suffix matches. Like nltk, a matching suffix whose condition fails stops
 * the search (the word is returned unchanged); later rules are not tried. The pseudo-suffix `*d` matches
 * a word ending in a double consonant and strips both letters before the replacement is appended.
 */
function applyRuleList(word: string, rules: readonly Rule[]): string {
  // Indexed, not `for (const [suffix, …] of rules)`: the stemmer runs mostly before V8 compiles it, and
  // in the interpreter each destructured rule costs an iterator (a third of the stemming time).
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index]!;
    const suffix = rule[0];
    const replacement = rule[1];
    const condition = rule[2];
    if (suffix === "*d") {
      if (endsDoubleConsonant(word)) {
        const stem = word.slice(0, -2);
        return condition === null || condition(stem) ? stem + replacement : word;
      }
      continue;
    }
    if (word.endsWith(suffix)) {
      const stem = word.slice(0, word.length - suffix.length);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
  }
  return word;
}

const STEP1A_RULES: readonly Rule[] = [
  ["sses", "ss", null],
  ["ies", "i", null],
  ["ss", "ss", null],
  ["s", "", null],
];

function step1a(word: string): string {
  // nltk: a 4-letter "-ies" word keeps "ie" ("dies" -> "die"; "flies" -> "fli").
  if (word.length === 4 && word.endsWith("ies")) return word.slice(0, -3) + "ie";
  return applyRuleList(word, STEP1A_RULES);
}

function step1b(word: string): string {
  // nltk: "died" -> "die" but "spied" -> "spi".
  if (word.endsWith("ied")) return word.slice(0, -3) + (word.length === 4 ? "ie" : "i");

  if (word.endsWith("eed")) {
    const stem = word.slice(0, -3);
    return measure(stem) > 0 ? stem + "ee" : word;
  }

  let stem: string;
  if (word.endsWith("ed") && containsVowel(word.slice(0, -2))) stem = word.slice(0, -2);
  else if (word.endsWith("ing") && containsVowel(word.slice(0, -3))) stem = word.slice(0, -3);
  else return word;

  const last = stem[stem.length - 1] as string;
  return applyRuleList(stem, [
    ["at", "ate", null],
    ["bl", "ble", null],
    ["iz", "ize", null],
    ["*d", last, () => last !== "l" && last !== "s" && last !== "z"],
    ["", "e", (s) => measure(s) === 1 && endsCvc(s)],
  ]);
}

// nltk: y -> i only after a consonant, and not when that consonant is the whole stem ("spy" -> "spi",
// "enjoy" stays).
const STEP1C_RULES: readonly Rule[] = [["y", "i", (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)]];

const STEP2_RULES: readonly Rule[] = [
  ["ational", "ate", hasPositiveMeasure],
  ["tional", "tion", hasPositiveMeasure],
  ["enci", "ence", hasPositiveMeasure],
  ["anci", "ance", hasPositiveMeasure],
  ["izer", "ize", hasPositiveMeasure],
  ["bli", "ble", hasPositiveMeasure], // nltk: replaces Porter's "abli" -> "able"
  ["alli", "al", hasPositiveMeasure],
  ["entli", "ent", hasPositiveMeasure],
  ["eli", "e", hasPositiveMeasure],
  ["ousli", "ous", hasPositiveMeasure],
  ["ization", "ize", hasPositiveMeasure],
  ["ation", "ate", hasPositiveMeasure],
  ["ator", "ate", hasPositiveMeasure],
  ["alism", "al", hasPositiveMeasure],
  ["iveness", "ive", hasPositiveMeasure],
  ["fulness", "ful", hasPositiveMeasure],
  ["ousness", "ous", hasPositiveMeasure],
  ["aliti", "al", hasPositiveMeasure],
  ["iviti", "ive", hasPositiveMeasure],
  ["biliti", "ble", hasPositiveMeasure],
  ["fulli", "ful", hasPositiveMeasure], // nltk extension
];

function step2(word: string): string {
  // nltk: "alli" -> "al" is tried first and, when it fires, step 2 runs again on the result.
  if (word.endsWith("alli") && hasPositiveMeasure(word.slice(0, -4))) return step2(word.slice(0, -4) + "al");
  // nltk: "logi" -> "log" with the measure taken on the stem that keeps the "l" ("geologi" -> "geolog").
  // nltk lists it last, but no other step-2 suffix can match a word ending in "logi", so testing it
  // first is equivalent and avoids a per-word closure.
  if (word.endsWith("logi")) return hasPositiveMeasure(word.slice(0, -3)) ? word.slice(0, -1) : word;
  return applyRuleList(word, STEP2_RULES);
}

const STEP3_RULES: readonly Rule[] = [
  ["icate", "ic", hasPositiveMeasure],
  ["ative", "", hasPositiveMeasure],
  ["alize", "al", hasPositiveMeasure],
  ["iciti", "ic", hasPositiveMeasure],
  ["ical", "ic", hasPositiveMeasure],
  ["ful", "", hasPositiveMeasure],
  ["ness", "", hasPositiveMeasure],
];

const STEP4_RULES: readonly Rule[] = [
  ["al", "", measureGreaterThanOne],
  ["ance", "", measureGreaterThanOne],
  ["ence", "", measureGreaterThanOne],
  ["er", "", measureGreaterThanOne],
  ["ic", "", measureGreaterThanOne],
  ["able", "", measureGreaterThanOne],
  ["ible", "", measureGreaterThanOne],
  ["ant", "", measureGreaterThanOne],
  ["ement", "", measureGreaterThanOne],
  ["ment", "", measureGreaterThanOne],
  ["ent", "", measureGreaterThanOne],
  ["ion", "", (stem) => measure(stem) > 1 && (stem.endsWith("s") || stem.endsWith("t"))],
  ["ou", "", measureGreaterThanOne],
  ["ism", "", measureGreaterThanOne],
  ["ate", "", measureGreaterThanOne],
  ["iti", "", measureGreaterThanOne],
  ["ous", "", measureGreaterThanOne],
  ["ive", "", measureGreaterThanOne],
  ["ize", "", measureGreaterThanOne],
];

function step5a(word: string): string {
  // Both "e" rules are tried (unlike applyRuleList): (m>1) E -> ; (m=1 and not *o) E -> .
  if (!word.endsWith("e")) return word;
  const stem = word.slice(0, -1);
  const m = measure(stem);
  if (m > 1) return stem;
  if (m === 1 && !endsCvc(stem)) return stem;
  return word;
}

function step5b(word: string): string {
  // (m>1 and *d and *L): the measure is taken on the word minus one "l".
  if (word.endsWith("ll") && measure(word.slice(0, -1)) > 1) return word.slice(0, -1);
  return word;
}

/** nltk `PorterStemmer().stem(word)` (NLTK_EXTENSIONS, `to_lowercase=True`) without caching. */
export function porterStemUncached(word: string): string {
  const lower = pyLower(word);
  // nltk looks the word up as given; pool keys are lower-case, so a hit is already lower-case.
  const irregular = IRREGULAR.get(word);
  if (irregular !== undefined) return irregular;
  // nltk: words of one or two characters are returned (lower-cased) without stemming.
  if (pyLen(word) <= 2) return lower;
  let stem = step1a(lower);
  stem = step1b(stem);
  stem = applyRuleList(stem, STEP1C_RULES);
  stem = step2(stem);
  stem = applyRuleList(stem, STEP3_RULES);
  stem = applyRuleList(stem, STEP4_RULES);
  stem = step5a(stem);
  return step5b(stem);
}

// Stems depend only on the word, and a corpus has a small vocabulary, so a memo removes nearly all of the
// stemming cost. It is bounded so that a long-running process cannot grow it without limit.
const MEMO_LIMIT = 500_000;
const memo = new Map<string, string>();

/** nltk 3.8 `PorterStemmer().stem(word)` in NLTK_EXTENSIONS mode, memoised. */
export function porterStem(word: string): string {
  let stem = memo.get(word);
  if (stem === undefined) {
    stem = porterStemUncached(word);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(word, stem);
  }
  return stem;
}
