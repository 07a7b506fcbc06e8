import { conceptKey } from "../history-context-reader.ts";
import type { BaseSlot, CollectedEntry } from "../frame-builder.ts";
import { readAskedAttribute } from "../asked-attributes.ts";
import type { Status } from "../negation.ts";
import { extractCharacteristics } from "../symptom-descriptors.ts";
import { SYMPTOM_ATTRIBUTES } from "../attributes/registry.ts";
import type { TurnRecord } from "../turn-record.ts";
import { painInFocus } from "./read-mentions.ts";
import { medicalItems } from "./question-answers.ts";
import { statesTheUsual } from "./yes-no-answers.ts";

/**
 * Pass 7b, the asked attribute: "About a week." to "when did the cough start?" sets the onset of the
 * cough. The targets are the items the question names, else (for "it"/"that") the symptom in focus;
 * each target's attribute is read by its extractor (`attributes/`).
 */

interface AttributeTarget {
  readonly base: BaseSlot;
  readonly value: string;
  readonly location?: readonly string[];
  /** Named by the question (not just referred to by "it"). */
  readonly named: boolean;
}

/** The items a question names, as targets ("How bad is that pain?": the specific pain in focus). */
function namedTargets(turn: TurnRecord): AttributeTarget[] {
  const { lexicon, analysed, context } = turn;
  let targets = medicalItems(turn).real.filter(
    (item) => item.slot !== "medical_history" || item.value !== "past experience",
  );
  if (context.question.attribute === "characteristics") {
    // "Is it a dry cough or are you producing sputum?" — "mostly dry" describes the cough only.
    const described = targets.filter(
      (item) =>
        item.value && extractCharacteristics(lexicon, item.value, analysed, 0, analysed.tokens.length).length > 0,
    );
    targets = described.length > 0 ? described : targets.slice(0, 1);
  }
  return targets.map((item) => {
    const refined = (item.value === "pain" && !item.location ? painInFocus(lexicon, context) : undefined) ?? item;
    return {
      base: item.slot,
      value: refined.value!,
      named: true,
      ...(refined.location ? { location: refined.location } : {}),
    };
  });
}

/** What an attribute question is about: the items it names, else what "it" refers to. */
function attributeTargets(turn: TurnRecord): AttributeTarget[] {
  const named = namedTargets(turn);
  if (named.length > 0) return named;
  const { context, found } = turn;
  const { question } = context;
  const asked = question.attribute;
  if (!asked || !SYMPTOM_ATTRIBUTES.has(asked)) return [];
  // "How often have you been using it?": the medication named last.
  if (asked === "frequency" && question.slots.has("medication") && context.medications.length > 0)
    return [{ base: "medication", value: context.medications[0]!.value, named: false }];
  // Without "it"/"that"/"your symptoms", an attribute question is not about the symptom in focus.
  if (!question.anaphoric) return [];
  // "How often are you using both of those?" is about the medications named in the answer.
  if (question.slots.has("medication") && found.some(({ entry }) => entry.base === "medication")) return [];
  // "How much are you bringing up?" about a cough: amount and colour belong to the sputum.
  if ((asked === "volume" || asked === "color") && context.focus[0]?.value === "coughing")
    return [{ base: "symptom", value: "colored/excess sputum", named: false }];
  return context.focus.slice(0, 1).map((concept) => ({
    base: concept.slot,
    value: concept.value,
    named: false,
    ...(concept.location ? { location: concept.location } : {}),
  }));
}

/**
 * The status of an asked target: "No" to "pain in your calves after walking?" denies the pain; to "is
 * the cough worse at any particular time?" it only denies the trigger of a cough already reported.
 */
function targetStatus(turn: TurnRecord, target: AttributeTarget): Status {
  // "Yes, plenty" to "fewer wet nappies than usual in the last day?": the change asked about is absent.
  if (statesTheUsual(turn)) return "negative";
  const key = conceptKey(target.base, target.value);
  if (turn.context.knownNegative.has(key) && turn.polarity !== "yes") return "negative";
  const unnamed = !turn.found.some(({ entry }) => entry.attributes.value === target.value);
  return turn.polarity === "no" && unnamed && !turn.context.knownPositive.has(key) ? "negative" : "positive";
}

/**
 * "Can you describe the pain?" — "My period is about 2 weeks late": the answer reports another symptom
 * or condition and says nothing of the item asked, neither yes nor no, so the item asked is no
 * finding of it. (A medicine named, "just the paracetamol", keeps the item: what it is taken for.)
 */
function answersSomethingElse(turn: TurnRecord, entry: CollectedEntry): boolean {
  return (
    entry.status === "positive" &&
    turn.polarity === undefined &&
    Object.keys(entry.attributes).length === 1 &&
    turn.entries
      .all()
      .some(
        (other) =>
          other !== entry && !other.fromQuestion && (other.base === "symptom" || other.base === "medical_history"),
      )
  );
}

/** Reads the asked attribute for each target. */
export function answerAskedAttribute(turn: TurnRecord): void {
  const { context, entries } = turn;
  const { question } = context;
  const asked = question.attribute;
  // What a medication was for, and whether it helped, are read from the medication phrases.
  if (!asked || asked === "age" || asked === "respone_to" || asked === "impact" || !question.isQuestion) return;
  for (const target of attributeTargets(turn)) {
    const status = targetStatus(turn, target);
    const existing = entries.find(target.base, target.value);
    const entry = entries.add(target.base, status, target.value, true);
    if (!entry) continue;
    const onRecord = context.knownPositive.has(conceptKey(target.base, target.value));
    // "I'm not sure how much blood": unsure of the attribute asked, not of the symptom already affirmed.
    if (entry.status === "unknown" && onRecord) entry.status = "positive";
    if (target.location) entries.set(entry, "location", target.location);
    const answered = readAskedAttribute(turn, entry);
    turn.attributeAnswered = answered || turn.attributeAnswered;
    if (status === "negative" && question.proposedFactors.length > 0 && entry.base === "symptom")
      entries.set(entry, "not_aggravating_factor", question.proposedFactors);
    // "It" with nothing said about it: no news about a symptom already on record.
    if (!answered && !target.named && !existing && onRecord && Object.keys(entry.attributes).length === 1)
      entries.remove(entry);
    else if (!answered && !existing && answersSomethingElse(turn, entry)) entries.remove(entry);
  }
}
