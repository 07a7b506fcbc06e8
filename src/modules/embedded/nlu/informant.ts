import type { NluFrame, SlotEntry } from "../../../cmas/schemas.ts";
import { withAgeGroup, type Informant } from "../../../language/informant.ts";
import type { DialogueTurn } from "../../../language/module-interfaces.ts";
import { PATIENT_WORDS, SPEAKER_WORDS } from "./rules/informant-relations.ts";
import { NUMBER_PATTERN, restoreApostrophes } from "./text.ts";

/**
 * Who the history is about, read from the patient's turns: a relative or carer speaking for the
 * patient ("my son has had a fever", "I'm calling about my dad", "I'm her mum"), the patient's sex
 * (from the word for them, else "she"/"he") and age ("he's 3", "my 18-month-old"). In the first two
 * patient turns a proxy is heard where the relative is the subject of something now ("my daughter
 * has a fever"), never of something past ("my mother had breast cancer" is family history), nor after
 * the speaker has spoken of themself; later, only when the speaker says outright whom they speak for
 * ("sorry, I'm actually calling about my dad", "I'm his wife"), and never in an answer about the family.
 */

/**
 * What the NLU knows of a proxy: the informant, and the lexicon relation that names the patient or
 * the speaker in the proxy's own words ("my dad" → father, "I'm her mum" → mother): a condition of
 * that relation is the patient's, never family history.
 */
export interface ProxyReading {
  readonly informant: Informant;
  readonly patientRelation: string | null;
}

/** A child named by their age alone. Example: "my 8 month old has a fever", "our 2-year-old". */
const AGE_NOUN = `${NUMBER_PATTERN}[- ](?:year|month|week|day)s?[- ]old`;
const PATIENT_WORD = [...Object.keys(PATIENT_WORDS).sort((a, b) => b.length - a.length), AGE_NOUN].join("|");
const SPEAKER_WORD = Object.keys(SPEAKER_WORDS).join("|");
const AGE_WORDS = `(?:${NUMBER_PATTERN}[- ](?:year|month|week)[- ]old |little |baby |eldest |youngest |oldest |older |younger )?`;

/** The speaker names themself by their relation. Example: "I'm her mum" → mother, female patient. */
const SPEAKER_SELF = new RegExp(`\\bi(?:'m| am) (his|her|their) (${SPEAKER_WORD})\\b`);

/** The speaker says whom they come about. Example: "I'm calling about my dad", "it's my son". */
const COMING_ABOUT = new RegExp(
  `\\b(?:calling|ringing|phoning|here|in|come|brought|bringing|asking|it's|this is|worried) (?:in )?(?:about |for |on behalf of |with )?(?:my|our) ${AGE_WORDS}(${PATIENT_WORD})\\b`,
);

/**
 * Later in the history, the speaker saying outright whom they speak for. Example: "I'm actually
 * calling about my dad", "this is about my son", "it's my mum who's ill", "on behalf of my wife".
 * Not "my dad had a stroke" nor "I'm here with my son": a relative named is no proxy by itself.
 */
const SPEAKING_FOR = new RegExp(
  `\\b(?:(?:calling|ringing|phoning|here|asking|speaking|come in|came in|writing) (?:\\w+ )?(?:about|for|on behalf of)|(?:this|it)(?:'s| is) (?:all |really |actually )?(?:about|for)|on behalf of) (?:my|our) ${AGE_WORDS}(${PATIENT_WORD})\\b(?!'s)|\\bit's (?:actually |really )?(?:my|our) ${AGE_WORDS}(${PATIENT_WORD}) (?:who|that)\\b`,
);

/** A relative as the subject of something now. Example: "my daughter has a fever", "my son's been sick". */
const RELATIVE_NOW = new RegExp(
  `\\b(?:my|our) ${AGE_WORDS}(${PATIENT_WORD}) (?:(?:has|'s|is|keeps|hasn't|isn't|can't|won't|doesn't|seems|started|woke|complains|came|fell|got|keeps|been)\\b|(?:just |really |also )(?:has|is|keeps|seems))`,
);

/**
 * A relative to whom something sudden has just happened. Example: "my dad just collapsed in the
 * kitchen", "my son went floppy", "my wife passed out". Not when the sentence tells of long ago
 * ({@link LONG_AGO}): "my dad collapsed and died when I was 12" is family history.
 */
const RELATIVE_EVENT = new RegExp(
  `\\b(?:my|our) ${AGE_WORDS}(${PATIENT_WORD}) (?:just |suddenly |has just )?(?:collapsed|fainted|passed out|blacked out|stopped breathing|went (?:floppy|limp|blue|grey|gray|pale)|turned (?:blue|grey|gray|pale))\\b`,
);
/** A sentence telling of the past. Example: "... and died", "years ago", "when I was 12". */
const LONG_AGO = /\b(?:died|passed away|years ago|when i was|as a (?:child|kid)|in (?:19|20)\d\d)\b/;

/** The speaker has spoken of their own illness first ("I've had a cough and my mum has…"): no proxy. */
const FIRST_PERSON = /\b(?:i(?:'ve| have| had|'m| am| feel| get| got)|me)\b/;

/**
 * The patient's age as said. Example: "she's 3", "he is 18 months old", "hes 79" (typed without the
 * apostrophe), "my son is 18 months", "Mr Jones is 84" (a carer names the patient).
 */
const PRONOUN_AGE = new RegExp(
  `\\b(?:(?:he|she|they)(?:'s| is| are| was)|hes|shes|(?:my|our) (?:${PATIENT_WORD})(?:'s| is)|(?:mr|mrs|ms|miss|mister)\\.? [a-z]+(?:'s| is)) (?:only |just |nearly |almost |about )?(${NUMBER_PATTERN})(?: (years?|yrs?|months?|weeks?|days?))?(?: old)?\\b(?! (?:times|minutes|hours|degrees|percent|kilos|pounds))`,
);
const NAMED_AGE = new RegExp(`\\b(?:my|our|he's|she's|aged) (${NUMBER_PATTERN})[- ](year|month|week)s?(?:[- ]old)?\\b`);

/** A doctor's question about the family. Example: "Any medical conditions in your family?". */
const FAMILY_QUESTION =
  /\b(?:family|relatives?|parents?|siblings?|brothers?|sisters?|mother|father|mum|mom|dad|runs? in)\b/;

/** "She"/"her" or "he"/"his" as the patient's pronoun. */
const PRONOUN = /\b(she|her|he|his|him)\b/;

/** Lower-cased, curly apostrophes straightened, contractions typed without one spelt with it ("im his carer"). */
function plain(text: string): string {
  return restoreApostrophes(text.toLowerCase().replace(/[’‘`]/g, "'"));
}

/** Relations of `ontology/lexicon.json` a speaker's word for themself can be ("I'm her mum" → mother). */
const LEXICON_SPEAKERS = new Set([
  "mother",
  "father",
  "wife",
  "husband",
  "partner",
  "daughter",
  "son",
  "sister",
  "brother",
]);

/** "Also", "and", "too" before a relative: a relative's illness added to the patient's own ("also my mum has diabetes"). */
const ADDED = /\b(?:also|and|too|plus)\s*$/;

/** The speaker naming themself by their relation ("I'm her mum"), as a proxy reading. */
function speakerSelf(text: string): ProxyReading | undefined {
  const self = SPEAKER_SELF.exec(text);
  if (!self) return undefined;
  const sex = self[1] === "her" ? "female" : self[1] === "his" ? "male" : null;
  const relation = SPEAKER_WORDS[self[2]!]!;
  // The speaker's word for themself is no family history either ("I'm her mum, she has a rash").
  const named = LEXICON_SPEAKERS.has(relation) ? relation : null;
  return { informant: { relation, patientAge: null, patientSex: sex }, patientRelation: named };
}

/** The proxy a word for the patient ("dad", "son") tells. */
function proxyOfPatientWord(patientWord: string): ProxyReading {
  // The only other word `PATIENT_WORD` matches is a child's age ("my 8 month old"): a parent speaks; the age is read apart.
  const word = PATIENT_WORDS[patientWord] ?? PATIENT_WORDS.child!;
  return {
    informant: withAgeGroup({ relation: word.speaker, patientAge: null, patientSex: word.sex }, word.ageGroup),
    patientRelation: word.lexicon ?? null,
  };
}

/** The proxy a turn opens with, if any: the speaker's relation and what the word for the patient tells. */
function openingProxy(text: string): ProxyReading | undefined {
  const self = speakerSelf(text);
  if (self) return self;
  const firstSentence = text.split(/[.!?;]/, 1)[0]!;
  const now =
    RELATIVE_NOW.exec(firstSentence) ?? (LONG_AGO.test(firstSentence) ? null : RELATIVE_EVENT.exec(firstSentence));
  const before = now ? text.slice(0, now.index) : "";
  const about = COMING_ABOUT.exec(text) ?? (now && !FIRST_PERSON.test(before) && !ADDED.test(before) ? now : null);
  return about ? proxyOfPatientWord(about[1]!) : undefined;
}

/** A proxy declared later in the history: only the speaker naming themself or whom they speak for. */
function laterProxy(text: string): ProxyReading | undefined {
  const self = speakerSelf(text);
  if (self) return self;
  const about = SPEAKING_FOR.exec(text);
  return about ? proxyOfPatientWord((about[1] ?? about[2])!) : undefined;
}

/** The patient's age said in a proxy's turn ("3 years", "18 months"), or null. */
function ageOf(text: string): string | null {
  const pronoun = PRONOUN_AGE.exec(text);
  const named = pronoun ? undefined : NAMED_AGE.exec(text);
  const [number, unit] = pronoun ? [pronoun[1], pronoun[2]] : named ? [named[1], named[2]] : [];
  if (!number) return null;
  const base = (unit ?? "year").replace(/^yrs?$/, "year").replace(/s$/, "");
  return `${number} ${base}s`;
}

/**
 * Proxy readings by turn text, for {@link openingProxy} and {@link laterProxy} (pure functions of the
 * text): every turn of a dialogue reads the history again, so a dialogue replayed turn by turn ran
 * these patterns over each earlier turn once per later turn (in a CPU profile of the MediTOD test split's
 * bench, 112 of the NLU's 373 ms; 43 of 240 with this memo). Bounded, as the other memos of the NLU, and
 * cleared when full.
 */
const openingReadings = new Map<string, ProxyReading | null>();
const laterReadings = new Map<string, ProxyReading | null>();
const MEMO_LIMIT = 4000;

/** The proxy a turn opens with (the first two patient turns) or declares later, memoised by text. */
function proxyDeclared(text: string, opening: boolean): ProxyReading | undefined {
  // One map for each reading, keyed by the text itself: a key made by joining a prefix to the text
  // was a new string to hash at every lookup, and the lookups run once per earlier turn per turn.
  const readings = opening ? openingReadings : laterReadings;
  let reading = readings.get(text);
  if (reading === undefined) {
    reading = (opening ? openingProxy(text) : laterProxy(text)) ?? null;
    if (readings.size >= MEMO_LIMIT) readings.clear();
    readings.set(text, reading);
  }
  return reading ?? undefined;
}

/** What the informant reading needs of one turn's text, whichever side said it. */
interface TurnText {
  /** The text as {@link plain} makes it. */
  readonly plain: string;
  /** Whether a patient saying it tells of their own trouble ({@link OWN_TROUBLE}). */
  readonly ownTrouble: boolean;
  /** Whether a doctor saying it asks about the family ({@link FAMILY_QUESTION}). */
  readonly asksFamily: boolean;
}

/**
 * {@link TurnText} by turn text: every turn of a dialogue reads the whole history again, so without it
 * each earlier turn was lower-cased and run through the apostrophe patterns and two tests once per
 * later turn (over every bundled MediTOD dialogue, 19 ms of the 29 ms its readings took; 6 with it).
 */
const turnTexts = new Map<string, TurnText>();

function turnText(text: string): TurnText {
  let read = turnTexts.get(text);
  if (read === undefined) {
    const form = plain(text);
    read = { plain: form, ownTrouble: OWN_TROUBLE.test(form), asksFamily: FAMILY_QUESTION.test(form) };
    if (turnTexts.size >= MEMO_LIMIT) turnTexts.clear();
    turnTexts.set(text, read);
  }
  return read;
}

/**
 * A patient telling of their own trouble. Example: "I've had a cough for a week", "I have a rash", "I
 * feel dizzy". After it, a relative named in the next turn ("my dad has diabetes") is family, not the
 * patient a proxy speaks for.
 */
const OWN_TROUBLE = /\bi(?:'ve| have| had| feel| get| got| keep)\b/;

/** What one patient turn tells of the informant, given what was known before it; undefined when nothing. */
function turnReading(
  said: string,
  known: ProxyReading | null,
  opening: boolean,
  question: string,
): ProxyReading | undefined {
  const text = turnText(said).plain;
  // An answer to a family-history question is about the family ("my mother is 70 and has diabetes").
  const opens = !known && !turnText(question).asksFamily;
  const opened = opens ? proxyDeclared(text, opening) : undefined;
  const proxy = opened ?? known;
  if (!proxy) return undefined;
  const patientAge = ageOf(text);
  const pronoun = proxy.informant.patientSex === null ? PRONOUN.exec(text)?.[1] : undefined;
  const patientSex = pronoun ? (pronoun.startsWith("h") && pronoun !== "her" ? "male" : "female") : null;
  if (!opened && patientAge === null && patientSex === null) return undefined;
  const base = opened?.informant ?? { relation: null, patientAge: null, patientSex: null };
  return {
    informant: { ...base, patientAge: patientAge ?? base.patientAge, patientSex: patientSex ?? base.patientSex },
    patientRelation: opened?.patientRelation ?? null,
  };
}

/** The proxy known before this turn and this turn's update, from the conversation so far and the patient's utterance. */
export function readInformant(
  history: readonly DialogueTurn[],
  utterance: string,
): { readonly known: ProxyReading | null; readonly update: ProxyReading | undefined } {
  let known: ProxyReading | null = null;
  let patientTurns = 0;
  // A proxy opens in the first two patient turns, unless the patient has told of their own trouble first.
  let ownTrouble = false;
  const opening = () => patientTurns < 2 && !ownTrouble;
  history.forEach((turn, index) => {
    if (turn.speaker !== "patient") return;
    const reading = turnReading(turn.text, known, opening(), history[index - 1]?.text ?? "");
    if (reading) known = mergeProxy(known, reading);
    ownTrouble ||= !known && turnText(turn.text).ownTrouble;
    patientTurns += 1;
  });
  const question = history.findLast((turn) => turn.speaker === "doctor")?.text ?? "";
  return { known, update: turnReading(utterance, known, opening(), question) };
}

/** A proxy reading with an update's news added (`updateInformant`'s rule: what the update leaves null is kept). */
export function mergeProxy(known: ProxyReading | null, update: ProxyReading | undefined): ProxyReading | null {
  if (!update) return known;
  if (!known) return update;
  const [was, now] = [known.informant, update.informant];
  return {
    informant: withAgeGroup(
      {
        relation: now.relation ?? was.relation,
        patientAge: now.patientAge ?? was.patientAge,
        patientSex: now.patientSex ?? was.patientSex,
      },
      now.ageGroup,
      was.ageGroup,
    ),
    patientRelation: update.patientRelation ?? known.patientRelation,
  };
}

/**
 * The patient's age and sex a proxy's turn told, as CMAS `basic_information` ("3 years" is age "3",
 * as a patient's "I'm 3" would be; "18 months" stays so), or undefined when it told neither.
 */
export function proxyBasicInformation(update: ProxyReading | undefined): SlotEntry | undefined {
  if (!update) return undefined;
  const { patientAge, patientSex } = update.informant;
  const age = patientAge?.replace(/ years$/, "");
  if (!age && !patientSex) return undefined;
  return { ...(age ? { age } : {}), ...(patientSex ? { sex: patientSex } : {}) };
}

/** The frames with the proxy's `basic_information` added, unless the turn's reading already has one. */
export function withProxyBasics(frames: NluFrame[], update: ProxyReading | undefined): NluFrame[] {
  const basics = proxyBasicInformation(update);
  if (!basics || frames.some((frame) => frame.slots?.basic_information)) return frames;
  const informs = frames.filter((frame) => frame.intent !== "chit-chat");
  const [first, ...rest] = informs;
  if (!first) return [{ intent: "inform", slots: { basic_information: [basics] } }];
  return [{ ...first, slots: { ...first.slots, basic_information: [basics] } }, ...rest];
}
