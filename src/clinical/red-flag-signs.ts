import { withFirstAtomLookahead } from "./first-atom-lookahead.ts";
import type { StatedCriterion } from "../ontology/red-flags-schema.ts";

/**
 * Reading red-flag signs from the patient's own words (`signs` of `ontology/red-flags.json`), so an
 * emergency told in lay words fires even when no NLU maps it to CMAS. Each sentence is read alone;
 * a sign said under a negation ("no temperature", "nearly passed out") does not count, and the signs of
 * a conversation are the union over its patient turns, so a flag needing two findings fires when they
 * are said in different turns.
 */

/** A sign as data: what it means, its patterns (sources of case-insensitive regular expressions) and examples. */
export interface SignDefinition {
  readonly means: string;
  readonly patterns: readonly string[];
  readonly examples: readonly string[];
}

/** A term as data: what it means and its forms (sources of regular expressions), named by patterns as `{{term}}`. */
export interface TermDefinition {
  readonly means: string;
  readonly forms: readonly string[];
}

/**
 * Where a pattern names a term.
 * @example "{{vomit}}[^.;]{0,30}{{blood}}" names the terms `vomit` and `blood`
 */
const TERM_REFERENCE = /\{\{([a-z0-9_]+)\}\}/g;

/** How deep terms may name terms: deeper is a loop. */
const MAX_TERM_DEPTH = 8;

/**
 * A pattern's source with each `{{term}}` replaced by a group of the term's forms (terms inside
 * forms too). Throws on a term that is not defined, and on terms that name each other in a loop.
 */
export function expandTerms(pattern: string, terms: Readonly<Record<string, TermDefinition>>, depth = 0): string {
  if (depth > MAX_TERM_DEPTH) throw new Error(`terms name each other in a loop (in '${pattern}')`);
  return pattern.replace(TERM_REFERENCE, (_whole, name: string) => {
    const term = terms[name];
    if (!term) throw new Error(`unknown term '{{${name}}}'`);
    return `(?:${term.forms.map((form) => expandTerms(form, terms, depth + 1)).join("|")})`;
  });
}

/** Each sign found, with the words that showed it (the first match not under a negation). */
export type SignsFound = ReadonlyMap<string, string>;

/**
 * Where a sentence ends: after `.`, `!`, `?` or `;`, or at a line break.
 * @example "My back hurts. I can't wee" → "My back hurts." and "I can't wee"
 */
const SENTENCE_END = /(?<=[.!?;])\s+|\n+/;

/**
 * Where a clause starts, for the scope of a negation: a comma, a colon, or "but", "though", "however", "and".
 * @example "no fever and a stiff neck": the negation of "fever" does not reach "stiff neck"
 */
const CLAUSE_START = /[,:]|\s[-–—]\s|\b(?:but|though|although|however|and|then)\b/g;

/**
 * A word that takes back what follows in its clause: a negation, a denial, or "nearly" and "almost".
 * Negations that are part of a sign ("can't feel", "hasn't had a wet nappy") start the sign's own match,
 * so they are not before it. A starting point ("went from nothing to the worst pain of my life", "from
 * no pain to agony") takes nothing back.
 * @example "she has no temperature", "I nearly passed out", "negative pregnancy test"
 */
const NEGATION_CUE =
  /(?<!\bfrom )\b(?:no|not|never|without|none|nothing|denies|denied|negative|don'?t|doesn'?t|didn'?t|haven'?t|hasn'?t|isn'?t|wasn'?t|aren'?t|nearly|almost)\b/;

/** How many words before a sign a negation reaches (further along a list joined by "or": "no blood or black stools"). */
const NEGATION_REACH = 6;

/**
 * A negation followed, later in its clause, by "or" or "nor": it reaches every item of the list.
 * @example "i haven't had thoughts of harming myself or" (before "ending my life")
 */
const NEGATED_LIST =
  /\b(?:no|not|never|without|don'?t|doesn'?t|didn'?t|haven'?t|hasn'?t|isn'?t|wasn'?t|aren'?t)\b.*\b(?:or|nor)\b/;

/**
 * Text as the sign patterns read it: lower case, typographic apostrophes straightened, spaces collapsed.
 * @example "My Dad’s  face" → "my dad's face"
 */
export function normaliseSaid(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`´]/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}

/** The sentences of a patient turn, normalised; empty ones dropped. */
export function sentencesOf(text: string): string[] {
  return text
    .split(SENTENCE_END)
    .map(normaliseSaid)
    .filter((sentence) => sentence.length > 0);
}

/**
 * A correction that takes back the words just said, read right after a sign's match: "swollen, well
 * not swollen".
 * @example ", well not swollen, there's a little pea" (after "my testicle's swollen")
 */
const TAKEN_BACK_AFTER = /^\W{0,3}(?:well|or rather|i mean),? not\b/;

/**
 * The same correction at the end of a sign's match, when the match reached over it: "worst headache
 * ever, well not ever". One inside the match that goes on to other words corrects them upwards ("a bit
 * dark, well not dark, black") and takes nothing back.
 * @example "worst headache ever, well not ever"
 */
const TAKEN_BACK_AT_END = /\b(?:well|or rather|i mean),? not \w+$/;

/**
 * A correction that says, after a denial, that it is so after all: "it's not sore, well it is, agony".
 * Read in a sign's match and just after it: the denial before the match then does not take it back.
 * @example "it's not numb exactly, well it is, round the back passage"
 */
const SAID_AFTER_ALL = /\b(?:well|actually|no),? (?:it is|it does|it has|it'?s|yes|i am|i do|he is|she is)\b/;

/**
 * A sentence that answers the one before it with a denial: the one before is the doctor's question
 * said back ("blood in my vomit? no, none"), so its words are not the patient's. A bare "no" only:
 * "all of a sudden? no pain, just gone" answers nothing.
 * @example "no, no blood, only the yellow water" (after "blood in my vomit?")
 */
const DENYING_ANSWER = /^(?:no|nope|never|none|not at all)(?:[,.!]|$)/;

/** Whether the sentence at `index` is a question said back and then denied by the next sentence. */
function isDeniedEcho(sentences: readonly string[], index: number): boolean {
  const next = sentences[index + 1];
  return sentences[index]!.endsWith("?") && next !== undefined && DENYING_ANSWER.test(next);
}

/** How far past a sign's match a correction is read, in characters. */
const CORRECTION_REACH = 24;

/**
 * "Without" after "can't" in its clause: a double negative, which says the thing is there.
 * @example "I can't even sit on the bus without a stabbing pain" (the pain is there)
 */
const CANNOT_WITHOUT = /\b(?:can'?t|cannot|couldn'?t|can not|could not)\b.*\bwithout\b/;

/** Whether the words before a match, within its clause and reach, take it back (and no correction says it after all). */
function isNegated(sentence: string, start: number, end: number): boolean {
  const before = sentence.slice(0, start);
  let clauseStart = 0;
  for (const boundary of before.matchAll(CLAUSE_START)) clauseStart = boundary.index + boundary[0].length;
  const said = before.slice(clauseStart).trim();
  const clause = CANNOT_WITHOUT.test(said) ? said.replace(/\bwithout\b/g, "with") : said;
  const words = clause.split(/\s+/).slice(-NEGATION_REACH).join(" ");
  const denied = NEGATION_CUE.test(words) || NEGATED_LIST.test(clause);
  return denied && !SAID_AFTER_ALL.test(sentence.slice(start, end + CORRECTION_REACH));
}

/** Whether a correction at the end of a match, or just after it, takes it back. */
function isTakenBack(sentence: string, start: number, end: number): boolean {
  return (
    TAKEN_BACK_AFTER.test(sentence.slice(end, end + CORRECTION_REACH)) ||
    TAKEN_BACK_AT_END.test(sentence.slice(start, end))
  );
}

/**
 * A word as the respellings see it: letters, then perhaps an apostrophe and an ending (`'s`, `'ll`).
 * @example "cant" in "i cant wee" (respelled "can't"); "da's" in "me da's back" (its stem respelled: "dad's")
 */
const WORD = /([a-z]+)('[a-z]+)?/g;

/** How many turn texts a reader remembers the signs of (a few hundred conversations' worth). */
const READ_CACHE_LIMIT = 4096;

/**
 * A subject at least this long makes V8 compile a regular expression to machine code on its first
 * search (`JSRegExp::kTierUpForSubjectLengthValue`, 1,000 characters), where a shorter one is first
 * interpreted from bytecode. Interpreted, a sign's alternation of thousands of characters took up to
 * 0.45 s for one short sentence: the first turns a process read cost about 1.8 s of CPU (178 MediTOD
 * patient turns: 1.76 s; 0.24 s to compile the 95 alternations to machine code at once, then 0.15 s).
 * The search finds nothing in blanks and changes no state of a pattern without the `g` flag.
 */
const MACHINE_CODE_AT_ONCE = " ".repeat(1000);

/** A sign's patterns, compiled. */
interface CompiledSign {
  readonly id: string;
  readonly patterns: readonly RegExp[];
  /**
   * The sign's patterns as one alternation: a sentence it misses holds none of them, so most signs
   * cost one search a sentence. (One alternation of every sign's patterns, tried first, grew past
   * 40 KB of source once the patterns named shared terms: V8 took about 0.3 s to compile it and
   * another 0.2 s to compile it again to machine code during a conversation.)
   */
  readonly anyPattern: RegExp;
}

/** Reads signs from sentences. A conversation reads each turn once and pools them ({@link poolSigns}). */
export class SignReader {
  private readonly signs: readonly CompiledSign[];
  private readonly respellings: ReadonlyMap<string, string>;
  private readonly otherSubjects: readonly RegExp[];

  /**
   * Signs as data; their patterns may name `terms` (`{{term}}`, see {@link expandTerms}), and each
   * sentence's words are respelled first (`respellings`: "cant" → "can't").
   */
  constructor(
    definitions: Readonly<Record<string, SignDefinition>>,
    terms: Readonly<Record<string, TermDefinition>> = {},
    respellings: Readonly<Record<string, string>> = {},
    otherSubjects: readonly string[] = [],
  ) {
    this.respellings = new Map(Object.entries(respellings));
    this.otherSubjects = otherSubjects.map((pattern) => new RegExp(expandTerms(pattern, terms), "i"));
    const sources = new Map(
      Object.entries(definitions).map(([id, sign]) => [
        id,
        // A lookahead of each pattern's first words spares its leading lookbehinds at most positions (same matches).
        sign.patterns.map((pattern) => withFirstAtomLookahead(expandTerms(pattern, terms))),
      ]),
    );
    this.signs = [...sources].map(([id, patterns]) => ({
      id,
      patterns: patterns.map((pattern) => new RegExp(pattern, "gi")),
      anyPattern: new RegExp(patterns.map((pattern) => `(?:${pattern})`).join("|"), "i"),
    }));
  }

  /** The first match of a sign in a sentence that no negation takes back, or null. */
  private matchIn(sign: CompiledSign, sentence: string): string | null {
    if (!sign.anyPattern.test(sentence)) return null;
    for (const pattern of sign.patterns) {
      for (const match of sentence.matchAll(pattern)) {
        const end = match.index + match[0].length;
        if (!isNegated(sentence, match.index, end) && !isTakenBack(sentence, match.index, end)) return match[0];
      }
    }
    return null;
  }

  /**
   * What turns have shown, by their text: a conversation's said-criteria read every earlier turn
   * again at each new one. Emptied when it reaches {@link READ_CACHE_LIMIT} texts, so a long-running
   * server holds a bounded number.
   */
  private readonly readCache = new Map<string, SignsFound>();

  /** The signs in one patient turn. */
  read(text: string): SignsFound {
    const cached = this.readCache.get(text);
    if (cached !== undefined) return cached;
    if (this.readCache.size >= READ_CACHE_LIMIT) this.readCache.clear();
    const found = this.readUncached(text);
    this.readCache.set(text, found);
    return found;
  }

  /** Whether the signs' alternations are compiled to machine code yet ({@link MACHINE_CODE_AT_ONCE}). */
  private compiled = false;

  private readUncached(text: string): SignsFound {
    if (!this.compiled) {
      for (const sign of this.signs) sign.anyPattern.test(MACHINE_CODE_AT_ONCE);
      this.compiled = true;
    }
    const found = new Map<string, string>();
    const sentences = sentencesOf(text);
    for (const [index, said] of sentences.entries()) {
      if (isDeniedEcho(sentences, index)) continue;
      const sentence = this.respell(said);
      if (this.isAboutOthers(sentence)) continue;
      for (const sign of this.signs) {
        if (found.has(sign.id)) continue;
        const words = this.matchIn(sign, sentence);
        if (words !== null) found.set(sign.id, words);
      }
    }
    return found;
  }

  /** Whether a sentence is about a pet or something seen, heard or read (the `otherSubjects` patterns). */
  isAboutOthers(sentence: string): boolean {
    return this.otherSubjects.some((pattern) => pattern.test(sentence));
  }

  /** A sentence with each word that has a respelling respelled. */
  private respell(sentence: string): string {
    if (this.respellings.size === 0) return sentence;
    return sentence.replace(WORD, (word, stem: string, ending: string | undefined) => {
      const whole = this.respellings.get(word);
      if (whole !== undefined) return whole;
      const respelled = ending === undefined ? undefined : this.respellings.get(stem);
      return respelled === undefined ? word : `${respelled}${ending}`;
    });
  }

  /** The signs of several patient turns together (the earliest words for each sign). */
  readAll(texts: readonly string[]): SignsFound {
    return poolSigns(texts.map((text) => this.read(text)));
  }
}

/** Signs found in turns, pooled: each sign with the earliest words that showed it; `into` is added to when given. */
export function poolSigns(turns: readonly SignsFound[], into = new Map<string, string>()): Map<string, string> {
  for (const found of turns) {
    for (const [sign, words] of found) if (!into.has(sign)) into.set(sign, words);
  }
  return into;
}

/** The signs a stated criterion names. */
export function signsOf(criterion: StatedCriterion): string[] {
  if ("sign" in criterion) return [criterion.sign];
  if ("not" in criterion) return signsOf(criterion.not);
  return ("all" in criterion ? criterion.all : criterion.any).flatMap(signsOf);
}

/** The signs a stated criterion needs present (those under a `not` left out). */
export function positiveSignsOf(criterion: StatedCriterion): string[] {
  if ("sign" in criterion) return [criterion.sign];
  if ("not" in criterion) return [];
  return [...new Set(("all" in criterion ? criterion.all : criterion.any).flatMap(positiveSignsOf))];
}

/**
 * The words that make a stated criterion hold (`said: <words>` each), or null when it does not hold.
 * A `not` holds with no evidence of its own.
 */
export function statedEvidence(criterion: StatedCriterion, found: SignsFound): string[] | null {
  if ("sign" in criterion) {
    const words = found.get(criterion.sign);
    return words === undefined ? null : [`said: "${words}"`];
  }
  if ("not" in criterion) return statedEvidence(criterion.not, found) === null ? [] : null;
  if ("all" in criterion) {
    const evidence: string[] = [];
    for (const part of criterion.all) {
      const held = statedEvidence(part, found);
      if (held === null) return null;
      evidence.push(...held);
    }
    return [...new Set(evidence)];
  }
  for (const part of criterion.any) {
    const held = statedEvidence(part, found);
    if (held !== null) return held;
  }
  return null;
}
