import Fuse from "fuse.js";
import { stemKey } from "./text.ts";

/**
 * Spelling correction of medical words ("wheezin", "diarhea", "nausious") with fuse.js, against the
 * words of the lexicon forms. Only words that are not already known (lexicon, training transcripts,
 * everyday English) are looked up, so ordinary words are never bent into symptoms, and each lookup
 * is cached: per turn this costs a few map hits.
 */

/** Everyday words of patient speech that must never be "corrected". */
const EVERYDAY =
  `about above actually after again against ago all almost alone along already also although always am among
an and another any anybody anymore anyone anything anyway anywhere are around as ask asked at away back bad be because been
before being believe best better between big bit both bring brought but buy by call called came can cannot car care case
cause certain change changed changes check child children city clean close cold come comes coming could couple course
day days did different do does doing done down during each early easy eat else end enough even evening ever every
everybody everyone everything exactly far feel feeling feels felt few find fine first food for found friend friends from
front full get gets getting give given go goes going gone good got great had happen happened happening has have having he
head hear heard help helped helps her here high him his home honestly hour hours house how however idea if important in
inside instead interestingly into is it its itself job just keep kind kinds kinda knew know known last late lately later
least left less let life like likely little live lived living long longer look looked looking lot lots made make makes
making many may maybe me mean meeting meetings might mind minute minutes moment month months more morning most mostly much
must my myself name near need needed never new next nice night no none normal not nothing notice noticed now of off often
oh okay ok old on once one only or other others otherwise our out outside over own part past people perhaps person
picked place please point possibly pretty probably problem problems quite rather really reason recently remember right
said same saw say saying says see seem seemed seems seen several she should since sleep slightly small so some somebody
someone something sometimes somewhat soon sorry sort start started starting still stop stopped such suppose sure take
taken taking talk tell than thank thanks that the their them then there these they thing things think thinking this
those though thought through throughout time times to today together told too took totally tried try trying turn twice
under until up upon us use used using usual usually very wait want wanted was way we week weekend weekends weeks well
went were what whatever when where whether which while who whole why will wish with within without woke work worked weigh weighs
tall height inches feet pounds kilos born married single divorced retired school college miles blocks minutes
spending spend spent walking talking sleeping eating working living moving trying getting going coming having making
taking giving looking saying telling asking reading driving sitting standing lying laying running climbing cleaning
cooking shopping garden gardening yard kitchen stairs hill hills uphill downhill slope slopes incline gym jogging
cycling swimming dinner lunch breakfast wedding party church store office class
team staff nurse clinic pharmacy weather outside inside night nights mornings evenings weekend anything everything
sometimes usually really pretty little better worse maybe probably actually definitely basically literally quickly
slowly suddenly gradually recently lately honestly hopefully luckily thankfully unfortunately especially mostly mainly
husband wife partner daughter son mother father sister brother parents grandma grandpa friend friends neighbor
neighbour roommate coworker coworkers boyfriend girlfriend children kids baby babies cousin uncle aunt family
working worried worry worse worst would yeah year years yes yesterday yet you your yourself`.split(/\s+/);

/**
 * A comparative, superlative or adverb of a known word, or the word with "less" or "ness": "fewer"
 * (few), "bigger" (big), "dizzier" (dizzy), "weirdly" (weird), "sleepless". These are words, never
 * misspellings: "fewer wet nappies" is not "fever".
 */
const DERIVED = /^(\w{3,}?)(?:er|est|ly|ness|less)$/;

function derivedFromKnown(word: string, known: ReadonlySet<string>): boolean {
  const base = DERIVED.exec(word)?.[1];
  if (base === undefined) return false;
  const undoubled = /(\w)\1$/.test(base) ? base.slice(0, -1) : base;
  const bases = [base, undoubled, `${base}e`, base.endsWith("i") ? `${base.slice(0, -1)}y` : base];
  return bases.some((candidate) => known.has(candidate));
}

/**
 * Openings that sound alike and are spelt apart, so a word misspelt by ear starts in another letter's
 * bucket. Example: "fleghm" (phlegm), "kronic" (chronic), "numonia" (pneumonia).
 */
const SOUND_ALIKE_OPENINGS: ReadonlyArray<readonly [string, string]> = [
  ["f", "ph"],
  ["k", "ch"],
  ["n", "pn"],
  ["s", "ps"],
];

/** The word with each sound-alike opening swapped in ("fleghm" → "phleghm"). */
function soundAlikeOpenings(word: string): string[] {
  return SOUND_ALIKE_OPENINGS.filter(([said]) => word.startsWith(said)).map(
    ([said, spelt]) => spelt + word.slice(said.length),
  );
}

/** A spelling corrector for the medical vocabulary. */
export interface SpellingCorrector {
  /** The lexicon word a misspelt word stands for, or undefined when it is known or too far from any. */
  correct(word: string): string | undefined;
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions), capped early. */
export function editDistance(a: string, b: string, cap = 3): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  // Three rows reused in turn (the one before the previous is read for transpositions): the speller
  // calls this for every word of a letter's bucket, and a new array for each row was most of its cost.
  const width = b.length + 1;
  let previous2 = new Array<number>(width).fill(0);
  let previous = new Array<number>(width);
  let current = new Array<number>(width).fill(0);
  for (let j = 0; j < width; j += 1) previous[j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, previous2[j - 2]! + 1);
      current[j] = value;
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > cap) return cap + 1;
    const spare = previous2;
    previous2 = previous;
    previous = current;
    current = spare;
  }
  return previous[b.length]!;
}

/**
 * What the corrector is built from, as plain data (a build may keep it: see `nlu-snapshot.ts`): the
 * lexicon's words of 4+ letters by first letter, every known word, and the known words' stems.
 */
export interface SpellerTables {
  readonly buckets: ReadonlyMap<string, readonly string[]>;
  readonly known: ReadonlySet<string>;
  readonly knownStems: ReadonlySet<string>;
}

/** The speller's tables: `targets` are the lexicon's words, `known` the words seen in the training transcripts. */
export function spellerTables(targets: Iterable<string>, known: Iterable<string> = []): SpellerTables {
  const targetList = [...new Set(targets)].filter((word) => word.length >= 4);
  const knownSet = new Set<string>([...EVERYDAY, ...known, ...targetList]);
  // "smelling" is known when "smell" is: inflections of known words are never misspellings.
  const knownStems = new Set<string>([...knownSet].map(stemKey));
  const buckets = new Map<string, string[]>();
  for (const word of targetList) {
    const bucket = buckets.get(word[0]!) ?? [];
    bucket.push(word);
    buckets.set(word[0]!, bucket);
  }
  return { buckets, known: knownSet, knownStems };
}

/**
 * Builds the corrector. `targets` are the lexicon's words; `known` are words seen in the training
 * transcripts (never corrected). Fuse proposes candidates within the word's first-letter bucket (a
 * small index, so a lookup stays well under a millisecond); a candidate is accepted only within one
 * edit (two for words of 8+ letters). Words shorter than 5 letters are left alone.
 */
export function createSpellingCorrector(targets: Iterable<string>, known: Iterable<string> = []): SpellingCorrector {
  return spellingCorrectorFrom(spellerTables(targets, known));
}

/** The corrector over tables that {@link spellerTables} made. */
export function spellingCorrectorFrom({ buckets, known: knownSet, knownStems }: SpellerTables): SpellingCorrector {
  // A letter's Fuse index is built the first time a word of that letter needs it: most buckets are
  // never searched in a run, and building all of them was about a fifth of the speller's build time.
  const indexes = new Map<string, Fuse<string>>();
  const indexOf = (letter: string): Fuse<string> | undefined => {
    const words = buckets.get(letter);
    if (!words) return undefined;
    let index = indexes.get(letter);
    if (!index) {
      index = new Fuse(words, { includeScore: true, threshold: 0.4, ignoreLocation: true, isCaseSensitive: true });
      indexes.set(letter, index);
    }
    return index;
  };
  const cache = new Map<string, string | undefined>();
  return {
    correct(word: string): string | undefined {
      if (word.length < 5 || knownSet.has(word) || /['\d]/.test(word) || knownStems.has(stemKey(word)))
        return undefined;
      if (derivedFromKnown(word, knownSet)) return undefined;
      if (cache.has(word)) return cache.get(word);
      const allowed = word.length >= 9 ? 2 : 1;
      // Fuse's answer is kept only within `allowed` edits, so a bucket with no word that near has no
      // answer: most unknown words are no misspelling, and this check costs a fraction of Fuse's search.
      const nearest = (spelt: string): string | undefined =>
        buckets.get(spelt[0]!)?.some((target) => editDistance(spelt, target, allowed) <= allowed)
          ? indexOf(spelt[0]!)
              ?.search(spelt, { limit: 5 })
              .find((hit) => editDistance(spelt, hit.item, allowed) <= allowed)?.item
          : undefined;
      const corrected = [word, ...soundAlikeOpenings(word)].map(nearest).find((hit) => hit !== undefined);
      if (cache.size > 5000) cache.clear();
      cache.set(word, corrected);
      return corrected;
    },
  };
}
