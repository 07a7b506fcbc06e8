import type { NluFrame } from "../../../cmas/schemas.ts";
import { clauseRange, sentenceOf, textOf, type AnalysedText } from "./analysed-text.ts";
import { extractFactors, hasFactorCue } from "./ana-factors.ts";
import { readAskedAttribute } from "./asked-attributes.ts";
import { extractLocations } from "./body-locations.ts";
import { conceptMask, findMentions, type Mention } from "./concept-mentions.ts";
import { conceptKey, type DialogueContext } from "./dialogue-context.ts";
import { extractRelations, FAMILY_CUE } from "./family-relations.ts";
import { EntryCollector, type BaseSlot, type CollectedEntry, type Found } from "./frame-builder.ts";
import { habitStatus } from "./habit-attributes.ts";
import { PEOPLE, wordsPattern } from "./word-lists.ts";
import { isSpecificPain, OPEN_VALUES, type Concept, type Lexicon } from "./lexicon.ts";
import { answerPolarity, mentionStatus, type AnswerPolarity, type Status } from "./negation.ts";
import { isSocialSlot, type AskedItem, type QuestionAnalysis } from "./question-analysis.ts";
import {
  answerAllergyQuestion,
  answerMedicationQuestion,
  answerSickContact,
  attachExposureAttributes,
  attachHabitAttributes,
  attachHistoryAttributes,
  attachMedicationAttributes,
  attachSocial,
} from "./slot-details.ts";
import type { SmallTalkClassifier } from "./small-talk.ts";
import { extractCharacteristics } from "./symptom-descriptors.ts";
import { attachSymptomAttributes } from "./volunteered-attributes.ts";

/**
 * Reads one patient utterance against its dialogue context and writes MediTOD NLU frames:
 * 1. concept phrases of the utterance, each with its own status (negation/uncertainty cues);
 * 2. short answers resolved against the doctor's question ("No." to "any fevers or chills?");
 * 3. the attribute the doctor asked for ("About a week." to "when did the cough start?");
 * 4. attributes the patient volunteers, attached to the symptom they describe;
 * 5. medication, habit, family, exposure and social details;
 * 6. small talk when nothing was informed.
 */

export interface InterpretResources {
  readonly lexicon: Lexicon;
  readonly smallTalk: SmallTalkClassifier;
}

/** Attributes that describe a symptom: asked about "it", they refer to the symptom in focus. */
const SYMPTOM_ATTRIBUTES = new Set(["onset", "initiation", "duration", "frequency", "severity", "progression", "characteristics", "ana_factors", "location", "color", "volume"]);
/** Body sites that restate a dermatological concept rather than locate it. */
const TAUTOLOGICAL_LOCATION: Readonly<Record<string, string>> = { "dermatologic problem": "skin", pruritus: "skin", "chest pain": "chest", headache: "head" };

function statusFromAnswer(polarity: AnswerPolarity, inverted: boolean): Status {
  if (polarity === "unknown") return "unknown";
  if (polarity === "normal") return "negative";
  const yes = polarity === "yes";
  return yes !== inverted ? "positive" : "negative";
}

/** Picks the concept of a shared phrase that fits the question's slots. */
function chooseConcept(mention: Mention, question: QuestionAnalysis, lexicon: Lexicon): Concept {
  const concept = mention.concepts.find((candidate) => question.slots.has(candidate.slot)) ?? mention.concepts[0]!;
  // "Allergic to any drugs?" — "Yes, to Bactrim": the specific concept the question asked about.
  const asked = lexicon.upgrades.find((rule) => rule.value === concept.value && question.items.some((item) => item.value === rule.becomes));
  return asked ? { ...concept, value: asked.becomes } : concept;
}

const TOPIC_NOT_NORMAL = /\bnot\s+(?:\w+\s+)?(?:great|good|well|normal|fine|okay|ok|the best)\b|\b(?:poor|bad|terrible|awful|worse)\b/;
const TOPIC_NORMAL = /\b(?:fine|good|normal|ok|okay|well|great|alright|still there|the same|unchanged|no (?:problems?|issues?|changes?))\b/;
const TOPIC_PROBLEM = /\b(?:low|less|lost|loss|poor|bad|worse|changes?|changed|problems?|trouble|difficulty|decreased|reduced|down|off|not as good)\b/;

/** The status an ROS topic word gets from its clause alone ("my energy's still there" → absent). */
function topicStatus(clause: string): Status | undefined {
  if (TOPIC_NOT_NORMAL.test(clause)) return "positive";
  if (TOPIC_NORMAL.test(clause)) return "negative";
  if (TOPIC_PROBLEM.test(clause)) return "positive";
  return undefined;
}

/** Whether a habit/exposure phrase is used as a trigger in its clause ("better when I go for a smoke"). */
function isFactorMention(lexicon: Lexicon, analysed: AnalysedText, mention: Mention): boolean {
  const [start, end] = clauseRange(analysed, mention.start);
  const factors = extractFactors(lexicon, analysed, start, end);
  if (factors.aggravating.length + factors.alleviating.length === 0) return false;
  return lexicon.factors.findAll(analysed.tokens, start, end).some((match) => match.start < mention.end && mention.start < match.end);
}

/** A subject other than the patient before a habit ("my husband smokes", "they drink"). */
const OTHERS_HABIT = new RegExp(`${wordsPattern(PEOPLE.relatives, PEOPLE.housemates, PEOPLE.workmates, PEOPLE.others, PEOPLE.thirdPerson)}(?![^,]*\\bi\\b)`);

/** Someone smoking where the patient breathes it: household members, indoors, in the car. */
const SHARED_AIR = new RegExp(wordsPattern(PEOPLE.housemates, PEOPLE.partners, ["parent", "parents", "inside", "indoors", "in the house", "at home", "around me", "in the car", "in front of me"]));

/** Whether a family relation is named before token `end` in the sentence ("my dad had …", not "… from my son"). */
function relationBefore(lexicon: Lexicon, analysed: AnalysedText, start: number, end: number): boolean {
  return extractRelations(lexicon, analysed, start, end).length > 0;
}

const RESPIRATORY = new Set(["coughing", "colored/excess sputum", "hemoptysis", "dyspnea", "wheezing"]);

/** Whether the cough or sputum is being discussed (in focus, asked, reported, or named now). */
function respiratoryContext(context: DialogueContext, text: string): boolean {
  if (/\b(?:cough\w*|sputum|phlegm|mucus|spit\w*)\b/.test(text)) return true;
  if (context.question.items.some((item) => item.value !== undefined && RESPIRATORY.has(item.value))) return true;
  if (context.focus.some((concept) => RESPIRATORY.has(concept.value))) return true;
  return [...RESPIRATORY].some((value) => context.knownPositive.has(conceptKey("symptom", value)));
}

/** Whether a phrase follows "when (I)", "whenever", "if I", "after": the condition of a trigger. */
function isTriggerClause(analysed: AnalysedText, start: number): boolean {
  const before = analysed.tokens.slice(Math.max(0, start - 3), start).map((token) => token.text);
  return before.some((word) => word === "when" || word === "whenever" || word === "if" || word === "after" || word === "while");
}

/** "worse with …", "better when …", "brought on by …" shortly before token `start` in its clause. */
function followsTriggerCue(analysed: AnalysedText, clauseStart: number, start: number): boolean {
  const before = analysed.tokens.slice(Math.max(clauseStart, start - 5), start).map((token) => token.text).join(" ");
  return /\b(?:worse|better|triggered|brought on|set off|aggravated|relieved)\s+(?:with|when|by|after|during|if|from)\b/.test(before);
}

/** Only list glue ("or", "and", ",", "any", "nor") between two mentions. */
function isListContinuation(analysed: AnalysedText, from: number, to: number): boolean {
  const between = analysed.tokens.slice(from, to).map((token) => token.text);
  return between.length > 0 && between.length <= 3 && between.some((word) => word === "or" || word === "and" || word === "nor" || word === ",") && between.every((word) => /^(?:or|and|nor|,|any|no)$/.test(word));
}

/** The specific pain under discussion (chest pain, headache …), when the focus is one. */
function painInFocus(lexicon: Lexicon, context: DialogueContext): Concept | undefined {
  const focused = context.focus[0];
  return focused && isSpecificPain(lexicon, focused) ? focused : undefined;
}

/** Whether the sentence of token `at` names a body site. */
function namesSite(lexicon: Lexicon, analysed: AnalysedText, at: number): boolean {
  return extractLocations(lexicon, analysed, ...sentenceOf(analysed, at)).length > 0;
}

/** "the pain", "that pain", "this pain": a pain already talked about. */
function isDefinite(analysed: AnalysedText, start: number): boolean {
  return /^(?:the|that|this|my|your)$/.test(analysed.tokens[start - 1]?.text ?? "");
}

/** A concept named as something the patient has (not) heard of. */
function isHeardOf(analysed: AnalysedText, start: number): boolean {
  const before = analysed.tokens.slice(Math.max(0, start - 5), start).map((token) => token.text);
  return before.includes("heard") && before.at(-1) === "of";
}

const SAYS_HEALTHY = /\b(?:been|am|i'm|was|be)\s+(?:\w+\s+)?(?:healthy|well)\b/;
const CLARIFYING = /\b(?:(?:haven't|have not|never|not) (?:\w+ )?heard (?:of|about)|what(?:'s| is| are) (?:that|those|it)\b|what do you mean|what does that mean)/;

/** Removes one site from an entry's location list (and the list when it empties). */
function dropSite(entry: CollectedEntry, site: string): void {
  const sites = entry.attributes.location;
  if (!Array.isArray(sites)) return;
  const rest = sites.filter((other) => other !== site);
  if (rest.length > 0) entry.attributes.location = rest;
  else delete entry.attributes.location;
}

/**
 * Sites that make a generic concept specific become the concept ("pain" in the chest → "chest
 * pain"), and sites that restate the concept ("skin" of a rash) are dropped.
 */
function normaliseSites(lexicon: Lexicon, entries: EntryCollector): void {
  for (const entry of [...entries.all()]) {
    const specific = lexicon.specificByLocation.get(entry.attributes.value as string);
    const sites = entry.attributes.location;
    const named = specific && Array.isArray(sites) ? sites.find((site) => specific[site]) : undefined;
    if (specific && named) {
      dropSite(entry, named);
      entries.rename(entry, specific[named]!);
    }
  }
  for (const entry of entries.all()) {
    const tautology = TAUTOLOGICAL_LOCATION[entry.attributes.value as string];
    if (tautology) dropSite(entry, tautology);
  }
}

/** Whether an item of the question is answered by an explicit phrase of the utterance. */
function answeredBy(item: AskedItem, entries: EntryCollector): boolean {
  if (item.value === undefined) return entries.find(item.slot) !== undefined;
  return entries.all().some((entry) => entry.attributes.value === item.value && !entry.fromQuestion);
}

/**
 * Step 1: the concept phrases of the utterance as entries, each with the status its own cues give
 * (or, for ROS topic words, the state the answer describes), in the slot its context implies.
 */
function readPhrases(
  lexicon: Lexicon,
  analysed: AnalysedText,
  context: DialogueContext,
  entries: EntryCollector,
  polarity: AnswerPolarity | undefined,
  firstSentence: string,
): Found[] {
  const { question } = context;
  const { tokens, clauses, text } = analysed;
  const mentions = findMentions(lexicon, analysed, question.slots);
  const inConcept = conceptMask(tokens.length, mentions);
  const scope = { tokens, clauses, inConcept };
  const found: Found[] = [];
  const askedValues = new Set(question.items.map((item) => item.value));
  let previous: { mention: Mention; status: Status } | undefined;
  for (const mention of mentions) {
    let concept = chooseConcept(mention, question, lexicon);
    // "No fevers or sweats" to "any fevers, chills or night sweats?": a shortened name of an asked item is that item.
    if (!askedValues.has(concept.value)) {
      const words = textOf(analysed, mention.start, mention.end).split(" ");
      const shortened = question.items.find((item) => item.slot === concept.slot && item.value !== undefined && words.every((word) => item.value!.split(" ").includes(word)));
      if (shortened) concept = { ...concept, value: shortened.value! };
    }
    // "Any chest pain?" — "Yes, it hurts on the right": a generic pain is the specific one asked about.
    if (concept.value === "pain" && !concept.location) {
      const asked = question.items.find((item) => item.slot === "symptom" && isSpecificPain(lexicon, item));
      if (asked?.value) concept = { ...concept, value: asked.value, ...(asked.location ? { location: asked.location } : {}) };
      // "When I take a deep breath the pain is a lot worse": "the pain" is the specific pain being discussed.
      else {
        const focused = painInFocus(lexicon, context);
        if (focused && isDefinite(analysed, mention.start) && !namesSite(lexicon, analysed, mention.start)) {
          concept = { ...concept, value: focused.value, ...(focused.location ? { location: focused.location } : {}) };
        }
      }
    }
    // "I haven't heard of pulmonary embolism": what the patient knows of, not what they have.
    if (isHeardOf(analysed, mention.start)) continue;
    const [clauseStart, clauseEnd] = clauseRange(analysed, mention.start);
    const clauseText = textOf(analysed, clauseStart, clauseEnd);
    // ROS topic words ("my vision's fine") answer a question about that topic; unasked, only a clear
    // complaint counts ("my breathing's been really bad").
    const topicAsked = askedValues.has(concept.value);
    if (concept.topic && !topicAsked && !TOPIC_NOT_NORMAL.test(clauseText)) continue;
    // "I haven't had changes in my hearing": a denied problem with the topic is its absence.
    const deniedTopic = concept.topic && mentionStatus(scope, mention.start, mention.end) === "negative" && TOPIC_PROBLEM.test(clauseText) && !TOPIC_NOT_NORMAL.test(clauseText);
    let status: Status | undefined = deniedTopic
      ? "negative"
      : concept.topic
        ? (topicStatus(clauseText) ?? (topicAsked ? (topicStatus(firstSentence) ?? (polarity ? statusFromAnswer(polarity, question.inverted) : undefined)) : undefined))
        : mentionStatus(scope, mention.start, mention.end);
    // "Nobody has had heart problems or lung diseases": a list shares the status of its first item.
    if (status === "positive" && previous?.status !== "positive" && previous && isListContinuation(analysed, previous.mention.end, mention.start)) status = previous.status;
    if (status !== undefined) previous = { mention, status };
    if (status === undefined) continue;
    let base: BaseSlot = concept.slot;
    // A bare "blood" is coughed-up blood only when the talk is about the cough or sputum.
    if (concept.value === "hemoptysis" && mention.end - mention.start === 1 && !respiratoryContext(context, text)) continue;
    // "Better when I go out for a smoke": a trigger, not a report of the habit.
    if ((base === "habit" || base === "exposure") && isFactorMention(lexicon, analysed, mention)) continue;
    // "It hurts more when I cough": a symptom named as the trigger of another is not reported anew;
    // "worse with bowel movements": one named right after the trigger cue is only a trigger.
    if (base === "symptom" && isTriggerClause(analysed, mention.start) && hasFactorCue(analysed, clauseStart, clauseEnd) && context.knownPositive.has(conceptKey(base, concept.value))) continue;
    if (base === "symptom" && !topicAsked && followsTriggerCue(analysed, clauseStart, mention.start)) continue;
    // "I've never had this frequent of coughing before": a comparison, not a denial of a known symptom.
    if (status === "negative" && context.knownPositive.has(conceptKey(base, concept.value)) && /\b(?:before|like this|in the past|previously)\b/.test(clauseText)) continue;
    const [sentenceStart, sentenceEnd] = sentenceOf(analysed, mention.start);
    const relations = extractRelations(lexicon, analysed, sentenceStart, sentenceEnd);
    // "My son had the flu" answering "been around anyone sick?" describes the contact, not the family history.
    if (question.slots.has("exposure") && relations.length > 0 && (base === "medical_history" || base === "symptom")) continue;
    if ((base === "medical_history" || base === "symptom") && (question.slots.has("family_history") || relationBefore(lexicon, analysed, sentenceStart, mention.start) || FAMILY_CUE.test(textOf(analysed, sentenceStart, mention.start))) && !/\bi(?:'ve| have| had| was)\b/.test(textOf(analysed, sentenceStart, mention.start))) {
      base = "family_history";
    }
    if (base === "habit") {
      // "My roommate smokes inside": someone else's smoking is second-hand smoke; their other habits are not the patient's.
      if (OTHERS_HABIT.test(textOf(analysed, clauseStart, mention.start)) || relationBefore(lexicon, analysed, sentenceStart, mention.start)) {
        if (concept.value !== "smoking" || !SHARED_AIR.test(clauseText)) continue;
        const entry = entries.add("habit", "positive", "passive smoking");
        if (entry) found.push({ mention, entry });
        continue;
      }
      status = habitStatus(text, status);
    }
    // An asked exposure answered "possibly … maybe one of them": uncertainty anywhere in the answer.
    if (base === "exposure" && status === "positive" && polarity === "unknown") status = "unknown";
    const entry = entries.add(base, status, concept.value);
    if (!entry) continue;
    if (concept.location) entries.set(entry, "location", concept.location);
    // "No swelling." to "any swelling in your ankles?": the site comes from the question.
    const askedItem = question.items.find((item) => item.value === concept.value && item.location);
    // "My ankles have been swollen" to "any swelling in your legs?": the patient's own site wins.
    if (!concept.location && askedItem?.location && !namesSite(lexicon, analysed, mention.start)) entries.set(entry, "location", askedItem.location);
    if (concept.location && lexicon.locatable.has(concept.value)) {
      // "leg swelling or arms": more sites joined to a located phrase.
      const more = extractLocations(lexicon, analysed, mention.end, Math.min(tokens.length, mention.end + 4));
      if (/^(?:or|and|,)/.test(textOf(analysed, mention.end, mention.end + 1))) entries.set(entry, "location", more);
    }
    found.push({ mention, entry });
  }
  return found;
}

/** The NLU frames of one analysed patient utterance in its dialogue context (never empty). */
export function interpretTurn(resources: InterpretResources, analysed: AnalysedText, context: DialogueContext): NluFrame[] {
  const { lexicon } = resources;
  const { question } = context;
  const { tokens, text } = analysed;
  const entries = new EntryCollector();
  const polarity = answerPolarity(tokens);
  const firstSentence = analysed.sentences[0] ? textOf(analysed, analysed.sentences[0][0], analysed.sentences[0][1]) : text;

  // 1. Concept phrases of the utterance, each with its own status.
  const askedValues = new Set(question.items.map((item) => item.value));
  const found = readPhrases(lexicon, analysed, context, entries, polarity, firstSentence);

  // "What do you take that for?" / "Does it help?": about the medication named last.
  if ((question.attribute === "respone_to" || question.attribute === "impact") && question.isQuestion) {
    answerMedicationQuestion(entries, found, context, polarity, text);
  }

  // "I haven't heard of pulmonary embolism": the patient asks what was meant, and answers nothing yet.
  if (CLARIFYING.test(firstSentence) && found.length === 0) return [{ intent: "chit-chat" }];

  // 2-3. Short answers and asked attributes.
  const medicalItems = question.items.filter((item) => !isSocialSlot(item.slot));
  const realItems = medicalItems.filter((item) => item.value !== undefined && !OPEN_VALUES.has(item.value));
  // "Yes, both" / "all of the above" answers every item, whatever else it names.
  const answersAll = /\b(?:both|all of (?:them|those|these|the above)|all three|each of them)\b/.test(firstSentence);
  const allergyAnswered = answerAllergyQuestion(entries, found, question, polarity, text);
  const anyAnswered =
    allergyAnswered ||
    (!answersAll && realItems.some((item) => answeredBy(item, entries))) ||
    // Outside symptoms, any phrase of the asked slot answers it ("any recreational drugs?" — "weed, sometimes").
    (polarity !== "no" && realItems.some((item) => item.slot !== "symptom" && found.some(({ entry }) => entry.base === item.slot && entry.status !== "negative")));
  // "No fainting spells." to "any dizziness or fainting spells?": a denial of one asked symptom, with
  // nothing confirmed, denies the list.
  if (anyAnswered && question.disjunctive && polarity === "no" && found.every(({ entry }) => entry.status === "negative")) {
    for (const item of realItems) {
      if (item.slot !== "symptom" || answeredBy(item, entries)) continue;
      const entry = entries.add("symptom", "negative", item.value, true);
      if (entry && item.location) entries.set(entry, "location", item.location);
    }
  }
  // "No, just the salbutamol" to "any other medications?": the new positive phrase is the answer.
  const openSlots = new Set(medicalItems.filter((item) => item.value === "other").map((item) => item.slot));
  const answeredSlots = new Set(
    found.filter(({ entry }) => entry.status === "positive" && openSlots.has(entry.base)).map(({ entry }) => entry.base),
  );
  const asked = question.attribute;
  const attributeTargets = (): Array<{ base: BaseSlot; value: string; location?: readonly string[]; named: boolean }> => {
    let targets = realItems.filter((item) => item.slot !== "medical_history" || item.value !== "past experience");
    if (asked === "characteristics") {
      // "Is it a dry cough or are you producing sputum?" — "mostly dry" describes the cough only.
      const described = targets.filter((item) => item.value && extractCharacteristics(lexicon, item.value, analysed, 0, tokens.length).length > 0);
      targets = described.length > 0 ? described : targets.slice(0, 1);
    }
    if (targets.length > 0) {
      return targets.map((item) => {
        // "How bad is that pain?": the specific pain in focus.
        const refined = (item.value === "pain" && !item.location ? painInFocus(lexicon, context) : undefined) ?? item;
        return { base: item.slot, value: refined.value!, named: true, ...(refined.location ? { location: refined.location } : {}) };
      });
    }
    if (!asked || !SYMPTOM_ATTRIBUTES.has(asked)) return [];
    // "How often have you been using it?": the medication named last.
    if (asked === "frequency" && question.slots.has("medication") && context.medications.length > 0) return [{ base: "medication", value: context.medications[0]!.value, named: false }];
    // Without "it"/"that"/"your symptoms", an attribute question is not about the symptom in focus.
    if (!question.anaphoric) return [];
    // "How often are you using both of those?" is about the medications named in the answer.
    if (question.slots.has("medication") && found.some(({ entry }) => entry.base === "medication")) return [];
    // "How much are you bringing up?" about a cough: amount and colour belong to the sputum.
    if ((asked === "volume" || asked === "color") && context.focus[0]?.value === "coughing") return [{ base: "symptom", value: "colored/excess sputum", named: false }];
    return context.focus.slice(0, 1).map((concept) => ({ base: concept.slot, value: concept.value, named: false, ...(concept.location ? { location: concept.location } : {}) }));
  };

  let attributeAnswered = false;
  // What a medication was for, and whether it helped, are read from the medication phrases (below).
  if (asked && asked !== "age" && asked !== "respone_to" && asked !== "impact" && question.isQuestion) {
    for (const target of attributeTargets()) {
      const key = conceptKey(target.base, target.value);
      // "No" to "pain in your calves after walking?" denies the pain; to "is the cough worse at any
      // particular time?" it only denies the trigger of a cough already reported.
      const status: Status =
        context.knownNegative.has(key) && polarity !== "yes"
          ? "negative"
          : polarity === "no" && !found.some(({ entry }) => entry.attributes.value === target.value) && !context.knownPositive.has(key)
            ? "negative"
            : "positive";
      const existing = entries.find(target.base, target.value);
      const entry = entries.add(target.base, status, target.value, true);
      if (!entry) continue;
      if (target.location) entries.set(entry, "location", target.location);
      const answered = readAskedAttribute(lexicon, analysed, entries, entry, question, polarity, found);
      attributeAnswered = answered || attributeAnswered;
      if (status === "negative" && question.proposedFactors.length > 0 && entry.base === "symptom") entries.set(entry, "not_aggravating_factor", question.proposedFactors);
      // "It" with nothing said about it: no news about a symptom already on record.
      if (!answered && !target.named && !existing && context.knownPositive.has(key) && Object.keys(entry.attributes).length === 1) entries.remove(entry);
    }
  }
  const topicAnswer = topicStatus(firstSentence);
  if (!anyAnswered && (polarity || (topicAnswer && question.items.some((item) => item.topic))) && !(asked && asked !== "age" && question.isQuestion && attributeAnswered)) {
    const status = polarity ? statusFromAnswer(polarity, question.inverted) : topicAnswer!;
    if (question.isQuestion || polarity !== "yes") {
      for (let item of medicalItems) {
        // "No, just the salbutamol": the positive phrase is the answer; the open item is not denied.
        if (answeredSlots.has(item.slot) && status === "negative") continue;
        let itemStatus = status;
        // "How's your appetite?" — "Not great": the topic's state, not a yes/no.
        if (item.topic) itemStatus = topicStatus(firstSentence) ?? itemStatus;
        if (item.slot === "habit") itemStatus = habitStatus(text, itemStatus);
        if (item.value === "past experience" && polarity === undefined) continue;
        // "Does it hurt when you breathe in?" about a chest pain: the specific pain in focus.
        const focused = item.value === "pain" && !item.location ? painInFocus(lexicon, context) : undefined;
        if (focused) item = { ...item, value: focused.value };
        // "No, I've been previously healthy": the "no" answered the history question, not "healthy?".
        if (item.value === "general" && SAYS_HEALTHY.test(text)) itemStatus = "negative";
        const entry = entries.add(item.slot, itemStatus, item.value, true);
        if (!entry) continue;
        if (item.location) entries.set(entry, "location", item.location);
        if (item.where) entries.set(entry, "where", item.where);
        if (entry.base === "family_history") entries.set(entry, "relation", extractRelations(lexicon, analysed)[0]);
        if (entry.base === "symptom" && polarity === "yes") for (const [attribute, value] of Object.entries(question.proposed)) entries.set(entry, attribute, value);
        // "Any chest pain when you breathe in?" — "Yes": the named trigger aggravates (unless it was an either/or).
        if (entry.base === "symptom" && question.proposedFactors.length > 0 && (entry.status !== "positive" || !question.alternatives)) {
          entries.set(entry, entry.status === "positive" ? "aggravating_factor" : "not_aggravating_factor", question.proposedFactors);
        }
      }
    }
  }
  answerSickContact(entries, found, question, text);

  // A past-experience question answered with a condition ("I've had asthma all my life").
  if (question.items.some((item) => item.value === "past experience") && polarity === undefined && found.some(({ entry }) => entry.base === "medical_history" && entry.status === "positive")) {
    entries.add("medical_history", "positive", "past experience", true);
  }

  // 4-5. Volunteered attributes and slot-specific details.
  attachSymptomAttributes(lexicon, analysed, entries, found, attributeAnswered);
  attachMedicationAttributes(lexicon, analysed, entries, found, context);
  attachHabitAttributes(analysed, entries, found);
  attachExposureAttributes(analysed, entries, found, question);
  attachHistoryAttributes(lexicon, analysed, entries, found);
  attachSocial(lexicon, analysed, entries, question, polarity);

  // Symptoms reported before and only repeated now add nothing (the annotators skip them).
  for (const { entry } of found) {
    const value = entry.attributes.value as string;
    const repeated = entry.status === "positive" && context.knownPositive.has(conceptKey(entry.base, value)) && !askedValues.has(value) && !openSlots.has(entry.base);
    if (repeated && Object.keys(entry.attributes).length === 1) entries.remove(entry);
  }

  // Answers to "any questions for me?" are small talk unless they report a symptom.
  if (question.smallTalk && !found.some(({ entry }) => entry.base === "symptom" && entry.status === "positive")) {
    return [{ intent: resources.smallTalk.classify(analysed) }];
  }
  normaliseSites(lexicon, entries);
  const frames = entries.toFrames();
  if (frames.length > 0) return frames;
  return [{ intent: resources.smallTalk.classify(analysed) }];
}
