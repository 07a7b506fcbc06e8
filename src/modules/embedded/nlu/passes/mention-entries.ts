import { clauseRange, sentenceOf, textOf } from "../analysed-text.ts";
import { extractLocations, nextSubjectStart } from "../body-locations.ts";
import { extractRelations, FAMILY_CUE } from "../family-relations.ts";
import type { BaseSlot, CollectedEntry } from "../frame-builder.ts";
import { gaveUpDrinking, habitStatus } from "../habit-attributes.ts";
import type { Status } from "../negation.ts";
import type { MentionReading, TurnRecord } from "../turn-record.ts";
import { PEOPLE, wordsPattern } from "../word-lists.ts";
import { namesSite } from "./read-mentions.ts";

/**
 * Pass 6, entries: each mention read as a report becomes an entry of the slot its subject implies —
 * a relative's condition is family history, someone else's smoking in the patient's air is passive
 * smoking, light use of a habit is uncertain — with the sites the phrase or the question gives.
 */

/** A subject other than the patient before a habit ("my husband smokes", "they drink"), not followed by "I". */
const OTHERS_HABIT = new RegExp(
  `${wordsPattern(PEOPLE.relatives, PEOPLE.housemates, PEOPLE.workmates, PEOPLE.others, PEOPLE.thirdPerson)}(?![^,]*\\bi\\b)`,
);

/** Someone named before a habit other than by a pronoun ("my husband", "a friend"): never the patient a proxy speaks of. */
const OTHERS_NAMED = new RegExp(wordsPattern(PEOPLE.relatives, PEOPLE.housemates, PEOPLE.workmates, PEOPLE.others));

/** The pronoun a proxy uses for the patient, by the patient's sex. Example: "he smokes ten a day" of "my dad". */
const PATIENT_PRONOUN = { male: /\bhe\b/, female: /\bshe\b/ } as const;

/** Someone smoking where the patient breathes it: "my roommate smokes inside", "my husband smokes in the car". */
const SHARED_AIR = new RegExp(
  wordsPattern(PEOPLE.housemates, PEOPLE.partners, [
    "parent",
    "parents",
    "inside",
    "indoors",
    "in the house",
    "at home",
    "around me",
    "in the car",
    "in front of me",
  ]),
);

/** "I've", "I have", "I had", "I was": the patient speaks of themself. */
const FIRST_PERSON_PAST = /\bi(?:'ve| have| had| was)\b/;

/**
 * A time told by the patient's own age or life, which makes no one the subject: "when I was 10 my
 * dad had a heart attack" is the father's, "when I was little my mum had cancer" the mother's.
 */
const WHEN_I_WAS =
  /\b(?:when|while|since|before|after) i was (?:\d+|(?:about|around|only|just) \d+|a (?:kid|child|baby|toddler|teenager|teen|boy|girl|student)|little|young|younger|small|growing up|at (?:school|college|uni|university)|in (?:school|college|uni|university))\b/g;

/**
 * A relative who says, thinks or noticed something of the patient: "my wife says I snore", "my mum
 * thinks I'm depressed", "my husband reckons I might have diabetes" — the patient ("I") is the
 * subject after the relative, so the condition is the patient's, not family history.
 */
const RELATIVE_SAYS_OF_PATIENT = new RegExp(`${wordsPattern(PEOPLE.relatives)}\\b.*\\bi(?:'m|'ve|'d)?\\b`);

/** How many tokens after a located phrase more sites may be joined to it ("leg swelling or arms"). */
const MORE_SITES_WINDOW = 4;

/**
 * A contrast right after a located phrase: the sites it names are set against the phrase's, not joined
 * to them. Example: "no leg swelling, just the ankles", "leg swelling, not my arms", "but only my feet".
 */
const CONTRASTED_SITES = /^(?:,\s*)?(?:(?:and|or)\s+)?(?:just|only|but|except|apart|not|mainly|mostly|more)\b/;

/**
 * Someone outside the family as the subject before a symptom, with no "I" after them. Example: "my
 * friend had", "a colleague's got", "everyone at work has" — not "my friend says I look pale".
 */
const OTHER_PERSON_SUBJECT = new RegExp(
  `\\b(?:my|a|our|his|her|the)\\s+${wordsPattern(PEOPLE.housemates, PEOPLE.workmates, ["friend", "friends", "mate", "mates", "neighbour", "neighbor", "neighbours", "neighbors", "flatmate", "flatmates"])}(?:'s)?\\s+(?:has|had|have|'s|got|was|were|is|been|caught|came down with)\\b(?![^,.;]*\\bi\\b)|\\b(?:everyone|everybody|people|half the office|loads of people) (?:at|in) (?:work|school|the office|nursery|college|uni)\\b(?![^,.;]*\\bi\\b)`,
);

/** A husband, wife or partner: no blood relative, so their illness is no family history. */
const PARTNERS: ReadonlySet<string> = new Set(PEOPLE.partners);

/**
 * The slot of a condition: family history when a blood relative (or the family question) is its
 * subject; null when only a husband, wife or partner is ("my wife has diabetes", "my husband had a
 * heart attack last year"): not inherited, so no family history, and not the patient's either.
 */
function conditionSlot(turn: TurnRecord, reading: MentionReading): BaseSlot | null {
  const { lexicon, analysed, context } = turn;
  const { mention, concept } = reading;
  if (concept.slot !== "medical_history" && concept.slot !== "symptom") return concept.slot;
  const [sentenceStart] = sentenceOf(analysed, mention.start);
  const before = textOf(analysed, sentenceStart, mention.start);
  const asked = context.question.slots.has("family_history");
  const relations = extractRelations(lexicon, analysed, sentenceStart, mention.start);
  // A proxy's "my daughter has a fever" is the patient's fever: only another relative's is family history.
  if (!asked && turn.proxy && relations.every((relation) => relation === turn.proxy!.patientRelation))
    return concept.slot;
  const aboutFamily = asked || relations.length > 0 || FAMILY_CUE.test(before);
  const aboutPatient = FIRST_PERSON_PAST.test(before.replace(WHEN_I_WAS, "")) || RELATIVE_SAYS_OF_PATIENT.test(before);
  // "My friend had a sore throat last week": someone else's illness, neither the patient's nor family history.
  if (!aboutFamily && !aboutPatient && concept.slot === "symptom" && OTHER_PERSON_SUBJECT.test(before)) return null;
  if (!aboutFamily || aboutPatient) return concept.slot;
  return relations.length > 0 && relations.every((relation) => PARTNERS.has(relation)) ? null : "family_history";
}

/** Someone else's habit: "passive smoking" when they smoke where the patient breathes, else nothing; undefined when it is the patient's. */
function othersHabit(turn: TurnRecord, reading: MentionReading): "passive smoking" | null | undefined {
  const { lexicon, analysed } = turn;
  const { mention, concept } = reading;
  const [clauseStart, clauseEnd] = clauseRange(analysed, mention.start);
  const [sentenceStart] = sentenceOf(analysed, mention.start);
  const relations = extractRelations(lexicon, analysed, sentenceStart, mention.start);
  // A proxy's "my son smokes" is the patient's habit.
  if (turn.proxy && relations.length > 0 && relations.every((relation) => relation === turn.proxy!.patientRelation))
    return undefined;
  const before = textOf(analysed, clauseStart, mention.start);
  // And so is their "he used to smoke" when the pronoun is the patient's and no one else is named.
  const sex = turn.proxy?.informant.patientSex;
  if (sex && relations.length === 0 && PATIENT_PRONOUN[sex].test(before) && !OTHERS_NAMED.test(before))
    return undefined;
  const someoneElse = OTHERS_HABIT.test(before) || relations.length > 0;
  if (!someoneElse) return undefined;
  return concept.value === "smoking" && SHARED_AIR.test(textOf(analysed, clauseStart, clauseEnd))
    ? "passive smoking"
    : null;
}

/** Sites of an entry: the phrase's own, the question's when the patient names none, more joined after it. */
function setSites(turn: TurnRecord, reading: MentionReading, entry: CollectedEntry): void {
  const { lexicon, analysed, entries, context } = turn;
  const { mention, concept } = reading;
  if (concept.location) entries.set(entry, "location", concept.location);
  // "No swelling." to "any swelling in your ankles?": the site comes from the question.
  const askedItem = context.question.items.find((item) => item.value === concept.value && item.location);
  // "My ankles have been swollen" to "any swelling in your legs?": the patient's own site wins.
  if (!concept.location && askedItem?.location && !namesSite(lexicon, analysed, mention.start))
    entries.set(entry, "location", askedItem.location);
  if (concept.location && lexicon.locatable.has(concept.value)) {
    // "leg swelling or arms": more sites joined to a located phrase.
    const windowEnd = Math.min(analysed.tokens.length, mention.end + MORE_SITES_WINDOW);
    const more = extractLocations(lexicon, analysed, mention.end, nextSubjectStart(analysed, mention.end, windowEnd));
    const after = textOf(analysed, mention.end, windowEnd);
    if (/^(?:or|and|,)/.test(after) && !CONTRASTED_SITES.test(after)) entries.set(entry, "location", more);
  }
}

/** The text of the sentence a reading's mention is in. */
function sentenceText(turn: TurnRecord, reading: MentionReading): string {
  return textOf(turn.analysed, ...sentenceOf(turn.analysed, reading.mention.start));
}

/** The entry of one reading, or undefined when it adds none. */
function entryOf(turn: TurnRecord, reading: MentionReading): CollectedEntry | undefined {
  const { entries, analysed, polarity } = turn;
  const base = conditionSlot(turn, reading);
  if (base === null) return undefined;
  let status: Status = reading.status!;
  if (base === "habit") {
    // "My roommate smokes inside": someone else's smoking is second-hand smoke; their other habits are not the patient's.
    const other = othersHabit(turn, reading);
    if (other !== undefined) return other === null ? undefined : entries.add("habit", "positive", other);
    // A former smoker is one, however light the smoking was ("used to" is light use of a current habit).
    if (reading.concept.value !== "former smoker") status = habitStatus(analysed.text, status);
    // "I stopped drinking two years ago": no drinking now (the schema has no former drinker).
    if (
      reading.concept.value === "alcohol abuse" &&
      status !== "negative" &&
      gaveUpDrinking(sentenceText(turn, reading))
    )
      status = "negative";
  }
  // An asked exposure answered "possibly … maybe one of them": uncertainty anywhere in the answer.
  if (base === "exposure" && status === "positive" && polarity === "unknown") status = "unknown";
  const entry = entries.add(base, status, reading.concept.value);
  if (entry) setSites(turn, reading, entry);
  return entry;
}

/** Whether the turn says the patient has stopped smoking ("I used to smoke", "I gave up smoking"). */
function stoppedSmoking(turn: TurnRecord): boolean {
  return turn.readings.some((reading) => reading.concept.value === "former smoker" && reading.status === "positive");
}

/** Turns the readings into entries, in text order. */
export function addMentionEntries(turn: TurnRecord): void {
  // "I smoked 20 a day but gave up": the smoking told of is the former smoker's, not a current habit.
  const former = stoppedSmoking(turn);
  for (const reading of turn.readings) {
    if (former && reading.concept.value === "smoking" && reading.status === "positive") continue;
    const entry = entryOf(turn, reading);
    if (entry) turn.found.push({ mention: reading.mention, entry });
  }
}
