import { SOCIAL_SLOT_NAMES, type SocialSlotName } from "../../../cmas/cmas-names.ts";
import { analyseText, type AnalysedText } from "./analysed-text.ts";
import { factorPhrases } from "./ana-factors.ts";
import { extractLocations } from "./body-locations.ts";
import { findMentions, type Mention } from "./concept-mentions.ts";
import { FAMILY_CUE } from "./family-relations.ts";
import type { Concept, Lexicon, MedicalSlot } from "./lexicon.ts";
import { extractProgression } from "./symptom-descriptors.ts";
import { extractDuration, extractOnset } from "./time-expressions.ts";

/**
 * What the doctor's last utterance asks: which slots and values (items), which attribute of them,
 * what values the doctor proposes ("has it been constant since?"), and whether a "yes" means the
 * concept is absent ("are you otherwise healthy?"). Patients' short answers are read against this.
 */

/** Social and demographic slots (no status prefix), from `ontology/cmas.json`. */
export const SOCIAL_SLOTS = SOCIAL_SLOT_NAMES;
/** A social or demographic slot (no status prefix). */
export type SocialSlot = SocialSlotName;

/** Whether a slot name is a social or demographic slot. */
export function isSocialSlot(slot: string): slot is SocialSlot {
  return (SOCIAL_SLOTS as readonly string[]).includes(slot);
}
/** Any slot a doctor can ask about. */
export type AskedSlot = MedicalSlot | SocialSlot;
/** The attributes a doctor question can ask for (`age` for basic_information). */
export type AskedAttribute =
  | "onset" | "duration" | "frequency" | "severity" | "progression" | "characteristics" | "ana_factors" | "location"
  | "color" | "volume" | "starting" | "respone_to" | "impact" | "relation" | "age" | "initiation";

/** One thing a question asks about. */
export interface AskedItem {
  readonly slot: AskedSlot;
  /** Canonical value for medical slots; "other" for open questions ("any other medications?"). */
  readonly value?: string;
  readonly location?: readonly string[];
  /** Exposure setting named in the question ("at work"). */
  readonly where?: string;
  /** Asked as an ROS topic ("any changes in your vision?"). */
  readonly topic?: boolean;
}

/** The reading of a doctor utterance. */
export interface QuestionAnalysis {
  /** False for statements ("So you started smoking around 35."): a bare "yeah" then only acknowledges. */
  readonly isQuestion: boolean;
  readonly items: readonly AskedItem[];
  readonly attribute?: AskedAttribute;
  /** "Yes" means absent: "are you otherwise healthy?", "all of that's normal?". */
  readonly inverted: boolean;
  /** Closing or small talk: "any questions for me?", "how does that sound?". */
  readonly smallTalk: boolean;
  /** Attribute values the doctor proposes, adopted on "yes" ("has it been constant?" → duration). */
  readonly proposed: Readonly<Record<string, string>>;
  /** Trigger phrases the doctor lists ("after walking a few blocks" → physical exertion). */
  readonly proposedFactors: readonly string[];
  /** The doctor offers alternatives ("at rest or when you exert yourself?"): a bare "yes" picks none. */
  readonly alternatives: boolean;
  /** Slots in play, for slot-restricted phrases and for "how about X?" follow-ups. */
  readonly slots: ReadonlySet<AskedSlot>;
  /** Symptom concepts the question names (they become the dialogue focus). */
  readonly symptoms: readonly Concept[];
  /** The question refers back ("it", "that", "your symptoms"): attributes apply to the focus. */
  readonly anaphoric: boolean;
  /** Things asked as a list with "or" ("any dizziness or fainting spells?"). */
  readonly disjunctive: boolean;
  /** "How far can you walk before you need to rest?": a severity asked as a distance. */
  readonly exerciseTolerance: boolean;
}

/** The reading when there is no doctor utterance yet. */
export const EMPTY_QUESTION: QuestionAnalysis = {
  isQuestion: false, items: [], inverted: false, smallTalk: false, proposed: {}, proposedFactors: [], alternatives: false, slots: new Set(), symptoms: [], anaphoric: false, disjunctive: false, exerciseTolerance: false,
};

const LEAD_IN = /^(?:(?:ok|okay|alright|all right|right|and|so|then|now|also|but|um|uh|great|good|yeah|yes|no|sure|perfect|cool|mhm|well|oh|i see|got it|for sure|fair enough|gotcha|thanks|thank you)[\s,]+)*/;
const QUESTION_START = /^(?:do|does|did|have|has|had|are|is|was|were|can|could|would|will|any|anything|anyone|anybody|how|what|when|where|which|who|why|tell me|i was wondering|i wanted to ask|i'd like to ask|you use|you've|you have|ever|describe|let me know)\b/;
/** Closing and small-talk questions ("any questions for me?", "how does that sound?"). */
export const CLOSING = /\b(?:any (?:other )?questions|questions (?:for me|of your own|that you had)|anything else (?:you|that you)|how does that sound|does that sound|any concerns|anything (?:you wanted|that you wanted) to (?:talk|discuss|ask|bring up)|that was all the questions|those were all the questions|that's all the questions)\b/;

// "before" that ends the question ("had this before?"), not "before you get short of breath".
const PAST = /\b(?:before(?=\s*(?:[?.,!]|$|now\b|at all\b|in your life\b))|in the past(?!\s+(?:few|couple|several|\d|one|two|three|four|five|six|seven|week|day|month|year|night|hour))|previously|ever (?:had|experienced|been|gotten|get)|prior|earlier in your life|happened before|like this before)\b/;
const THIS_LIKE = /\b(?:this|that|these|like this|something like|anything like|similar|the same)\b/;
const MEDICATION_CUE = /\b(?:medications?|meds|medicines?|pills|prescriptions?|over the counter|supplements|tried anything|taking anything|take anything|tried taking|on anything)\b/;
const EXPOSURE_CUE = /\b(?:exposed|exposures?|been around|around any|contact with|in contact|sick contacts?|(?:anyone|anybody|someone|somebody|people)\b[^.?]{0,24}\b(?:sick|ill|unwell))\b/;
const TRAVEL_CUE = /\b(?:travel(?:l?ed|l?ing)?|trips?|abroad|out of (?:the )?(?:country|town|province|state)|vacation|holiday)\b/;
const RESIDENCE_CUE = /\b(?:where do you live|where are you living|living situation|live with|who do you live|living arrangements?|home situation|live alone|living alone|where you live|describe your home|type of home|kind of home)\b/;
const OCCUPATION_CUE = /\b(?:for work|for a living|your job|occupation|do you work|are you working|what do you do|line of work|employed|working right now|currently working|where do you work|what kind of work|your work)\b/;
const AGE_CUE = /\b(?:how old are you|how old you are|your age|what age are you)\b/;
const HEALTHY_CUE = /\b(?:otherwise healthy|healthy person|in good health|generally healthy|healthy otherwise|otherwise well|been healthy|healthy individual|healthy overall)\b/;
const NORMAL_QUESTION = /\b(?:normal|okay|ok|fine|alright|good)\s*\??\s*$/;
const OTHER_CONDITIONS = /\b(?:other (?:medical |health )?(?:conditions?|problems|issues|illness(?:es)?|diseases?)|medical conditions?|medical history|health (?:problems|conditions|issues)|diagnosed with|chronic (?:conditions?|illness(?:es)?))\b/;
const OTHER_SYMPTOMS = /\b(?:other symptoms|any symptoms|anything else)\b/;

const EXERCISE_TOLERANCE = /\b(?:how far (?:can|could|are) you (?:able to )?walk|how many (?:blocks|flights))\b/;

const ATTRIBUTE_CUES: ReadonlyArray<readonly [AskedAttribute, RegExp]> = [
  ["age", AGE_CUE],
  ["severity", new RegExp(`${EXERCISE_TOLERANCE.source}|\\b(?:scale|out of (?:10|ten)|1 to 10|one to ten|zero to ten|0 to 10|rate (?:it|your|the|that)|how bad|how severe|severity|how intense)\\b`)],
  ["starting", /\bhow long have you (?:smoked|been smoking|been drinking|drunk|used|been using)|when did you (?:start|begin) (?:smoking|drinking|using)|how many years have you (?:smoked|been)|started smoking|start smoking\b/],
  ["volume", /\bhow much (?:sputum|phlegm|mucus|blood|are you (?:bringing|producing|coughing))|teaspoons?|tablespoons?|how much .* (?:each|a|per) day\b/],
  ["frequency", /\bhow often|how many times|how frequently|how much do you (?:smoke|drink)|how many (?:cigarettes|packs|drinks|beers|joints)|how much alcohol|how regularly\b/],
  ["color", /\bcolou?rs?\b/],
  ["ana_factors", /\b(?:makes? (?:it|them|that|things|the \w+|either \w+|your \w+)(?: \w+)? (?:better|worse)|made (?:it|them|that|things|the \w+|either \w+)?\s*(?:or \w+ )?(?:\w+ )?(?:better|worse)|triggers?|anything (?:that )?(?:helps|makes|made|brings|sets)|relieve|aggravate|worse (?:at|in|when|with|after|during)|better (?:at|in|when|with|after)|time of (?:the )?day|at rest or|when you exert|exert yourself|with exertion|on exertion|bring(?:s)? (?:it|them) on|doing anything that's made)\b/],
  ["progression", /\b(?:getting (?:worse|better)|gotten (?:worse|better)|staying the same|stayed the same|changed (?:since|over)|progress(?:ed|ing)?|improving|worsening|better or worse|worse or better)\b/],
  ["characteristics", /\b(?:describe|what (?:does|did) (?:it|the \w+|that) feel like|quality|what kind of (?:cough|pain)|what type of (?:cough|pain)|dry or|wet or|dry cough|productive|sharp or|dull or|barky|like a \w+ or)\b/],
  ["initiation", /\b(?:sudden(?:ly)?|gradual(?:ly)?|all of a sudden|abrupt(?:ly)?|out of (?:nowhere|the blue))\b/],
  ["location", /\bwhere (?:is|does|do|exactly|abouts|on your|in your)|which part|point to|where do you feel|radiat\w*|(?:move|go|travel|spread)(?:s|ing)? (?:anywhere|elsewhere|to (?:any|other))|anywhere else\b/],
  ["respone_to", /\bwhat (?:(?:is|are|was|were) (?:it|that|this|they|those)|do you (?:take|use|need) (?:it|that|this|them|those)|are you (?:taking|using) (?:it|that|this|them|those)) for\b|\bfor what\b|\btried anything for\b|\banything for (?:this|the|that|your)\b/],
  ["impact", /\b(?:does|did|has|have) (?:it|that|this|they|those|the \w+) (?:help|helped|work|worked)\b/],
  ["duration", /\bhow long (?:does|do|did|will|would) (?:it|they|that|the \w+|each \w+|these|those) (?:\w+ )?last\b|\b(?:constant|constantly|all the time|come and go|comes and goes|on and off|intermittent)\b/],
  ["onset", /\bwhen (?:did|was|were|do you (?:first )?(?:notice|remember))\b|\bhow long ago\b|\bsince when\b|\bhow long have you (?:had|been having|noticed|been experiencing|been feeling)\b|\bwhen .*(?:start|begin|began|notice)/],
  ["relation", /\bwho (?:in your family|has|had)\b|\bwhich (?:family member|relative)\b/],
];

/** Splits cleaned text into sentences, keeping each one's terminal punctuation. */
function splitKeepingMarks(text: string): string[] {
  return (text.match(/[^.?!]+[.?!]*/g) ?? []).map((sentence) => sentence.trim()).filter((sentence) => /[a-z0-9]/.test(sentence));
}

function isQuestionSentence(sentence: string): boolean {
  if (sentence.endsWith("?")) return true;
  // Transcripts drop question marks: "you mentioned, how far can you walk before you need to rest."
  if (/\bhow (?:far|many|much|long|often|bad) (?:can|could|do|does|did|is|are|was|were|have|has|would|will) you\b/.test(sentence)) return true;
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

function chooseConcept(mention: Mention, slots: ReadonlySet<AskedSlot>): Concept {
  return mention.concepts.find((concept) => slots.has(concept.slot)) ?? mention.concepts[0]!;
}

/** A question that points back at what the doctor just listed ("… bowel movements and urination. Like all of that's normal?"). */
const POINTS_BACK = /\b(?:all (?:of )?(?:that|those|these)|(?:that|those|these|this|it)(?:'s| is| are| been)?\s+(?:all\s+)?(?:normal|okay|ok|fine|alright|good))\b/;

/**
 * The question sentences, each preceded by the statement before it when the question names nothing
 * and points back at it: the statement holds what is asked.
 */
function withAntecedents(context: Context, sentences: readonly string[], asked: readonly string[]): string[] {
  const chosen: string[] = [];
  for (const sentence of asked) {
    const index = sentences.indexOf(sentence);
    const before = sentences[index - 1];
    if (before !== undefined && !asked.includes(before) && POINTS_BACK.test(sentence) && findMentions(context.lexicon, analyseText(sentence, context.correct)).length === 0) chosen.push(before);
    chosen.push(sentence);
  }
  return chosen;
}

interface Context {
  readonly lexicon: Lexicon;
  readonly correct?: (word: string) => string | undefined;
}

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
  if (/\b(?:temperature|test(?:s|ed|ing)?|x ?rays?|scan|swab|checked|measured?)\b/.test(text)) slots.add("medical_test");
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

/**
 * Analyses a doctor utterance. `previous` is the analysis of the doctor's utterance before it, used
 * for follow-ups that name only a value ("How about cancers?" after a family-history question).
 */
export function analyseQuestion(context: Context, doctorText: string, previous?: QuestionAnalysis): QuestionAnalysis {
  const { lexicon } = context;
  const whole = analyseText(doctorText, context.correct);
  const sentences = splitKeepingMarks(whole.text);
  const asked = sentences.filter(isQuestionSentence);
  const isQuestion = asked.length > 0;
  const chosen = isQuestion ? withAntecedents(context, sentences, asked) : sentences.slice(-1);

  const items: AskedItem[] = [];
  const symptoms: Concept[] = [];
  const slots = new Set<AskedSlot>();
  const proposed: Record<string, string> = {};
  const proposedFactors: string[] = [];
  let attribute: AskedAttribute | undefined;
  let inverted = false;
  let smallTalk = false;
  let alternatives = false;

  for (const sentence of chosen) {
    const part = focusPart(sentence);
    const analysed: AnalysedText = analyseText(part, context.correct);
    const text = analysed.text;
    const cues = cueSlots(text);
    for (const slot of cues) slots.add(slot);
    const mentions = findMentions(lexicon, analysed, cues);
    const concepts = mentions.map((mention) => ({ mention, concept: chooseConcept(mention, cues) }));
    const family = cues.has("family_history") || (previous?.slots.has("family_history") === true && /^(?:how|what) about\b/.test(text) && cues.size === 0);

    const past = PAST.test(text) && !family && (THIS_LIKE.test(text) || concepts.some(({ concept }) => concept.slot === "symptom")) && !concepts.some(({ concept }) => concept.slot !== "symptom");
    if (past) {
      addItem(items, { slot: "medical_history", value: "past experience" });
      slots.add("medical_history");
    }

    for (const { mention, concept } of concepts) {
      // "Admitted to the ICU for your asthma?": a condition named as the reason is presupposed, not asked.
      if (concepts.length > 1 && /^(?:for|with|from|of|about)$/.test(analysed.tokens[mention.start - 2]?.text ?? "") && analysed.tokens[mention.start - 1]?.text === "your") continue;
      let slot: AskedSlot = concept.slot;
      if (family && (slot === "medical_history" || slot === "symptom")) slot = "family_history";
      // "In contact with anyone who has TB?": the disease is what the patient was exposed to.
      else if (cues.has("exposure") && slot === "medical_history" && !cues.has("family_history")) slot = "exposure";
      if (past && slot === "symptom") {
        symptoms.push(concept);
        continue;
      }
      if (slot === "symptom") symptoms.push(concept);
      let location = concept.location;
      if (!location && lexicon.locatable.has(concept.value) && slot === "symptom") {
        const found = extractLocations(lexicon, analysed, mention.end, Math.min(analysed.tokens.length, mention.end + 8));
        const before = found.length > 0 ? found : extractLocations(lexicon, analysed, Math.max(0, mention.start - 3), mention.start);
        if (before.length > 0) location = before;
      }
      const where = slot === "exposure" ? /\bat (work|home|school)\b/.exec(text)?.[0] : undefined;
      addItem(items, { slot, value: concept.value, ...(location ? { location } : {}), ...(where ? { where } : {}), ...(concept.topic ? { topic: true } : {}) });
      slots.add(slot);
    }

    if (family && !items.some((item) => item.slot === "family_history")) {
      addItem(items, { slot: "family_history", value: /\b(?:similar|like this|same|this)\b/.test(text) ? "similar symptoms" : "other" });
      slots.add("family_history");
    }
    if (HEALTHY_CUE.test(text) && !items.some((item) => item.slot === "symptom")) {
      addItem(items, { slot: "symptom", value: "general" });
      inverted = true;
    } else if (NORMAL_QUESTION.test(sentence) && items.length > 0) {
      inverted = true;
    }
    // "Allergies to medications?" asks about allergies, not the medications taken.
    const allergy = items.some((item) => item.value === "drug allergy");
    if (MEDICATION_CUE.test(text) && !allergy && (!items.some((item) => item.slot === "medication") || /\b(?:other|else)\b/.test(text))) addItem(items, { slot: "medication", value: "other" });
    if (OTHER_CONDITIONS.test(text) && !family && !items.some((item) => item.slot === "medical_history")) addItem(items, { slot: "medical_history", value: "other" });
    if (OTHER_SYMPTOMS.test(text) && items.length === 0) addItem(items, { slot: "symptom", value: "other" });
    for (const slot of SOCIAL_SLOTS) if (cues.has(slot)) addItem(items, { slot });

    const social = [...cues].some((slot) => slot === "residence" || slot === "occupation" || slot === "travel");
    for (const [name, pattern] of ATTRIBUTE_CUES) {
      if (social && name !== "age") continue;
      if (pattern.test(text)) {
        attribute = name;
        break;
      }
    }
    if (attribute === "progression" || /\b(?:getting|gotten) (?:worse|better)\b/.test(text)) {
      const progression = extractProgression(lexicon, analysed, 0, analysed.tokens.length, true);
      if (progression && !/\bor\b/.test(text.slice(text.search(/\b(?:worse|better|same)\b/)))) proposed.progression = progression;
    }
    if (/\b(?:start|started|began|since|ago)\b/.test(text)) {
      const onset = /\bago\b|\bsince\b/.test(text) ? extractOnset(text) : undefined;
      if (onset) proposed.onset = onset;
    }
    const duration = /\b(?:constant|all the time|comes? and goes?|on and off|intermittent)\b/.test(text) ? extractDuration(text) : undefined;
    if (duration) proposed.duration = duration;
    if (attribute === "ana_factors" || /\b(?:after|when you|while|with|on)\b/.test(text)) {
      // The symptom asked about is not its own trigger ("triggers to this cough" ≠ coughing fits).
      const symptomTokens = mentions.filter((mention) => mention.concepts.some((concept) => concept.slot === "symptom"));
      for (const factor of factorPhrases(lexicon, analysed, symptomTokens)) if (!proposedFactors.includes(factor)) proposedFactors.push(factor);
    }
    // "You mentioned shortness of breath on exertion, how about when you're lying down?": a trigger
    // asked about the symptom the doctor just restated.
    if (part !== sentence && concepts.length === 0 && proposedFactors.length > 0) {
      const restated = analyseText(sentence.slice(0, sentence.length - part.length), context.correct);
      for (const mention of findMentions(lexicon, restated, cues)) {
        const concept = chooseConcept(mention, cues);
        if (concept.slot !== "symptom") continue;
        symptoms.push(concept);
        addItem(items, { slot: "symptom", value: concept.value });
        slots.add("symptom");
      }
      if (items.length > 0) attribute ??= "ana_factors";
    }
    if (CLOSING.test(text) && items.length === 0) smallTalk = true;
    if (/\b(?:or|either|versus|vs)\b/.test(text) && (proposedFactors.length > 1 || /\bor (?:is it|are you|do you|does it|when|at|with|after)\b/.test(text))) alternatives = true;
  }
  if (!isQuestion && sentences.length > 0 && items.length === 0 && CLOSING.test(whole.text)) smallTalk = true;

  const exerciseTolerance = chosen.some((sentence) => EXERCISE_TOLERANCE.test(sentence));
  // An exercise-tolerance question is about the breathlessness (or pain) under discussion.
  const anaphoric = exerciseTolerance || chosen.some((sentence) => /\b(?:it|its|it's|that|this|they|them|those|these|the symptoms?|your symptoms?|the pain|the cough)\b/.test(sentence));
  const disjunctive = chosen.some((sentence) => /\bor\b/.test(sentence));
  return { isQuestion, items, ...(attribute ? { attribute } : {}), inverted, smallTalk, proposed, proposedFactors, alternatives, slots, symptoms, anaphoric, disjunctive, exerciseTolerance };
}
