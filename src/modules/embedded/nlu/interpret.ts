import type { NluFrame } from "../../../cmas/schemas.ts";
import { clauseRange, sentenceOf, textOf, type AnalysedText } from "./analysed-text.ts";
import { extractFactors } from "./ana-factors.ts";
import { extractLocations } from "./body-locations.ts";
import { conceptMask, findMentions, type Mention } from "./concept-mentions.ts";
import { conceptKey, type DialogueContext } from "./dialogue-context.ts";
import { extractRelations } from "./family-relations.ts";
import { EntryCollector, type BaseSlot, type CollectedEntry } from "./frame-builder.ts";
import { extractHabitFrequency, extractHabitStarting, habitStatus } from "./habit-attributes.ts";
import type { Concept, Lexicon } from "./lexicon.ts";
import { extractImpact, purposePhrase } from "./medication-attributes.ts";
import { answerPolarity, mentionStatus, type AnswerPolarity, type Status } from "./negation.ts";
import type { AskedItem, QuestionAnalysis } from "./question-analysis.ts";
import { extractSeverity } from "./severity.ts";
import type { SmallTalkClassifier } from "./small-talk.ts";
import { extractAge, extractDestination, extractOccupation, extractResidence } from "./social-history.ts";
import { extractCharacteristics, extractColor, extractProgression, extractVolume } from "./symptom-descriptors.ts";
import { extractDuration, extractFrequency, extractOnset, extractOnsetAnswer, extractTimePhrase } from "./time-expressions.ts";

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

interface Found {
  readonly mention: Mention;
  readonly entry: CollectedEntry;
}

const SOCIAL = new Set(["residence", "occupation", "travel", "basic_information"]);
/** Attributes that describe a symptom: asked about "it", they refer to the symptom in focus. */
const SYMPTOM_ATTRIBUTES = new Set(["onset", "duration", "frequency", "severity", "progression", "characteristics", "ana_factors", "location", "color", "volume"]);
/** Body sites that restate a dermatological concept rather than locate it. */
const TAUTOLOGICAL_LOCATION: Readonly<Record<string, string>> = { "dermatologic problem": "skin", pruritus: "skin" };

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
const TOPIC_PROBLEM = /\b(?:low|less|lost|loss|poor|bad|worse|changes?|changed|problems?|trouble|difficulty|decreased|down|off|not as good)\b/;

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

/** Whether an item of the question is answered by an explicit phrase of the utterance. */
function answeredBy(item: AskedItem, entries: EntryCollector): boolean {
  if (item.value === undefined) return entries.find(item.slot as BaseSlot) !== undefined;
  return entries.all().some((entry) => entry.attributes.value === item.value && !entry.fromQuestion);
}

export function interpretTurn(resources: InterpretResources, analysed: AnalysedText, context: DialogueContext): NluFrame[] {
  const { lexicon } = resources;
  const { question } = context;
  const { tokens, clauses, text } = analysed;
  const entries = new EntryCollector();
  const polarity = answerPolarity(tokens);
  const firstSentence = analysed.sentences[0] ? textOf(analysed, analysed.sentences[0][0], analysed.sentences[0][1]) : text;

  // 1. Concept phrases of the utterance.
  const mentions = findMentions(lexicon, analysed, question.slots);
  const inConcept = conceptMask(tokens.length, mentions);
  const scope = { tokens, clauses, inConcept };
  const found: Found[] = [];
  const askedValues = new Set(question.items.map((item) => item.value));
  for (const mention of mentions) {
    const concept = chooseConcept(mention, question, lexicon);
    // ROS topic words ("my vision's fine") count only as answers to a question about that topic.
    if (concept.topic && !askedValues.has(concept.value)) continue;
    const [clauseStart, clauseEnd] = clauseRange(analysed, mention.start);
    const clauseText = textOf(analysed, clauseStart, clauseEnd);
    let status: Status | undefined = concept.topic
      ? (topicStatus(clauseText) ?? topicStatus(firstSentence) ?? (polarity ? statusFromAnswer(polarity, question.inverted) : undefined))
      : mentionStatus(scope, mention.start, mention.end);
    if (status === undefined) continue;
    let base: BaseSlot = concept.slot;
    // "Better when I go out for a smoke": a trigger, not a report of the habit.
    if ((base === "habit" || base === "exposure") && isFactorMention(lexicon, analysed, mention)) continue;
    // "I've never had this frequent of coughing before": a comparison, not a denial of a known symptom.
    if (status === "negative" && context.knownPositive.has(conceptKey(base, concept.value)) && /\b(?:before|like this|in the past|previously)\b/.test(clauseText)) continue;
    const [sentenceStart, sentenceEnd] = sentenceOf(analysed, mention.start);
    const relations = extractRelations(lexicon, analysed, sentenceStart, sentenceEnd);
    // "My son had the flu" answering "been around anyone sick?" describes the contact, not the family history.
    if (question.slots.has("exposure") && relations.length > 0 && (base === "medical_history" || base === "symptom")) continue;
    if ((base === "medical_history" || base === "symptom") && (question.slots.has("family_history") || relations.length > 0) && !/\bi(?:'ve| have| had| was)\b/.test(textOf(analysed, sentenceStart, mention.start))) {
      base = "family_history";
    }
    if (base === "habit") status = habitStatus(text, status);
    // An asked exposure answered "possibly … maybe one of them": uncertainty anywhere in the answer.
    if (base === "exposure" && status === "positive" && polarity === "unknown") status = "unknown";
    const entry = entries.add(base, status, concept.value);
    if (!entry) continue;
    if (concept.location) entries.set(entry, "location", concept.location);
    // "No swelling." to "any swelling in your ankles?": the site comes from the question.
    const askedItem = question.items.find((item) => item.value === concept.value && item.location);
    if (!concept.location && askedItem?.location) entries.set(entry, "location", askedItem.location);
    if (concept.location && lexicon.locatable.has(concept.value)) {
      // "leg swelling or arms": more sites joined to a located phrase.
      const more = extractLocations(lexicon, analysed, mention.end, Math.min(tokens.length, mention.end + 4));
      if (/^(?:or|and|,)/.test(textOf(analysed, mention.end, mention.end + 1))) entries.set(entry, "location", more);
    }
    found.push({ mention, entry });
  }

  // "What do you take that for?" / "Does it help?": about the medication named last.
  if ((question.attribute === "respone_to" || question.attribute === "impact") && question.isQuestion) {
    answerMedicationQuestion(entries, found, context, polarity, text);
  }

  // 2-3. Short answers and asked attributes.
  const medicalItems = question.items.filter((item) => !SOCIAL.has(item.slot));
  const realItems = medicalItems.filter((item) => item.value !== undefined && !["other", "all", "none"].includes(item.value));
  // Outside symptoms, any phrase of the asked slot answers it ("any recreational drugs?" — "weed, sometimes").
  // "Yes, both" / "all of the above" answers every item, whatever else it names.
  const answersAll = /\b(?:both|all of (?:them|those|these|the above)|all three|each of them)\b/.test(firstSentence);
  const anyAnswered =
    (!answersAll && realItems.some((item) => answeredBy(item, entries))) ||
    realItems.some((item) => item.slot !== "symptom" && found.some(({ entry }) => entry.base === item.slot && entry.status !== "negative"));
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
    if (targets.length > 0) return targets.map((item) => ({ base: item.slot as BaseSlot, value: item.value!, named: true, ...(item.location ? { location: item.location } : {}) }));
    if (!asked || !SYMPTOM_ATTRIBUTES.has(asked)) return [];
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
        context.knownNegative.has(key) && polarity !== "yes" ? "negative" : polarity === "no" && !found.length && !context.knownPositive.has(key) ? "negative" : "positive";
      const existing = entries.find(target.base, target.value);
      const entry = entries.add(target.base, status, target.value, true);
      if (!entry) continue;
      if (target.location) entries.set(entry, "location", target.location);
      const answered = setAskedAttribute(resources, analysed, entries, entry, question, polarity, found);
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
      for (const item of medicalItems) {
        // "No, just the salbutamol": the positive phrase is the answer; the open item is not denied.
        if (answeredSlots.has(item.slot as BaseSlot) && status === "negative") continue;
        let itemStatus = status;
        // "How's your appetite?" — "Not great": the topic's state, not a yes/no.
        if (item.topic) itemStatus = topicStatus(firstSentence) ?? itemStatus;
        if (item.slot === "habit") itemStatus = habitStatus(text, itemStatus);
        if (item.value === "past experience" && polarity === undefined) continue;
        const entry = entries.add(item.slot as BaseSlot, itemStatus, item.value, true);
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
  attachSymptomAttributes(resources, analysed, entries, found, attributeAnswered);
  attachMedicationAttributes(lexicon, analysed, entries, found, context);
  attachHabitAttributes(analysed, entries, found);
  attachExposureAttributes(analysed, entries, found, question);
  attachHistoryAttributes(lexicon, analysed, entries, found);
  attachSocial(resources, analysed, entries, question, polarity);

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
  for (const entry of [...entries.all()]) {
    const specific = lexicon.specificByLocation.get(entry.attributes.value as string);
    const sites = entry.attributes.location;
    const named = specific && Array.isArray(sites) ? sites.find((site) => specific[site]) : undefined;
    if (specific && named && Array.isArray(sites)) {
      // Pain in the chest is "chest pain": the specific concept, without the site.
      const rest = sites.filter((site) => site !== named);
      if (rest.length > 0) entry.attributes.location = rest;
      else delete entry.attributes.location;
      entries.rename(entry, specific[named]!);
    }
  }
  for (const entry of entries.all()) {
    const tautology = TAUTOLOGICAL_LOCATION[entry.attributes.value as string];
    const location = entry.attributes.location;
    if (tautology && Array.isArray(location)) {
      const kept = location.filter((site) => site !== tautology);
      if (kept.length > 0) entry.attributes.location = kept;
      else delete entry.attributes.location;
    }
  }
  const frames = entries.toFrames();
  if (frames.length > 0) return frames;
  return [{ intent: resources.smallTalk.classify(analysed) }];
}

/** Token spans where the utterance names `value` itself (a symptom is not its own trigger). */
function ownMentions(lexicon: Lexicon, analysed: AnalysedText, value: string): Mention[] {
  return findMentions(lexicon, analysed).filter((mention) => mention.concepts.some((concept) => concept.value === value));
}

/** Extracts the attribute the doctor asked for and sets it on `entry`; true when found. */
function setAskedAttribute(
  resources: InterpretResources,
  analysed: AnalysedText,
  entries: EntryCollector,
  entry: CollectedEntry,
  question: QuestionAnalysis,
  polarity: AnswerPolarity | undefined,
  found: readonly Found[],
): boolean {
  const { lexicon } = resources;
  const { text, tokens } = analysed;
  const all = tokens.length;
  const value = entry.attributes.value as string;
  const isHabit = entry.base === "habit";
  switch (question.attribute) {
    case "onset":
    case "starting": {
      if (isHabit || entry.base === "medical_history") {
        const starting = extractHabitStarting(text);
        entries.set(entry, "starting", starting);
        return starting !== undefined;
      }
      const onset = extractOnsetAnswer(text);
      entries.set(entry, "onset", onset);
      return onset !== undefined;
    }
    case "duration": {
      const duration = extractDuration(text, true) ?? (polarity === "yes" ? question.proposed.duration : undefined);
      entries.set(entry, "duration", duration);
      if (polarity === "yes" && question.proposed.onset) entries.set(entry, "onset", question.proposed.onset);
      return duration !== undefined;
    }
    case "frequency": {
      const frequency = isHabit ? extractHabitFrequency(text, true) : extractFrequency(text, true);
      entries.set(entry, "frequency", frequency);
      return frequency !== undefined;
    }
    case "severity": {
      const severity = extractSeverity(text, true);
      entries.set(entry, "severity", severity);
      return severity !== undefined;
    }
    case "progression": {
      const progression = extractProgression(lexicon, analysed, 0, all, true) ?? (polarity === "yes" ? question.proposed.progression : undefined);
      entries.set(entry, "progression", progression);
      return progression !== undefined;
    }
    case "characteristics": {
      let characteristics = extractCharacteristics(lexicon, value, analysed, 0, all);
      if (characteristics.length === 0) {
        // A one- or two-word answer is the characteristic itself ("Uh harsh.").
        const words = tokens.filter((token) => token.kind === "word" && !/^(?:it's|its|it|is|mostly|pretty|very|kind|of|a|the|yeah|yes|i'd|say|would|i|like)$/.test(token.text));
        if (words.length >= 1 && words.length <= 2 && tokens.filter((token) => token.kind === "word").length <= 4) characteristics = [words.map((token) => token.text).join(" ")];
      }
      entries.set(entry, "positive_characteristics", characteristics);
      return characteristics.length > 0;
    }
    case "ana_factors": {
      // Neither the symptom itself nor a medication ("Tylenol Cold") is a trigger.
      const own = [...ownMentions(lexicon, analysed, value), ...found.filter(({ entry: other }) => other.base === "medication").map(({ mention }) => mention)];
      const factors = extractFactors(lexicon, analysed, 0, all, own);
      let any = factors.aggravating.length + factors.alleviating.length > 0;
      entries.set(entry, "aggravating_factor", factors.aggravating);
      entries.set(entry, "alleviating_factor", factors.alleviating);
      if (!any && polarity === "yes") {
        // "Yeah, exertion. As well as the cough itself": the doctor's triggers and any named in the answer.
        const named = lexicon.factors.findAll(tokens).filter((match) => !own.some((span) => match.start < span.end && span.start < match.end)).flatMap((match) => match.payloads);
        entries.set(entry, "aggravating_factor", [...question.proposedFactors, ...named]);
        any = question.proposedFactors.length + named.length > 0;
      } else if (!any && polarity === "no" && question.proposedFactors.length > 0) {
        entries.set(entry, "not_aggravating_factor", question.proposedFactors);
        any = true;
      }
      return any;
    }
    case "location": {
      const locations = extractLocations(lexicon, analysed, 0, all);
      entries.set(entry, "location", locations);
      return locations.length > 0;
    }
    case "color": {
      const color = extractColor(lexicon, analysed, 0, all);
      entries.set(entry, "color", color);
      return color !== undefined;
    }
    case "volume": {
      const volume = extractVolume(text);
      entries.set(entry, "volume", volume);
      return volume !== undefined;
    }
    case "impact": {
      const impact = extractImpact(text);
      entries.set(entry, "impact", impact);
      return impact !== undefined;
    }
    case "relation": {
      const relations = extractRelations(lexicon, analysed);
      entries.set(entry, "relation", relations[0]);
      return relations.length > 0;
    }
    default:
      return false;
  }
}

/** Attributes the patient volunteers, attached to the symptom phrase they describe (or the focus). */
function attachSymptomAttributes(resources: InterpretResources, analysed: AnalysedText, entries: EntryCollector, found: readonly Found[], attributeAnswered: boolean): void {
  const { lexicon } = resources;
  const { tokens } = analysed;
  const symptoms = found.filter(({ entry }) => entry.base === "symptom" && entry.status !== "negative");
  // "Tylenol Cold" is a medication, not cold weather.
  const medicationSpans = found.filter(({ entry }) => entry.base === "medication").map(({ mention }) => mention);
  for (const [start, end] of analysed.sentences) {
    const inSentence = symptoms.filter(({ mention }) => mention.start >= start && mention.start < end);
    let targets = inSentence;
    if (targets.length === 0) {
      // No symptom named here: the attributes describe what the question is about.
      const focusEntries = entries.all().filter((entry) => entry.fromQuestion && entry.base === "symptom" && entry.status === "positive");
      if (focusEntries.length === 0 || symptoms.length > 0) continue;
      applySentenceAttributes(resources, analysed, entries, focusEntries, start, end, attributeAnswered);
      continue;
    }
    const sentenceText = textOf(analysed, start, end);
    // Onset at the end of a sentence scopes over every symptom before it.
    const onset = extractOnset(sentenceText);
    if (onset) {
      const onsetAt = tokens.findIndex((token, index) => index >= start && index < end && sentenceText.indexOf(token.text) >= 0 && onset.split(" ").includes(token.text));
      for (const { mention, entry } of targets) if (onsetAt < 0 || mention.start <= onsetAt) entries.set(entry, "onset", onset);
    }
    for (const { mention, entry } of targets) {
      const value = entry.attributes.value as string;
      const next = targets.find((other) => other.mention.start > mention.start);
      const [clauseStart, clauseEnd] = clauseRange(analysed, mention.start);
      const spanEnd = Math.max(clauseEnd, next ? Math.min(end, next.mention.start) : end);
      entries.set(entry, "progression", extractProgression(lexicon, analysed, mention.start, spanEnd));
      entries.set(entry, "positive_characteristics", extractCharacteristics(lexicon, value, analysed, clauseStart, spanEnd));
      if (value === "colored/excess sputum" || value === "hemoptysis") {
        entries.set(entry, "color", extractColor(lexicon, analysed, clauseStart, end));
        entries.set(entry, "volume", extractVolume(textOf(analysed, clauseStart, end)));
      }
      if (lexicon.locatable.has(value) && entry.attributes.location === undefined) {
        const after = extractLocations(lexicon, analysed, mention.end, Math.min(clauseEnd, mention.end + 6));
        entries.set(entry, "location", after.length > 0 ? after : extractLocations(lexicon, analysed, Math.max(clauseStart, mention.start - 3), mention.start));
      }
      const factors = extractFactors(lexicon, analysed, clauseStart, spanEnd, [mention, ...medicationSpans]);
      entries.set(entry, "aggravating_factor", factors.aggravating);
      entries.set(entry, "alleviating_factor", factors.alleviating);
      const spanText = textOf(analysed, mention.start, spanEnd);
      entries.set(entry, "severity", extractSeverity(spanText));
      entries.set(entry, "frequency", extractFrequency(spanText));
      entries.set(entry, "duration", extractDuration(spanText));
    }
  }
}

/** Volunteered attributes of a sentence with no symptom phrase, for the symptoms asked about. */
function applySentenceAttributes(resources: InterpretResources, analysed: AnalysedText, entries: EntryCollector, targets: readonly CollectedEntry[], start: number, end: number, attributeAnswered: boolean): void {
  const { lexicon } = resources;
  const sentenceText = textOf(analysed, start, end);
  const factors = extractFactors(lexicon, analysed, start, end);
  for (const entry of targets) {
    entries.set(entry, "aggravating_factor", factors.aggravating);
    entries.set(entry, "alleviating_factor", factors.alleviating);
    entries.set(entry, "duration", extractDuration(sentenceText));
    entries.set(entry, "progression", extractProgression(lexicon, analysed, start, end));
    if (!attributeAnswered) {
      entries.set(entry, "frequency", extractFrequency(sentenceText));
      entries.set(entry, "onset", extractOnset(sentenceText));
    }
  }
}

const OTHER_PERSON = /\b(?:co-?workers?|colleagues?|friends?|boss|clients?|customers?|classmates?|roommates?|someone|somebody|people|everyone|everybody|kids|children|family|husband|wife|partner|son|daughter|mom|mum|mother|dad|father|brother|sister|neighbou?rs?|patients?)\b/;

/**
 * "Any sick contacts?" — "My coworker had a cold last week": someone else's illness is the exposure
 * (where: at work/at home from who it was), not the patient's own symptom or history.
 */
function answerSickContact(entries: EntryCollector, found: readonly Found[], question: QuestionAnalysis, text: string): void {
  if (!question.items.some((item) => item.slot === "exposure" && item.value === "sick person") || !OTHER_PERSON.test(text)) return;
  const illnesses = found.filter(({ entry }) => (entry.base === "symptom" || entry.base === "medical_history" || entry.base === "family_history") && entry.status !== "negative");
  if (illnesses.length === 0 || entries.find("exposure", "sick person")) return;
  for (const { entry } of illnesses) entries.remove(entry);
  const contact = entries.add("exposure", "positive", "sick person", true);
  if (!contact) return;
  const where = /\b(?:co-?workers?|colleagues?|boss|clients?|customers?|at work)\b/.test(text) ? "at work" : /\b(?:family|husband|wife|partner|son|daughter|kids|children|mom|mum|mother|dad|father|brother|sister|at home|roommates?)\b/.test(text) ? "at home" : undefined;
  entries.set(contact, "where", where);
}

/** Sets purpose or impact on the medications a "what for?"/"does it help?" question is about. */
function answerMedicationQuestion(entries: EntryCollector, found: readonly Found[], context: DialogueContext, polarity: AnswerPolarity | undefined, text: string): void {
  const { question } = context;
  const named = question.items.filter((item) => item.slot === "medication" && item.value && item.value !== "other").map((item) => item.value!);
  const targets = named.length > 0 ? named : found.some(({ entry }) => entry.base === "medication") ? [] : context.medications.slice(0, 2).map((concept) => concept.value);
  for (const value of targets) {
    const entry = entries.add("medication", "positive", value, true);
    if (!entry) continue;
    if (question.attribute === "respone_to") {
      const condition = found.find(({ entry: other }) => other.base === "symptom" || other.base === "medical_history");
      entries.set(entry, "respone_to", condition?.entry.attributes.value as string | undefined);
    } else {
      entries.set(entry, "impact", extractImpact(text) ?? (polarity === "yes" ? "yes" : polarity === "no" ? "no" : undefined));
    }
  }
}

/** Impact, purpose and frequency of medications. */
function attachMedicationAttributes(lexicon: Lexicon, analysed: AnalysedText, entries: EntryCollector, found: readonly Found[], context: DialogueContext): void {
  const medications = found.filter(({ entry }) => entry.base === "medication" && entry.status !== "negative");
  const { question } = context;
  for (const { mention, entry } of medications) {
    const [start, end] = sentenceOf(analysed, mention.start);
    const nextSentence = analysed.sentences.find(([from]) => from >= end);
    const own = textOf(analysed, mention.start, end);
    const following = nextSentence ? textOf(analysed, nextSentence[0], nextSentence[1]) : "";
    const otherMedicationLater = medications.some((other) => other.mention.start > mention.start && other.mention.start < end);
    const nextHasMedication = nextSentence ? medications.some((other) => other.mention.start >= nextSentence[0] && other.mention.start < nextSentence[1]) : true;
    const span = otherMedicationLater ? textOf(analysed, mention.start, medications.find((other) => other.mention.start > mention.start)!.mention.start) : own;
    entries.set(entry, "impact", extractImpact(span) ?? (!nextHasMedication ? extractImpact(following) : undefined));
    entries.set(entry, "frequency", extractFrequency(span) ?? (!nextHasMedication ? extractFrequency(following) : undefined));
    entries.set(entry, "respone_to", medicationPurpose(lexicon, analysed, found, context, mention, entry.attributes.value as string, end));
  }
}

/**
 * What a medication is for: a condition named after "for" ("for my asthma"); else a condition it
 * typically treats that the patient has reported (this turn or before: inhalers → asthma); else the
 * symptom the doctor asked about ("have you tried anything for this cough?").
 */
function medicationPurpose(lexicon: Lexicon, analysed: AnalysedText, found: readonly Found[], context: DialogueContext, mention: Mention, value: string, sentenceEnd: number): string | undefined {
  if (purposePhrase(textOf(analysed, mention.start, sentenceEnd))) {
    const after = found.find(({ mention: other, entry }) => other.start >= mention.end && other.start < sentenceEnd && (entry.base === "symptom" || entry.base === "medical_history"));
    if (after) return after.entry.attributes.value as string;
  }
  const reported = (condition: string) =>
    context.knownPositive.has(conceptKey("medical_history", condition)) ||
    context.knownPositive.has(conceptKey("symptom", condition)) ||
    found.some(({ entry, mention: other }) => entry.attributes.value === condition && entry.status === "positive" && other.start < mention.start);
  const typical = lexicon.indications.get(value)?.find(reported);
  if (typical) return typical;
  const { question } = context;
  if (question.attribute === "respone_to" || question.items.some((item) => item.slot === "medication")) return question.symptoms[0]?.value;
  return undefined;
}

/** Frequency and start of habits. */
function attachHabitAttributes(analysed: AnalysedText, entries: EntryCollector, found: readonly Found[]): void {
  for (const { mention, entry } of found) {
    if (entry.base !== "habit" || entry.status === "negative") continue;
    const [start, end] = sentenceOf(analysed, mention.start);
    const sentenceText = textOf(analysed, start, end);
    entries.set(entry, "frequency", extractHabitFrequency(sentenceText) ?? extractHabitFrequency(analysed.text));
  }
  // Asked habits answered without naming them ("I'd say 30 a day").
  for (const entry of entries.all()) {
    if (entry.base !== "habit" || !entry.fromQuestion || entry.status === "negative") continue;
    entries.set(entry, "frequency", extractHabitFrequency(analysed.text));
  }
}

/** Who in the family has a condition, and since when the patient has had one. */
function attachHistoryAttributes(lexicon: Lexicon, analysed: AnalysedText, entries: EntryCollector, found: readonly Found[]): void {
  for (const { mention, entry } of found) {
    const [start, end] = sentenceOf(analysed, mention.start);
    if (entry.base === "family_history") {
      // "My mother had emphysema and my brother has asthma": the relation of the mention's own clause first.
      const [clauseStart, clauseEnd] = clauseRange(analysed, mention.start);
      entries.set(entry, "relation", extractRelations(lexicon, analysed, clauseStart, clauseEnd)[0] ?? extractRelations(lexicon, analysed, start, end)[0]);
    }
    if (entry.base === "medical_history" && entry.status === "positive") entries.set(entry, "starting", extractTimePhrase(textOf(analysed, start, end)));
  }
}

/** Where an exposure happened: "at work", "at home". */
function attachExposureAttributes(analysed: AnalysedText, entries: EntryCollector, found: readonly Found[], question: QuestionAnalysis): void {
  for (const { mention, entry } of found) {
    if (entry.base !== "exposure") continue;
    const [start, end] = sentenceOf(analysed, mention.start);
    const where = /\bat (?:work|home|school)\b/.exec(textOf(analysed, start, end))?.[0] ?? question.items.find((item) => item.value === entry.attributes.value)?.where;
    entries.set(entry, "where", where);
  }
}

/** Residence, occupation, travel and age, asked or volunteered. */
function attachSocial(resources: InterpretResources, analysed: AnalysedText, entries: EntryCollector, question: QuestionAnalysis, polarity: AnswerPolarity | undefined): void {
  const { lexicon } = resources;
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
    const negated = /\b(?:no|not|haven't|didn't|never|nowhere)\b[^.]*\b(?:travel|trips?|anywhere|been away|gone)\b|\bno travel\b/.test(analysed.text) || (asked("travel") && polarity === "no");
    const traveled = !negated && (asked("travel") ? polarity === "yes" || extractDestination(analysed.text) !== undefined : /\bi (?:travel(?:l?ed)?|went)\b/.test(analysed.text));
    if (negated || traveled) {
      const entry = entries.add("travel", "positive", undefined);
      if (entry) {
        entries.set(entry, "status", negated ? "not_traveled" : "traveled");
        if (traveled) entries.set(entry, "destination", extractDestination(analysed.text));
      }
    }
  }
  const age = extractAge(analysed.text, asked("basic_information"));
  if (age) {
    const entry = entries.add("basic_information", "positive", undefined);
    if (entry) entries.set(entry, "age", age);
  }
}
