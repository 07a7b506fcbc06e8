import { CHOICE_SLOTS, CHOOSES_ALL } from "../../../../language/choice-questions.ts";
import { conceptKey } from "../history-context-reader.ts";
import { extractLocations } from "../body-locations.ts";
import { extractRelations } from "../family-relations.ts";
import { gaveUpSmoking, habitStatus } from "../habit-attributes.ts";
import { isNegationWord, opensWithYesOrNo, type Status } from "../negation.ts";
import type { AskedItem } from "../question-types.ts";
import type { TurnRecord } from "../turn-record.ts";
import { statusFromAnswer, topicStatus } from "./certainty.ts";
import { medicalItems } from "./question-answers.ts";
import { painInFocus } from "./read-mentions.ts";

/**
 * Pass 7c, short answers: "No." to "any fevers or chills?" denies both; "Not great" to "how's your
 * appetite?" reports the topic's problem. Only when the utterance named no answer of its own and did
 * not answer the asked attribute.
 */

/** "I've been healthy", "I'm well": said of the patient's health in general. */
const SAYS_HEALTHY = /\b(?:been|am|i'm|was|be)\s+(?:\w+\s+)?(?:healthy|well)\b/;

/**
 * Whether the turn's no belongs to what the patient named rather than to the question: "don't smoke,
 * don't drink" or "I have no fever" to "any trouble swallowing?" denies the smoking, the drinking and
 * the fever, never the swallowing.
 */
function deniesSomethingElse(turn: TurnRecord): boolean {
  if (turn.polarity !== "no" || (opensWithYesOrNo(turn.analysed.tokens) && !quantifiesWhatFollows(turn))) return false;
  return turn.found.some(({ entry }) => entry.status === "negative");
}

/**
 * "I'm not eating much" to "any thoughts of harming yourself?": every negation of the turn lies inside
 * a finding it names, so its no is that finding's, not an answer to the question (which it leaves
 * unanswered: nothing is denied that the patient did not deny).
 */
function negatesOnlyItsOwnFinding(turn: TurnRecord): boolean {
  if (turn.polarity !== "no" || opensWithYesOrNo(turn.analysed.tokens)) return false;
  const named = turn.found.filter(({ entry }) => entry.status === "positive").map(({ mention }) => mention);
  const negations = turn.analysed.tokens.flatMap((token, index) => (isNegationWord(token.text) ? [index] : []));
  return negations.length > 0 && negations.every((at) => named.some(({ start, end }) => start <= at && at < end));
}

/** "A bit of backache" to "any fever?": the yes is the backache's, not the fever's. */
function affirmsSomethingElse(turn: TurnRecord): boolean {
  return turn.polarity === "yes" && quantifiesWhatFollows(turn);
}

/**
 * A yes said before what it names ("yes, a rash"): only then, with an article, is the yes the
 * finding's. The plain yes words only: `negation.ts`'s answer words also hold "sometimes", "right".
 */
const YES_WORDS: ReadonlySet<string> = new Set(["yes", "yeah", "yep", "yup", "yea"]);
const ARTICLE: ReadonlySet<string> = new Set(["a", "an", "some"]);

/** Words that open an answer as the amount of what it names next. Example: "no rash", "a bit of backache", "some phlegm". */
const QUANTIFIER_OPENING = /^(?:no|some|a|an|a bit of|bit of|a little|a lot of|lots of|a touch of)$/;

/**
 * Whether the answer opens with the amount of what it names next, not with an answer word: "no rash"
 * to "any headaches?" denies the rash and says nothing of the headaches; "a bit of backache" to "any
 * fever?" affirms the backache alone. "No, no rash" and "a bit, yes" still answer the question.
 */
function quantifiesWhatFollows(turn: TurnRecord): boolean {
  const { tokens } = turn.analysed;
  let at = tokens.findIndex((token) => token.kind !== "punct");
  // "Yes, a rash" to "any weight loss?": the yes names its own finding.
  if (turn.polarity === "yes" && YES_WORDS.has(tokens[at]?.text ?? "")) {
    at += tokens[at + 1]?.text === "," ? 2 : 1;
    if (!ARTICLE.has(tokens[at]?.text ?? "")) return false;
  }
  const status = turn.polarity === "no" ? "negative" : "positive";
  // "Yes a bit of a temperature": the finding's own phrase holds the amount.
  const opensFinding = turn.found.some(({ entry, mention }) => entry.status === status && mention.start === at);
  if (opensFinding && QUANTIFIER_OPENING.test(tokens[at]?.text ?? "")) return true;
  for (let length = 1; length <= 3; length += 1) {
    const words = tokens.slice(at, at + length);
    if (words.some((token) => token.kind === "punct") || !QUANTIFIER_OPENING.test(words.map((t) => t.text).join(" ")))
      continue;
    if (turn.found.some(({ entry, mention }) => entry.status === status && mention.start === at + length)) return true;
  }
  return false;
}

/**
 * Words that may follow an opening "no" in an answer to the question: particles, forms of address,
 * pronouns and the like ("no thanks", "no not really", "no I haven't", "no my legs are fine", "no
 * problems"). Any other word after it is what the "no" is said of ("no bleeding", "no spotting").
 */
const ANSWER_AFTER_NO: ReadonlySet<string> = new Set(
  `no not nope nah never none nothing nowhere thanks thank sorry sir madam maam ma'am doc doctor dear love mate
  i im i'm ive i've id i'd ill i'll it its it's he hes he's she shes she's they they're theyre we we're you that
  thats that's this there theres there's just only but really definitely absolutely certainly thankfully luckily
  fortunately honestly actually still way problem problems issue issues trouble troubles worries change changes
  more longer at all idea clue and or so well to as in of for with from recently lately before since ever again
  yet symptoms other others else such like the a an my her his their our your one two nobody noone one's`.split(/\s+/),
);

/**
 * "No bleeding" to "any nausea?": the "no" is said of a word the engine does not know as a finding,
 * and the question is left unanswered rather than denied. "No, …" with a comma, and "no" followed by
 * an answer's own words ({@link ANSWER_AFTER_NO}), still answer it.
 */
function deniesSomethingUnread(turn: TurnRecord): boolean {
  const { tokens } = turn.analysed;
  const at = tokens.findIndex((token) => token.kind !== "punct");
  if (turn.polarity !== "no" || tokens[at]?.text !== "no") return false;
  const next = tokens[at + 1];
  if (next === undefined || next.kind !== "word" || ANSWER_AFTER_NO.has(next.text)) return false;
  return !turn.found.some(({ mention }) => mention.start <= at + 1 && at + 1 < mention.end);
}

/**
 * An answer that gives the usual amount or state. Example: "plenty of wet nappies", "yeah loads", "as
 * normal", "she's eating fine", "same as always", "no different".
 */
const STATES_THE_USUAL =
  /\b(?:plenty|loads|lots|as (?:normal|usual|always)|like (?:normal|usual|always)|same as (?:always|usual|normal|ever)|normal(?:ly)?|usual|fine|ok|okay|alright|no different|no change)\b/;
/** Words that make the usual less than usual. Example: "hardly any", "only one", "not as normal", "less than usual", "a few less". */
const LESS_THAN_USUAL =
  /\b(?:less|fewer|hardly|barely|only|not|never|little|few|one|two|dry|than|off|worse|down|except|but)\b|n't\b/;

/**
 * "Yes, plenty of wet nappies" to "has she had fewer wet nappies than usual?", "yeah, as normal" to
 * "is she feeding less?": asked about a change from the usual, the answer says things are as usual —
 * whatever yes it opens with (the yes agrees that all is well) — so the change asked about is absent.
 * Only when the answer names no finding of its own, and nothing in it is less than usual ("yes, hardly
 * any wet nappies" stays a yes).
 */
export function statesTheUsual(turn: TurnRecord): boolean {
  const { analysed, context, found, polarity } = turn;
  if (polarity === "no" || polarity === "unknown" || turn.itemsAnswered || !context.question.isQuestion) return false;
  if (found.some(({ entry }) => entry.status === "positive")) return false;
  return (
    context.question.changeFromUsual && STATES_THE_USUAL.test(analysed.text) && !LESS_THAN_USUAL.test(analysed.text)
  );
}

/** Whether the turn is a short answer to the items (a yes/no, or a topic's state to a topic question). */
function isShortAnswer(turn: TurnRecord): boolean {
  const { context, polarity, firstSentence } = turn;
  const { question } = context;
  if (
    turn.itemsAnswered ||
    deniesSomethingElse(turn) ||
    deniesSomethingUnread(turn) ||
    affirmsSomethingElse(turn) ||
    negatesOnlyItsOwnFinding(turn)
  )
    return false;
  if (!polarity && !(topicStatus(firstSentence) && question.items.some((item) => item.topic))) return false;
  const asked = question.attribute;
  return !(asked && asked !== "age" && question.isQuestion && turn.attributeAnswered);
}

/** The status a short answer gives one item, or undefined when it says nothing of it. */
function itemStatus(turn: TurnRecord, item: AskedItem, status: Status): Status | undefined {
  const { analysed, polarity, firstSentence } = turn;
  let result = status;
  // "How's your appetite?" — "Not great": the topic's state, not a yes/no.
  if (item.topic) result = topicStatus(firstSentence) ?? result;
  if (item.slot === "habit") result = habitStatus(analysed.text, result);
  if (item.value === "past experience" && polarity === undefined) return undefined;
  // "No, I've been previously healthy": the "no" answered the history question, not "healthy?".
  if (item.value === "general" && SAYS_HEALTHY.test(analysed.text)) result = "negative";
  return result;
}

/**
 * The sites a yes names, which say where of the sites asked: "a little in my left arm" to "any weakness
 * in your arms or legs?" is the left arm, not the arms and the legs. Undefined when it names none.
 */
function sitesSaid(turn: TurnRecord, status: Status): string[] | undefined {
  if (status !== "positive") return undefined;
  const sites = extractLocations(turn.lexicon, turn.analysed, 0, turn.analysed.tokens.length);
  return sites.length > 0 ? sites : undefined;
}

/** Adds the entry of one answered item, with what the question said about it. */
function addAnsweredItem(turn: TurnRecord, asked: AskedItem, status: Status): void {
  const { lexicon, analysed, context, entries, polarity } = turn;
  const { question } = context;
  // "Does it hurt when you breathe in?" about a chest pain: the specific pain in focus ("any other pain?" is not it).
  const otherPain = question.otherPain && asked.value === "pain";
  const focused = asked.value === "pain" && !asked.location && !otherPain ? painInFocus(lexicon, context) : undefined;
  const item = focused ? { ...asked, value: focused.value } : asked;
  const entry = entries.add(item.slot, status, item.value, true);
  if (!entry) return;
  if (item.location) entries.set(entry, "location", sitesSaid(turn, status) ?? item.location);
  // "Yes, in my back" to "any other pain?": where the other pain is.
  if (otherPain && status === "positive")
    entries.set(entry, "location", extractLocations(lexicon, analysed, 0, analysed.tokens.length));
  if (item.where) entries.set(entry, "where", item.where);
  if (entry.base === "family_history") entries.set(entry, "relation", extractRelations(lexicon, analysed)[0]);
  if (entry.base === "symptom" && polarity === "yes")
    for (const [attribute, value] of Object.entries(question.proposed)) entries.set(entry, attribute, value);
  // "Any chest pain when you breathe in?" — "Yes": the named trigger aggravates (unless it was an either/or).
  if (
    entry.base === "symptom" &&
    question.proposedFactors.length > 0 &&
    (entry.status !== "positive" || !question.alternatives)
  ) {
    entries.set(
      entry,
      entry.status === "positive" ? "aggravating_factor" : "not_aggravating_factor",
      question.proposedFactors,
    );
  }
}

/**
 * "How much blood are you coughing up?" — "Not sure": the patient is unsure of the attribute asked,
 * not of the symptom they already affirmed, which keeps its presence (CMAS cannot say "volume
 * unknown"). Only a question about presence makes "not sure" an unknown presence.
 */
function isUnsureOfAttribute(
  turn: TurnRecord,
  item: { readonly slot: string; readonly value?: string | undefined },
): boolean {
  const { context, polarity } = turn;
  return (
    polarity === "unknown" &&
    context.question.attribute !== undefined &&
    item.value !== undefined &&
    context.knownPositive.has(conceptKey(item.slot, item.value))
  );
}

/** The symptom an asked item stands for: a bare "pain" is the specific pain in focus, if any. */
function askedSymptom(turn: TurnRecord, item: AskedItem): string {
  const focused = item.value === "pain" && !item.location ? painInFocus(turn.lexicon, turn.context) : undefined;
  return focused?.value ?? item.value!;
}

/**
 * "Is there anything that makes the shortness of breath better or worse?": what changes a symptom,
 * naming no trigger. Such a question takes the symptom as given, as "the pain" does; one that names a
 * trigger ("pain in your calves after walking?") still asks whether the symptom comes with it.
 */
function asksOpenFactors(question: TurnRecord["context"]["question"]): boolean {
  return question.attribute === "ana_factors" && question.proposedFactors.length === 0;
}

/**
 * "Is the pain sharp?" — "No." A question that takes the symptom as given ("the pain", "your
 * cough", "it") about one the patient has affirmed: the "no" answers what was asked of it, never
 * whether it is there (unless the question asked whether it still is).
 */
function keepsAffirmedSymptom(turn: TurnRecord, item: AskedItem): boolean {
  const { context, polarity, analysed } = turn;
  const { question } = context;
  if (polarity !== "no" || item.slot !== "symptom" || item.value === undefined) return false;
  if (!question.anaphoric && !asksOpenFactors(question)) return false;
  // Several items asked at once ("light or loud sounds with that headache?"): a "no" denies them all.
  if (question.items.length > 1 || question.inverted || question.persistence || analysed.tokens.length > 6)
    return false;
  return context.knownPositive.has(conceptKey("symptom", askedSymptom(turn, item)));
}

/** The affirmed symptom stays; a trigger the doctor proposed is denied ("does it hurt when you breathe in?" — "no"). */
function keepAffirmedSymptom(turn: TurnRecord, asked: AskedItem): void {
  const { context, entries } = turn;
  const entry = entries.add("symptom", "positive", askedSymptom(turn, asked), true);
  if (entry && context.question.proposedFactors.length > 0)
    entries.set(entry, "not_aggravating_factor", context.question.proposedFactors);
}

/** Whether a no answers "any other pain?" about a patient with a pain in focus: it denies no pain they have. */
function otherPainDenied(turn: TurnRecord, item: AskedItem, status: Status): boolean {
  return (
    status === "negative" &&
    turn.context.question.otherPain &&
    item.value === "pain" &&
    !item.location &&
    painInFocus(turn.lexicon, turn.context) !== undefined
  );
}

/**
 * "Yes" to "any fevers or weight loss?" says at least one, not which (`language/choice-questions.ts`):
 * the findings of such a choice not already on record as present, which the yes leaves unknown until
 * the doctor asks which. Empty when the answer picks them all ("yes, both"), when the question offers
 * alternatives of an attribute ("at rest or when you exert yourself?") or asks an attribute, and when
 * fewer than two findings are open. (An answer that names one, "yes, she's very sleepy", is no short
 * answer: `isShortAnswer`.)
 */
function leftOpenByYes(turn: TurnRecord, items: readonly AskedItem[], status: Status): ReadonlySet<string> {
  const { question, knownPositive } = turn.context;
  const offers = question.disjunctive && !question.alternatives && question.attribute === undefined;
  if (status !== "positive" || turn.polarity !== "yes" || !offers) return new Set();
  if (CHOOSES_ALL.test(turn.analysed.text)) return new Set();
  const open = items.filter(
    (item) =>
      (CHOICE_SLOTS as readonly string[]).includes(item.slot) &&
      item.value !== undefined &&
      !knownPositive.has(conceptKey(item.slot, item.value)),
  );
  const values = new Set(open.map((item) => item.value!));
  return values.size >= 2 ? values : new Set();
}

/**
 * "I quit last year", "no, I stopped when my son was born", "gave up in 2015" to "do you smoke?": a stop
 * that names no habit is the asked smoking's, and the patient is a former smoker, not a non-smoker.
 * Only when the turn names no habit of its own ("I quit drinking" is the drinking's) and the stop is not
 * an attempt or undone ({@link gaveUpSmoking}).
 */
function answersAsFormerSmoker(turn: TurnRecord): boolean {
  const asksSmoking = medicalItems(turn).real.some((item) => item.slot === "habit" && item.value === "smoking");
  if (!asksSmoking || turn.found.some(({ entry }) => entry.base === "habit")) return false;
  if (!gaveUpSmoking(turn.analysed.text)) return false;
  turn.entries.add("habit", "positive", "former smoker", true);
  return true;
}

/** Reads a short answer against every medical item asked. */
export function answerYesNo(turn: TurnRecord): void {
  const { context, polarity, firstSentence, found } = turn;
  const { question } = context;
  if (answersAsFormerSmoker(turn)) return;
  const usual = statesTheUsual(turn);
  if (!usual && !isShortAnswer(turn)) return;
  const status = usual
    ? "negative"
    : polarity
      ? statusFromAnswer(polarity, question.inverted)
      : topicStatus(firstSentence)!;
  if (!usual && !question.isQuestion && polarity === "yes") return;
  const { medical, real } = medicalItems(turn);
  // "No, just the salbutamol" to "any other medications?": the new positive phrase is the answer.
  const openSlots = new Set(medical.filter((item) => item.value === "other").map((item) => item.slot));
  const answeredSlots = new Set(
    found
      .filter(({ entry }) => entry.status === "positive" && openSlots.has(entry.base))
      .map(({ entry }) => entry.base),
  );
  const leftOpen = leftOpenByYes(turn, real, status);
  for (const item of medical) {
    if (answeredSlots.has(item.slot) && status === "negative") continue;
    // "No" to "any other pain?" says nothing of the pain already told.
    if (otherPainDenied(turn, item, status)) continue;
    if (isUnsureOfAttribute(turn, item)) continue;
    if (keepsAffirmedSymptom(turn, item)) {
      keepAffirmedSymptom(turn, item);
      continue;
    }
    const resolved = leftOpen.has(item.value ?? "") ? "unknown" : itemStatus(turn, item, status);
    if (resolved !== undefined) addAnsweredItem(turn, item, resolved);
  }
}
