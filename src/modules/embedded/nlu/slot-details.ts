import { clauseRange, sentenceOf, textOf, type AnalysedText } from "./analysed-text.ts";
import { conceptKey } from "./history-context-reader.ts";
import type { HistoryContext } from "./history-context.ts";
import { extractRelations } from "./family-relations.ts";
import type { CollectedEntry, EntryCollector, Found } from "./frame-builder.ts";
import {
  extractBareHabitAmount,
  extractHabitFrequency,
  extractVolunteeredHabitStart,
  withYearsKept,
  gaveUpSmoking,
} from "./habit-attributes.ts";
import { lexiconFile, type Lexicon } from "./lexicon.ts";
import { extractImpact, purposePhrase } from "./medication-attributes.ts";
import type { AnswerPolarity } from "./negation.ts";
import type { QuestionAnalysis } from "./question-types.ts";
import { extractAge, extractDestination, extractOccupation, extractResidence, extractSex } from "./social-history.ts";
import type { TokenSpan } from "./text.ts";
import { PEOPLE, wordsPattern } from "./word-lists.ts";
import { extractFrequency, extractTimePhrase } from "./time-expressions.ts";

/**
 * Slot-specific details of a patient turn: what medications are for and whether they helped, habit
 * amounts, family relations, when past conditions began, where exposures happened, sick contacts,
 * and the social slots (residence, occupation, travel, age).
 */

const OTHER_PERSON = new RegExp(
  wordsPattern(PEOPLE.workmates, PEOPLE.housemates, PEOPLE.others, PEOPLE.family, PEOPLE.relatives, PEOPLE.thirdPerson),
);
const WORKPLACE = new RegExp(wordsPattern(PEOPLE.workmates, ["at work", "work"]));
const HOUSEHOLD = new RegExp(wordsPattern(PEOPLE.family, PEOPLE.relatives, PEOPLE.housemates, ["at home"]));

/**
 * "Any sick contacts?" — "My coworker had a cold last week": someone else's illness is the exposure
 * (where: at work/at home from who it was), not the patient's own symptom or history. `relativeIll`:
 * a relative's illness the mention filters already set aside ("My son had the flu").
 */
export function answerSickContact(
  entries: EntryCollector,
  found: readonly Found[],
  question: QuestionAnalysis,
  text: string,
  relativeIll = false,
): void {
  if (
    !question.items.some((item) => item.slot === "exposure" && item.value === "sick person") ||
    !OTHER_PERSON.test(text)
  )
    return;
  const illnesses = found.filter(
    ({ entry }) =>
      (entry.base === "symptom" || entry.base === "medical_history" || entry.base === "family_history") &&
      entry.status !== "negative",
  );
  if (illnesses.length === 0 && !relativeIll) return;
  for (const { entry } of illnesses) entries.remove(entry);
  const contact = entries.find("exposure", "sick person") ?? entries.add("exposure", "positive", "sick person", true);
  if (!contact) return;
  const asked = question.items.find((item) => item.value === "sick person")?.where;
  entries.set(contact, "where", WORKPLACE.test(text) ? "at work" : HOUSEHOLD.test(text) ? "at home" : asked);
}

/** The allergy concepts, each with the words of what it is to (`ontology/lexicon.json`: allergens), in the order they are tried. */
const ALLERGENS: ReadonlyArray<readonly [string, RegExp]> = Object.entries(lexiconFile.allergens).map(
  ([value, words]) => [value, new RegExp(wordsPattern(words))],
);
const ALLERGIES: ReadonlySet<string> = new Set(ALLERGENS.map(([value]) => value));

/**
 * "Any allergies?" — "Sulfa drugs, I get a rash": what the patient is allergic to decides the concept
 * (drug, food or environmental allergy); a drug named here is the allergen, not a medication taken.
 * Returns whether the answer named an allergen.
 */
export function answerAllergyQuestion(
  entries: EntryCollector,
  found: readonly Found[],
  question: QuestionAnalysis,
  polarity: AnswerPolarity | undefined,
  text: string,
): boolean {
  if (!question.items.some((item) => item.value !== undefined && ALLERGIES.has(item.value))) return false;
  // "No known drug allergies": the allergy the patient names is the answer, whatever its polarity.
  if (found.some(({ entry }) => entry.base === "medical_history" && ALLERGIES.has(entry.attributes.value as string)))
    return true;
  if (polarity === "no" || polarity === "normal") return false;
  const drugs = found.filter(
    ({ entry }) =>
      entry.base === "medication" || (entry.base === "habit" && entry.attributes.value === "illicit drug use history"),
  );
  const value = drugs.length > 0 ? "drug allergy" : ALLERGENS.find(([, words]) => words.test(text))?.[0];
  if (!value) return false;
  for (const { entry } of drugs) entries.remove(entry);
  entries.add("medical_history", polarity === "unknown" ? "unknown" : "positive", value, true);
  return true;
}

/** Sets purpose or impact on the medications a "what for?"/"does it help?" question is about. */
export function answerMedicationQuestion(
  entries: EntryCollector,
  found: readonly Found[],
  context: HistoryContext,
  polarity: AnswerPolarity | undefined,
  text: string,
): void {
  const { question } = context;
  const named = question.items
    .filter((item) => item.slot === "medication" && item.value && item.value !== "other")
    .map((item) => item.value!);
  const targets =
    named.length > 0
      ? named
      : found.some(({ entry }) => entry.base === "medication")
        ? []
        : context.medications.slice(0, 2).map((concept) => concept.value);
  for (const value of targets) {
    const entry = entries.add("medication", "positive", value, true);
    if (!entry) continue;
    if (question.attribute === "respone_to") {
      const condition = found.find(({ entry: other }) => other.base === "symptom" || other.base === "medical_history");
      entries.set(entry, "respone_to", condition?.entry.attributes.value);
    } else {
      entries.set(
        entry,
        "impact",
        extractImpact(text) ?? (polarity === "yes" ? "yes" : polarity === "no" ? "no" : undefined),
      );
    }
  }
}

/** Impact, purpose and frequency of medications. */
export function attachMedicationAttributes(
  lexicon: Lexicon,
  analysed: AnalysedText,
  entries: EntryCollector,
  found: readonly Found[],
  context: HistoryContext,
): void {
  const medications = found.filter(({ entry }) => entry.base === "medication" && entry.status !== "negative");
  for (const { mention, entry } of medications) {
    const [, end] = sentenceOf(analysed, mention.start);
    const nextSentence = analysed.sentences.find(([from]) => from >= end);
    const own = textOf(analysed, mention.start, end);
    const following = nextSentence ? textOf(analysed, nextSentence[0], nextSentence[1]) : "";
    const otherMedicationLater = medications.some(
      (other) => other.mention.start > mention.start && other.mention.start < end,
    );
    const nextHasMedication = nextSentence
      ? medications.some((other) => other.mention.start >= nextSentence[0] && other.mention.start < nextSentence[1])
      : true;
    const span = otherMedicationLater
      ? textOf(analysed, mention.start, medications.find((other) => other.mention.start > mention.start)!.mention.start)
      : own;
    entries.set(entry, "impact", extractImpact(span) ?? (!nextHasMedication ? extractImpact(following) : undefined));
    entries.set(
      entry,
      "frequency",
      extractFrequency(span) ?? (!nextHasMedication ? extractFrequency(following) : undefined),
    );
    entries.set(
      entry,
      "respone_to",
      medicationPurpose(lexicon, analysed, found, context, mention, entry.attributes.value as string, end),
    );
  }
}

/**
 * Whether "for X" after a medication is its own purpose: it is, unless another medication stands
 * between them ("metformin and ramipril for my blood pressure", "amlodipine and paracetamol for the
 * pain": the purpose is the nearer one's) and X is not among what this one typically treats.
 */
function purposeIsOwn(
  lexicon: Lexicon,
  found: readonly Found[],
  mention: TokenSpan,
  condition: TokenSpan,
  value: string,
  purpose: string,
): boolean {
  const between = found.some(
    ({ mention: other, entry }) =>
      entry.base === "medication" && other.start >= mention.end && other.start < condition.start,
  );
  return !between || (lexicon.indications.get(value)?.includes(purpose) ?? false);
}

/**
 * What a medication is for: a condition named after "for" ("for my asthma"); else a condition it
 * typically treats that the patient has reported (this turn or before: inhalers → asthma); else the
 * symptom the doctor asked about ("have you tried anything for this cough?").
 */
function medicationPurpose(
  lexicon: Lexicon,
  analysed: AnalysedText,
  found: readonly Found[],
  context: HistoryContext,
  mention: TokenSpan,
  value: string,
  sentenceEnd: number,
): string | undefined {
  if (purposePhrase(textOf(analysed, mention.start, sentenceEnd))) {
    const after = found.find(
      ({ mention: other, entry }) =>
        other.start >= mention.end &&
        other.start < sentenceEnd &&
        (entry.base === "symptom" || entry.base === "medical_history"),
    );
    const condition = after?.entry.attributes.value as string | undefined;
    if (after && condition && purposeIsOwn(lexicon, found, mention, after.mention, value, condition)) return condition;
  }
  const reported = (condition: string) =>
    context.knownPositive.has(conceptKey("medical_history", condition)) ||
    context.knownPositive.has(conceptKey("symptom", condition)) ||
    found.some(
      ({ entry, mention: other }) =>
        entry.attributes.value === condition && entry.status === "positive" && other.start < mention.start,
    );
  const typical = lexicon.indications.get(value)?.find(reported);
  if (typical) return typical;
  const { question } = context;
  if (question.attribute === "respone_to" || question.items.some((item) => item.slot === "medication"))
    return question.symptoms[0]?.value;
  return undefined;
}

/** Frequency and start of habits. */
export function attachHabitAttributes(analysed: AnalysedText, entries: EntryCollector, found: readonly Found[]): void {
  for (const { mention, entry } of found) {
    if (entry.base !== "habit" || entry.status === "negative") continue;
    const [start, end] = sentenceOf(analysed, mention.start);
    const sentenceText = textOf(analysed, start, end);
    // "I smoke about 10 a day": a bare count after the habit named in its sentence is its amount.
    const afterMention = textOf(analysed, mention.start, end);
    const amount =
      extractHabitFrequency(sentenceText) ??
      extractHabitFrequency(analysed.text) ??
      extractBareHabitAmount(afterMention);
    // "Smoked for 30 years, stopped 5 years ago": a former smoker, and the 30 years are not since when.
    if (entry.attributes.value === "smoking" && entry.status === "positive" && gaveUpSmoking(sentenceText))
      entries.rename(entry, "former smoker");
    setHabitAmount(entries, entry, amount, sentenceText, analysed.text);
  }
  // Asked habits answered without naming them ("I'd say 30 a day").
  for (const entry of entries.all()) {
    if (entry.base !== "habit" || !entry.fromQuestion || entry.status === "negative") continue;
    // "Yes, 20 a day for 10 years" to "do you smoke?": the habit is the question's, so a bare count is its amount.
    const amount = extractHabitFrequency(analysed.text) ?? extractBareHabitAmount(analysed.text);
    setHabitAmount(entries, entry, amount, analysed.text, analysed.text);
  }
}

/**
 * A habit's amount and when it started. A former smoker's years smoked ("for 30 years", read in
 * `yearsText`) stay with the amount, never as a start: they may have stopped long ago.
 */
function setHabitAmount(
  entries: EntryCollector,
  entry: CollectedEntry,
  amount: string | undefined,
  yearsText: string,
  text: string,
): void {
  if (entry.attributes.value === "former smoker") {
    entries.set(entry, "frequency", withYearsKept(amount, yearsText));
    return;
  }
  entries.set(entry, "frequency", amount);
  entries.set(entry, "starting", extractVolunteeredHabitStart(text));
}

/** Who in the family has a condition, and since when the patient has had one. */
export function attachHistoryAttributes(
  lexicon: Lexicon,
  analysed: AnalysedText,
  entries: EntryCollector,
  found: readonly Found[],
): void {
  for (const { mention, entry } of found) {
    const [start, end] = sentenceOf(analysed, mention.start);
    if (entry.base === "family_history") {
      // "My mother had emphysema and my brother has asthma": the relation of the mention's own clause first.
      const [clauseStart, clauseEnd] = clauseRange(analysed, mention.start);
      entries.set(
        entry,
        "relation",
        extractRelations(lexicon, analysed, clauseStart, clauseEnd)[0] ??
          extractRelations(lexicon, analysed, start, end)[0],
      );
    }
    if (entry.base === "medical_history" && entry.status === "positive")
      entries.set(entry, "starting", conditionStart(analysed, found, mention.start));
  }
}

/**
 * When a past condition began: the time said in its own clause, else in its sentence unless another
 * clause of the sentence names a condition of its own ("he has dementia and diabetes, and he had a
 * stroke a few years ago": the few years are the stroke's alone).
 */
function conditionStart(analysed: AnalysedText, found: readonly Found[], at: number): string | undefined {
  const [start, end] = sentenceOf(analysed, at);
  const clause = clauseRange(analysed, at);
  const own = extractTimePhrase(textOf(analysed, ...clause));
  if (own) return own;
  const otherClause = found.some(
    ({ mention, entry }) =>
      entry.base === "medical_history" &&
      mention.start >= start &&
      mention.start < end &&
      (mention.start < clause[0] || mention.start >= clause[1]),
  );
  return otherClause ? undefined : extractTimePhrase(textOf(analysed, start, end));
}

/** Where an exposure happened: "at work", "at home". */
export function attachExposureAttributes(
  analysed: AnalysedText,
  entries: EntryCollector,
  found: readonly Found[],
  question: QuestionAnalysis,
): void {
  for (const { mention, entry } of found) {
    if (entry.base !== "exposure") continue;
    const [start, end] = sentenceOf(analysed, mention.start);
    const sentence = textOf(analysed, start, end);
    const where =
      /\bat (?:work|home|school)\b/.exec(sentence)?.[0] ??
      (/\bi work\b|\bmy (?:job|work)\b/.test(sentence) ? "at work" : undefined) ??
      question.items.find((item) => item.value === entry.attributes.value)?.where;
    entries.set(entry, "where", where);
  }
}

/** Age and sex (`basic_information`), asked or said of the patient themself ("I'm a 30-year-old woman"). */
function attachBasicInformation(text: string, entries: EntryCollector, asked: boolean): void {
  const age = extractAge(text, asked);
  const sex = extractSex(text, asked);
  if (!age && !sex) return;
  const entry = entries.add("basic_information", "positive", undefined);
  if (!entry) return;
  entries.set(entry, "age", age);
  entries.set(entry, "sex", sex);
}

/** Residence, occupation, travel and age, asked or volunteered. */
export function attachSocial(
  lexicon: Lexicon,
  analysed: AnalysedText,
  entries: EntryCollector,
  question: QuestionAnalysis,
  polarity: AnswerPolarity | undefined,
): void {
  const asked = (slot: string) => question.items.some((item) => item.slot === slot);
  const residence = extractResidence(lexicon, analysed, asked("residence"));
  if (residence) {
    const entry = entries.add("residence", "positive", undefined);
    if (entry) {
      entries.set(entry, "value", residence);
      entries.set(entry, "status", "living");
    }
  }
  const occupation = extractOccupation(lexicon, analysed, asked("occupation"));
  if (occupation) {
    const entry = entries.add("occupation", "positive", undefined);
    if (entry) {
      entries.set(entry, "value", occupation);
      entries.set(entry, "status", "true");
    }
  }
  if (asked("travel") || /\b(?:travel(?:l?ed)?|trip)\b/.test(analysed.text)) {
    const negated =
      /\b(?:no|not|haven't|didn't|never|nowhere)\b[^.]*\b(?:travel|trips?|anywhere|been away|gone)\b|\bno travel\b/.test(
        analysed.text,
      ) ||
      (asked("travel") && polarity === "no");
    const traveled =
      !negated &&
      (asked("travel")
        ? polarity === "yes" || extractDestination(analysed.text) !== undefined
        : /\bi (?:travel(?:l?ed)?|went)\b/.test(analysed.text));
    if (negated || traveled) {
      const entry = entries.add("travel", "positive", undefined);
      if (entry) {
        entries.set(entry, "status", negated ? "not_traveled" : "traveled");
        if (traveled) entries.set(entry, "destination", extractDestination(analysed.text));
      }
    }
  }
  attachBasicInformation(analysed.text, entries, asked("basic_information"));
}
