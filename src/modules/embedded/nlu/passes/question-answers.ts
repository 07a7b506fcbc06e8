import { conceptKey } from "../history-context-reader.ts";
import type { BaseSlot } from "../frame-builder.ts";
import { ASKS_TO_REPEAT_OR_EXPLAIN } from "../../../../language/repeat-request-pattern.ts";
import { OPEN_VALUES } from "../lexicon.ts";
import { mentionStatus } from "../negation.ts";
import { isSocialSlot, type AskedItem } from "../question-types.ts";
import { answerAllergyQuestion, answerMedicationQuestion, answerSickContact } from "../slot-details.ts";
import type { TurnRecord } from "../turn-record.ts";

/**
 * Pass 7, answers read against the doctor's question: what a medication is for, a question asked
 * back, named answers to the items asked ("No fainting spells" to "dizziness or fainting spells?"),
 * sick contacts and past episodes. The asked attribute and yes/no answers have their own modules
 * (`asked-attribute-answers.ts`, `yes-no-answers.ts`).
 */

/** "Never heard of it", "what's that?": the patient asks what was meant (requests to repeat or explain: `clarification-requests.ts`). */
const CLARIFYING =
  /\b(?:(?:haven't|have not|never|not) (?:\w+ )?heard (?:of|about)|what(?:'s| is| are) (?:that|those|it)\b)/;
/** "Yes, both", "all of the above": the answer covers every item asked. */
const ANSWERS_ALL = /\b(?:both|all of (?:them|those|these|the above)|all three|each of them)\b/;

/**
 * The medical items of the question, and those that name a real value (not "other"); an item a pass
 * has settled by a reading of its own (`TurnRecord.settled`) is left out.
 */
export function medicalItems(turn: TurnRecord): {
  readonly medical: readonly AskedItem[];
  readonly real: readonly AskedItem[];
} {
  const medical = turn.context.question.items.filter(
    (item) => !isSocialSlot(item.slot) && !(item.value !== undefined && turn.settled.has(item.value)),
  );
  return { medical, real: medical.filter((item) => item.value !== undefined && !OPEN_VALUES.has(item.value)) };
}

/** Whether an item of the question is answered by an explicit phrase of the utterance. */
function answeredBy(turn: TurnRecord, item: AskedItem): boolean {
  if (item.value === undefined) return turn.entries.find(item.slot) !== undefined;
  return turn.entries.all().some((entry) => entry.attributes.value === item.value && !entry.fromQuestion);
}

/** "What do you take that for?" / "Does it help?": about the medication named last. */
export function answerMedicationPurpose(turn: TurnRecord): void {
  const { question } = turn.context;
  if ((question.attribute === "respone_to" || question.attribute === "impact") && question.isQuestion) {
    answerMedicationQuestion(turn.entries, turn.found, turn.context, turn.polarity, turn.analysed.text);
  }
}

/**
 * "I haven't heard of pulmonary embolism", "Sorry, I didn't catch that": the patient asks what was
 * meant, or to hear it again, and answers nothing yet.
 */
export function answerClarifying(turn: TurnRecord): void {
  const asks = CLARIFYING.test(turn.firstSentence) || ASKS_TO_REPEAT_OR_EXPLAIN.test(turn.firstSentence);
  if (asks && (turn.found.length === 0 || onlyNamedInRequest(turn))) turn.frames = [{ intent: "chit-chat" }];
}

/** "What do you mean by cough?" (and nothing more): what the patient names inside a request to explain it is no report of it. */
function onlyNamedInRequest(turn: TurnRecord): boolean {
  const request = ASKS_TO_REPEAT_OR_EXPLAIN.exec(turn.firstSentence);
  return (
    request !== null &&
    turn.analysed.sentences.length === 1 &&
    /^\s*by\b/.test(turn.firstSentence.slice(request.index + request[0].length))
  );
}

/**
 * Whether the utterance names its answer (an allergen, an asked value, a phrase of an asked slot),
 * so that a bare yes or no does not decide the items; a named denial of one listed symptom denies
 * the list.
 */
export function answerNamedItems(turn: TurnRecord): void {
  const { context, polarity, entries, found } = turn;
  const { question } = context;
  const { real } = medicalItems(turn);
  const allergyAnswered = answerAllergyQuestion(entries, found, question, polarity, turn.analysed.text);
  turn.itemsAnswered =
    allergyAnswered ||
    (!ANSWERS_ALL.test(turn.firstSentence) && real.some((item) => answeredBy(turn, item))) ||
    // Outside symptoms, any phrase of the asked slot answers it ("any recreational drugs?" — "weed, sometimes").
    (polarity !== "no" &&
      real.some(
        (item) =>
          item.slot !== "symptom" && found.some(({ entry }) => entry.base === item.slot && entry.status !== "negative"),
      ));
  // "No fainting spells." to "any dizziness or fainting spells?": a denial of one asked symptom, with
  // nothing confirmed, denies the list.
  if (
    !turn.itemsAnswered ||
    !question.disjunctive ||
    polarity !== "no" ||
    !found.every(({ entry }) => entry.status === "negative")
  )
    return;
  for (const item of real) {
    if (item.slot !== "symptom" || answeredBy(turn, item)) continue;
    const entry = entries.add("symptom", "negative", item.value, true);
    if (entry && item.location) entries.set(entry, "location", item.location);
  }
}

/**
 * Whether an illness set aside as someone else's, by the mention filters (a relative's: "My son had
 * the flu last week") or by the entries (a friend's: "my friend had a sore throat"), is said as
 * present: it names the contact to "been around anyone sick?".
 */
function setAsideIllness(turn: TurnRecord): boolean {
  const { analysed, mentions, found } = turn;
  const kept = new Set(found.map(({ mention }) => mention));
  const inConcept = analysed.tokens.map((_, index) =>
    mentions.some((mention) => mention.start <= index && index < mention.end),
  );
  const scope = { tokens: analysed.tokens, clauses: analysed.clauses, inConcept };
  return mentions.some(
    (mention) =>
      !kept.has(mention) &&
      mention.concepts.some((concept) => concept.slot === "symptom" || concept.slot === "medical_history") &&
      mentionStatus(scope, mention.start, mention.end) === "positive",
  );
}

/** "Any sick contacts?" — "My coworker had a cold", "My son had the flu": the exposure, not the patient's illness. */
export function answerContact(turn: TurnRecord): void {
  answerSickContact(
    turn.entries,
    turn.found,
    turn.context.question,
    turn.analysed.text,
    turn.polarity !== "no" && setAsideIllness(turn),
  );
}

/** A past-experience question answered with a condition ("I've had asthma all my life"). */
export function answerPastExperience(turn: TurnRecord): void {
  const { question } = turn.context;
  if (!question.items.some((item) => item.value === "past experience") || turn.polarity !== undefined) return;
  if (turn.found.some(({ entry }) => entry.base === "medical_history" && entry.status === "positive"))
    turn.entries.add("medical_history", "positive", "past experience", true);
}

/** Whether a known value is on record as present. */
export const knownPositive = (turn: TurnRecord, base: BaseSlot, value: string): boolean =>
  turn.context.knownPositive.has(conceptKey(base, value));
