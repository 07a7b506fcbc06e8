import { asksWhich } from "../../../language/choice-questions.ts";
import { slotDefinition } from "../../../cmas/ontology.ts";
import { analyseText, type AnalysedText } from "./analysed-text.ts";
import { factorPhrases } from "./ana-factors.ts";
import { extractLocations } from "./body-locations.ts";
import { ATTRIBUTE_EXTRACTORS } from "./attributes/registry.ts";
import { periodQuestion } from "./menstrual-history.ts";
import { RADIATION_QUESTION } from "../../../language/pain-radiation.ts";
import { chooseConcept } from "./choose-concept.ts";
import { findMentions, type Mention } from "./concept-mentions.ts";
import { FAMILY_CUE } from "./family-relations.ts";
import type { Concept, Lexicon } from "./lexicon.ts";
import { extractProgression } from "./symptom-descriptors.ts";
import {
  AGE_CUE,
  CLOSING,
  EXERCISE_TOLERANCE,
  EXPOSURE_CUE,
  HEALTHY_CUE,
  LEAD_IN,
  MEDICATION_CUE,
  NORMAL_QUESTION,
  OCCUPATION_CUE,
  OTHER_CONDITIONS,
  OTHER_SYMPTOMS,
  PAST,
  QUESTION_START,
  RESIDENCE_CUE,
  THIS_LIKE,
  TRAVEL_CUE,
} from "./question-cues.ts";
import { extractDuration, extractOnset } from "./time-expressions.ts";

export { CLOSING } from "./question-cues.ts";
import {
  SOCIAL_SLOTS,
  type AskedAttribute,
  type AskedItem,
  type AskedSlot,
  type QuestionAnalysis,
} from "./question-types.ts";

/**
 * What the doctor's last utterance asks: which slots and values (items), which attribute of them,
 * what values the doctor proposes ("has it been constant since?"), and whether a "yes" means the
 * concept is absent ("are you otherwise healthy?"). Patients' short answers are read against this.
 */

/** Splits cleaned text into sentences, keeping each one's terminal punctuation. */
function splitKeepingMarks(text: string): string[] {
  return (text.match(/[^.?!]+[.?!]*/g) ?? [])
    .map((sentence) => sentence.trim())
    .filter((sentence) => /[a-z0-9]/.test(sentence));
}

/** "How far can you walk", "how long have you": a question even when the transcript drops its question mark. */
const UNMARKED_QUESTION =
  /\bhow (?:far|many|much|long|often|bad) (?:can|could|do|does|did|is|are|was|were|have|has|would|will) you\b/;

function isQuestionSentence(sentence: string): boolean {
  if (sentence.endsWith("?")) return true;
  // Transcripts drop question marks: "you mentioned, how far can you walk before you need to rest."
  if (UNMARKED_QUESTION.test(sentence)) return true;
  return QUESTION_START.test(sentence.replace(LEAD_IN, ""));
}

/** Cuts restated context from a question: "No weight loss, how about fatigue?" → "how about fatigue?". */
function focusPart(sentence: string): string {
  const howAbout = [...sentence.matchAll(/\b(?:how|what) about\b/g)].pop();
  if (howAbout?.index) return sentence.slice(howAbout.index);
  const mentioned = /\byou (?:mentioned|said|told me)\b[^,]*,\s*but\b/.exec(sentence);
  if (mentioned) return sentence.slice(mentioned.index + mentioned[0].length);
  return sentence;
}

/** A question that points back at what the doctor just listed ("… bowel movements and urination. Like all of that's normal?"). */
const POINTS_BACK =
  /\b(?:all (?:of )?(?:that|those|these)|(?:that|those|these|this|it)(?:'s| is| are| been)?\s+(?:all\s+)?(?:normal|okay|ok|fine|alright|good))\b/;

/**
 * The question sentences, each preceded by the statement before it when the question names nothing
 * and points back at it: the statement holds what is asked.
 */
function withAntecedents(context: Context, sentences: readonly string[], asked: readonly string[]): string[] {
  const chosen: string[] = [];
  for (const sentence of asked) {
    const index = sentences.indexOf(sentence);
    const before = sentences[index - 1];
    if (
      before !== undefined &&
      !asked.includes(before) &&
      POINTS_BACK.test(sentence) &&
      findMentions(context.lexicon, analyseText(sentence, context.correct)).length === 0
    )
      chosen.push(before);
    chosen.push(sentence);
  }
  return chosen;
}

interface Context {
  readonly lexicon: Lexicon;
  readonly correct?: (word: string) => string | undefined;
}

/** Tests, scans and measurements ("any x-rays?", "did they check your temperature?"). */
const TEST_CUE = /\b(?:temperature|test(?:s|ed|ing)?|x ?rays?|scan|swab|checked|measured?)\b/;

/** Slots the wording of a question points to, before looking at concepts. */
function cueSlots(text: string): Set<AskedSlot> {
  const slots = new Set<AskedSlot>();
  if (FAMILY_CUE.test(text) && !/\bfamily doctor\b/.test(text)) slots.add("family_history");
  if (MEDICATION_CUE.test(text) || /\b(?:using|use|taking|take)\b/.test(text)) slots.add("medication");
  if (EXPOSURE_CUE.test(text)) slots.add("exposure");
  if (TRAVEL_CUE.test(text)) slots.add("travel");
  if (RESIDENCE_CUE.test(text)) slots.add("residence");
  if (OCCUPATION_CUE.test(text) && !EXPOSURE_CUE.test(text)) slots.add("occupation");
  if (AGE_CUE.test(text)) slots.add("basic_information");
  if (TEST_CUE.test(text)) slots.add("medical_test");
  return slots;
}

/** Adds an item; the same value asked at several sites ("muscle aches or joint aches") gathers them. */
function addItem(items: AskedItem[], item: AskedItem): void {
  const index = items.findIndex((existing) => existing.slot === item.slot && existing.value === item.value);
  if (index < 0) {
    items.push(item);
    return;
  }
  const existing = items[index]!;
  if (existing.location && item.location) {
    items[index] = { ...existing, location: [...new Set([...existing.location, ...item.location])] };
  }
}

/** What the sentences of a question have asked so far. */
interface Asked {
  readonly items: AskedItem[];
  readonly symptoms: Concept[];
  readonly slots: Set<AskedSlot>;
  readonly proposed: Record<string, string>;
  readonly proposedFactors: string[];
  attribute?: AskedAttribute;
  inverted: boolean;
  smallTalk: boolean;
  alternatives: boolean;
}

/** One question sentence, analysed. */
interface QuestionSentence {
  readonly sentence: string;
  /** The part that asks (`focusPart`). */
  readonly part: string;
  readonly analysed: AnalysedText;
  readonly text: string;
  readonly cues: ReadonlySet<AskedSlot>;
  readonly mentions: readonly Mention[];
  readonly concepts: ReadonlyArray<{ readonly mention: Mention; readonly concept: Concept }>;
  /** Asked about the family (or a "how about X?" after a family question). */
  readonly family: boolean;
}

/** How many tokens after a symptom a site of it may be named ("pain in your calves"), and before it. */
const SITE_AFTER_WINDOW = 8;
const SITE_BEFORE_WINDOW = 3;

/** A symptom's sites named around it in the question, when the phrase has none. */
function siteOf(
  context: Context,
  question: QuestionSentence,
  mention: Mention,
  concept: Concept,
): readonly string[] | undefined {
  if (concept.location || !context.lexicon.locatable.has(concept.value)) return concept.location;
  const { analysed } = question;
  const after = extractLocations(
    context.lexicon,
    analysed,
    mention.end,
    Math.min(analysed.tokens.length, mention.end + SITE_AFTER_WINDOW),
  );
  const found =
    after.length > 0
      ? after
      : extractLocations(context.lexicon, analysed, Math.max(0, mention.start - SITE_BEFORE_WINDOW), mention.start);
  return found.length > 0 ? found : undefined;
}

/** The slot a question's concept is asked in: family history, or the exposure named ("anyone with TB?"). */
function askedSlot(question: QuestionSentence, concept: Concept): AskedSlot {
  if (question.family && (concept.slot === "medical_history" || concept.slot === "symptom")) return "family_history";
  if (question.cues.has("exposure") && concept.slot === "medical_history" && !question.cues.has("family_history"))
    return "exposure";
  return concept.slot;
}

/** The items named by a sentence's concepts (a past-experience question only notes its symptoms). */
function readConcepts(context: Context, asked: Asked, question: QuestionSentence, past: boolean): void {
  const { concepts, analysed, text } = question;
  for (const { mention, concept } of concepts) {
    // "Admitted to the ICU for your asthma?": a condition named as the reason is presupposed, not asked.
    if (
      concepts.length > 1 &&
      /^(?:for|with|from|of|about)$/.test(analysed.tokens[mention.start - 2]?.text ?? "") &&
      analysed.tokens[mention.start - 1]?.text === "your"
    )
      continue;
    const slot = askedSlot(question, concept);
    if (slot === "symptom") asked.symptoms.push(concept);
    if (past && slot === "symptom") continue;
    const location = slot === "symptom" ? siteOf(context, question, mention, concept) : concept.location;
    const where = slot === "exposure" ? /\bat (work|home|school)\b/.exec(text)?.[0] : undefined;
    addItem(asked.items, {
      slot,
      value: concept.value,
      ...(location ? { location } : {}),
      ...(where ? { where } : {}),
      ...(concept.topic ? { topic: true } : {}),
    });
    asked.slots.add(slot);
  }
}

/** The items of one sentence: past experience, named concepts, and the open and inverted questions. */
function readItems(context: Context, asked: Asked, question: QuestionSentence): void {
  const { text, family, concepts, cues, sentence } = question;
  const { items } = asked;
  const past =
    PAST.test(text) &&
    !family &&
    (THIS_LIKE.test(text) || concepts.some(({ concept }) => concept.slot === "symptom")) &&
    !concepts.some(({ concept }) => concept.slot !== "symptom");
  if (past) {
    addItem(items, { slot: "medical_history", value: "past experience" });
    asked.slots.add("medical_history");
  }
  readConcepts(context, asked, question, past);
  if (family && !items.some((item) => item.slot === "family_history")) {
    addItem(items, {
      slot: "family_history",
      value: /\b(?:similar|like this|same|this)\b/.test(text) ? "similar symptoms" : "other",
    });
    asked.slots.add("family_history");
  }
  if (HEALTHY_CUE.test(text) && !items.some((item) => item.slot === "symptom")) {
    addItem(items, { slot: "symptom", value: "general" });
    asked.inverted = true;
  } else if (NORMAL_QUESTION.test(sentence) && items.length > 0) {
    asked.inverted = true;
  }
  // "Allergies to medications?" asks about allergies, not the medications taken.
  const allergy = items.some((item) => item.value === "drug allergy");
  if (
    MEDICATION_CUE.test(text) &&
    !allergy &&
    (!items.some((item) => item.slot === "medication") || /\b(?:other|else)\b/.test(text))
  )
    addItem(items, { slot: "medication", value: "other" });
  if (OTHER_CONDITIONS.test(text) && !family && !items.some((item) => item.slot === "medical_history"))
    addItem(items, { slot: "medical_history", value: "other" });
  if (OTHER_SYMPTOMS.test(text) && items.length === 0) addItem(items, { slot: "symptom", value: "other" });
  for (const slot of SOCIAL_SLOTS) if (cues.has(slot)) addItem(items, { slot });
}

/** The attribute a sentence asks for (the first cue of the registry that matches), and the values the doctor proposes. */
function readAttribute(context: Context, asked: Asked, question: QuestionSentence): void {
  const { text, cues, analysed, mentions } = question;
  const social = [...cues].some((slot) => slotDefinition(slot)?.group === "social");
  const cue = ATTRIBUTE_EXTRACTORS.find(
    (extractor) => (!social || extractor.name === "age") && extractor.questionCue.test(text),
  );
  if (cue) asked.attribute = cue.name;
  if (asked.attribute === "progression" || /\b(?:getting|gotten) (?:worse|better)\b/.test(text)) {
    const progression = extractProgression(context.lexicon, analysed, 0, analysed.tokens.length, true);
    if (progression && !/\bor\b/.test(text.slice(text.search(/\b(?:worse|better|same)\b/))))
      asked.proposed.progression = progression;
  }
  if (/\b(?:start|started|began|since|ago)\b/.test(text)) {
    const onset = /\bago\b|\bsince\b/.test(text) ? extractOnset(text) : undefined;
    if (onset) asked.proposed.onset = onset;
  }
  const duration = /\b(?:constant|all the time|comes? and goes?|on and off|intermittent)\b/.test(text)
    ? extractDuration(text)
    : undefined;
  if (duration) asked.proposed.duration = duration;
  if (asked.attribute === "ana_factors" || /\b(?:after|when you|while|with|on)\b/.test(text)) {
    // The symptom asked about is not its own trigger ("triggers to this cough" ≠ coughing fits).
    const symptomTokens = mentions.filter((mention) => mention.concepts.some((concept) => concept.slot === "symptom"));
    for (const factor of factorPhrases(context.lexicon, analysed, symptomTokens))
      if (!asked.proposedFactors.includes(factor)) asked.proposedFactors.push(factor);
  }
}

/**
 * "You mentioned shortness of breath on exertion, how about when you're lying down?": a trigger
 * asked about the symptom the doctor just restated.
 */
function readRestatedSymptom(context: Context, asked: Asked, question: QuestionSentence): void {
  const { part, sentence, concepts, cues } = question;
  if (part === sentence || concepts.length > 0 || asked.proposedFactors.length === 0) return;
  const restated = analyseText(sentence.slice(0, sentence.length - part.length), context.correct);
  for (const mention of findMentions(context.lexicon, restated, cues)) {
    const concept = chooseConcept(undefined, mention, { slots: cues });
    if (concept.slot !== "symptom") continue;
    asked.symptoms.push(concept);
    addItem(asked.items, { slot: "symptom", value: concept.value });
    asked.slots.add("symptom");
  }
  if (asked.items.length > 0) asked.attribute ??= "ana_factors";
}

/** "At rest or when you exert yourself?": the doctor offers alternatives. */
const OFFERS_ALTERNATIVES = /\bor (?:is it|are you|do you|does it|when|at|with|after)\b/;

/** Analyses one sentence of a question into `asked`. */
function readSentence(context: Context, asked: Asked, sentence: string, previous: QuestionAnalysis | undefined): void {
  const part = focusPart(sentence);
  const analysed = analyseText(part, context.correct);
  const text = analysed.text;
  const cues = cueSlots(text);
  for (const slot of cues) asked.slots.add(slot);
  const mentions = findMentions(context.lexicon, analysed, cues);
  const concepts = mentions.map((mention) => ({
    mention,
    concept: chooseConcept(undefined, mention, { slots: cues }),
  }));
  const family =
    cues.has("family_history") ||
    (previous?.slots.has("family_history") === true && /^(?:how|what) about\b/.test(text) && cues.size === 0);
  const question: QuestionSentence = { sentence, part, analysed, text, cues, mentions, concepts, family };
  readItems(context, asked, question);
  readAttribute(context, asked, question);
  readRestatedSymptom(context, asked, question);
  if (CLOSING.test(text) && asked.items.length === 0) asked.smallTalk = true;
  if (/\b(?:or|either|versus|vs)\b/.test(text) && (asked.proposedFactors.length > 1 || OFFERS_ALTERNATIVES.test(text)))
    asked.alternatives = true;
}

/** "Still", "any more", "gone away": a question whether a symptom persists ("do you still have the pain?"). */
const ASKS_PERSISTENCE = /\b(?:still|any ?more|gone|go away|went away|settled|resolved)\b/;
/** A pain besides the one in focus. Example: "any other pain?", "pain elsewhere?", "any other aches or pains?". */
const ASKS_OTHER_PAIN = /\b(?:other|another|more|new) (?:\w+ )?(?:aches? or )?pains?\b|\bpains? (?:\w+ )?elsewhere\b/;

/**
 * A question about a change from the usual. Example: "has she had fewer wet nappies than usual?", "is
 * she feeding less?", "any change in your bowels?", "is it worse than before?".
 */
const ASKS_CHANGE_FROM_USUAL =
  /\b(?:fewer|less|more|than (?:usual|normal|before)|reduced|decreased|increased|changes?|changed|different|worse|better)\b/;

/** "It", "that", "your symptoms", "the pain": the question refers back to what is in focus. */
const REFERS_BACK =
  /\b(?:it|its|it's|that|this|they|them|those|these|the symptoms?|your symptoms?|the pain|the cough)\b/;

/**
 * Analyses a doctor utterance. `previous` is the analysis of the doctor's utterance before it, used
 * for follow-ups that name only a value ("How about cancers?" after a family-history question).
 */
export function analyseQuestion(context: Context, doctorText: string, previous?: QuestionAnalysis): QuestionAnalysis {
  const whole = analyseText(doctorText, context.correct);
  const sentences = splitKeepingMarks(whole.text);
  const questions = sentences.filter(isQuestionSentence);
  const isQuestion = questions.length > 0;
  const chosen = isQuestion ? withAntecedents(context, sentences, questions) : sentences.slice(-1);
  const asked: Asked = {
    items: [],
    symptoms: [],
    slots: new Set(),
    proposed: {},
    proposedFactors: [],
    inverted: false,
    smallTalk: false,
    alternatives: false,
  };
  for (const sentence of chosen) readSentence(context, asked, sentence, previous);
  if (!isQuestion && sentences.length > 0 && asked.items.length === 0 && CLOSING.test(whole.text))
    asked.smallTalk = true;
  const exerciseTolerance = chosen.some((sentence) => EXERCISE_TOLERANCE.test(sentence));
  // An exercise-tolerance question is about the breathlessness (or pain) under discussion.
  const anaphoric = exerciseTolerance || chosen.some((sentence) => REFERS_BACK.test(sentence));
  const disjunctive = chosen.some((sentence) => /\bor\b/.test(sentence));
  const radiation = asked.attribute === "location" && chosen.some((sentence) => RADIATION_QUESTION.test(sentence));
  const { items, attribute, inverted, smallTalk, proposed, proposedFactors, alternatives, slots, symptoms } = asked;
  return {
    isQuestion,
    items,
    ...(attribute ? { attribute } : {}),
    inverted,
    smallTalk,
    proposed,
    proposedFactors,
    alternatives,
    slots,
    symptoms,
    anaphoric,
    disjunctive,
    exerciseTolerance,
    radiation,
    persistence: chosen.some((sentence) => ASKS_PERSISTENCE.test(sentence)),
    otherPain: chosen.some((sentence) => ASKS_OTHER_PAIN.test(sentence)),
    ...periodQuestion(chosen.join(" ")),
    changeFromUsual: chosen.some((sentence) => ASKS_CHANGE_FROM_USUAL.test(sentence)),
    choosesAmong: asksWhich(whole.text),
    factorDirection: attribute === "ana_factors" ? factorDirection(chosen.join(" ")) : null,
  };
}

/** A trigger question's words for worse. Example: "what makes it worse?", "anything bring it on?". */
const ASKS_WORSE =
  /\b(?:worse|aggravat\w*|brings? (?:it|them|this|that) on|sets? (?:it|them|this|that) off|triggers?)\b/i;
/** A trigger question's words for better. Example: "does anything help?", "anything relieve it?". */
const ASKS_BETTER = /\b(?:better|reliev\w*|eases?|helps?|helped)\b/i;

/** The one direction of a trigger question, or null when it asks both ("better or worse?") or neither. */
function factorDirection(question: string): QuestionAnalysis["factorDirection"] {
  const worse = ASKS_WORSE.test(question);
  const better = ASKS_BETTER.test(question);
  if (worse === better) return null;
  return worse ? "aggravating_factor" : "alleviating_factor";
}
