import { clauseRange, textOf } from "../analysed-text.ts";
import { conceptMask } from "../concept-mentions.ts";
import { mentionStatus, type AnswerPolarity, type Status } from "../negation.ts";
import { TOPIC_NOT_NORMAL } from "../rules/mention-filters.ts";
import type { MentionReading, TurnRecord } from "../turn-record.ts";

/**
 * Pass 4, negation and certainty: the status of each mention from its own cues (negation and
 * uncertainty with clause scope, `negation.ts`), or for ROS topic words from what their clause says
 * of the topic ("my vision's fine" → absent); a list shares the status of its first item.
 */

/** "Fine", "the same", "no problems": the topic is as it should be. */
const TOPIC_NORMAL =
  /\b(?:fine|good|normal|ok|okay|well|great|alright|still there|the same|unchanged|no (?:problems?|issues?|changes?))\b/;
/** "Less", "lost", "trouble", "not as good": a problem with the topic. */
export const TOPIC_PROBLEM =
  /\b(?:low|less|lost|loss|poor|bad|worse|changes?|changed|problems?|trouble|difficulty|decreased|reduced|down|off|not as good)\b/;

/**
 * A denial right before an ROS topic word, which denies the topic itself. Example: "she's not
 * eating", "I have no appetite", "he hasn't really been sleeping", "barely eating" — not "no problems
 * with eating" (the problem is denied: a word stands between).
 */
const NOT_DOING_TOPIC =
  /(?:\b(?:not|never|no|no longer|barely|hardly)|n't)\s+(?:(?:really|been|properly|even|at all|very|any|much of an?)\s+){0,2}$/;

/** A denial a few words before a topic word, and an amount after it. Example: "she hasn't been eating much". */
const DENIED_BEFORE = /(?:\b(?:not|never)|n't)\b(?:\s+\w+){0,2}\s*$/;
const LITTLE_AFTER = /^\s*(?:much|properly|enough|a lot|anything|at all)\b/;

/** The status an ROS topic word gets from its clause alone ("my energy's still there" → absent). */
export function topicStatus(clause: string): Status | undefined {
  if (TOPIC_NOT_NORMAL.test(clause)) return "positive";
  if (TOPIC_NORMAL.test(clause)) return "negative";
  if (TOPIC_PROBLEM.test(clause)) return "positive";
  return undefined;
}

/** The status a yes/no answer gives an asked item; `inverted` when "yes" means absent ("otherwise healthy?"). */
export function statusFromAnswer(polarity: AnswerPolarity, inverted: boolean): Status {
  if (polarity === "unknown") return "unknown";
  if (polarity === "normal") return "negative";
  const yes = polarity === "yes";
  return yes !== inverted ? "positive" : "negative";
}

/** Only list glue ("or", "and", ",", "any", "nor") between two mentions. */
function isListContinuation(turn: TurnRecord, from: number, to: number): boolean {
  const between = turn.analysed.tokens.slice(from, to).map((token) => token.text);
  return (
    between.length > 0 &&
    between.length <= 3 &&
    between.some((word) => word === "or" || word === "and" || word === "nor" || word === ",") &&
    between.every((word) => /^(?:or|and|nor|,|any|no)$/.test(word))
  );
}

/** How many words a list item may repeat before it ("changes in my hearing or changes in my vision"). */
const REPEATED_LEAD_IN = 4;

/**
 * List glue followed by the words that also led into the previous item: "changes in my hearing or
 * changes in my vision" is one list, whose second item shares the first one's status.
 */
function isRepeatedLeadIn(
  turn: TurnRecord,
  previous: { readonly start: number; readonly end: number },
  to: number,
): boolean {
  const words = turn.analysed.tokens.map((token) => token.text);
  const glue = words[previous.end];
  const repeated = words.slice(previous.end + 1, to);
  if (!glue || !/^(?:or|and|nor)$/.test(glue) || repeated.length === 0 || repeated.length > REPEATED_LEAD_IN)
    return false;
  return repeated.join(" ") === words.slice(previous.start - repeated.length, previous.start).join(" ");
}

/** The status of one mention from its own cues, or undefined when it reports nothing. */
function ownStatus(turn: TurnRecord, reading: MentionReading, inConcept: readonly boolean[]): Status | undefined {
  const { analysed, context, askedValues, polarity, firstSentence } = turn;
  const { mention, concept } = reading;
  const [clauseStart, clauseEnd] = clauseRange(analysed, mention.start);
  const clauseText = textOf(analysed, clauseStart, clauseEnd);
  const scope = { tokens: analysed.tokens, clauses: analysed.clauses, inConcept };
  if (!concept.topic) return mentionStatus(scope, mention.start, mention.end);
  // "She's not eating", "no appetite", "he hasn't been sleeping": the topic itself denied is its problem.
  const before = textOf(analysed, clauseStart, mention.start);
  const deniedTopic =
    NOT_DOING_TOPIC.test(`${before} `) ||
    (DENIED_BEFORE.test(before) && LITTLE_AFTER.test(textOf(analysed, mention.end, clauseEnd)));
  if (deniedTopic && !TOPIC_PROBLEM.test(clauseText)) return "positive";
  // "I haven't had changes in my hearing": a denied problem with the topic is its absence.
  if (
    mentionStatus(scope, mention.start, mention.end) === "negative" &&
    TOPIC_PROBLEM.test(clauseText) &&
    !TOPIC_NOT_NORMAL.test(clauseText)
  )
    return "negative";
  const fromClause = topicStatus(clauseText);
  if (fromClause !== undefined || !askedValues.has(concept.value)) return fromClause;
  return topicStatus(firstSentence) ?? (polarity ? statusFromAnswer(polarity, context.question.inverted) : undefined);
}

/** Reads the status of every mention; mentions that report nothing are dropped. */
export function readCertainty(turn: TurnRecord): void {
  const inConcept = conceptMask(turn.analysed.tokens.length, turn.mentions);
  let previous: { readonly start: number; readonly end: number; readonly status: Status } | undefined;
  const read: MentionReading[] = [];
  for (const reading of turn.readings) {
    let status = ownStatus(turn, reading, inConcept);
    // "Nobody has had heart problems or lung diseases": a list shares the status of its first item,
    // within its clause ("no fever and looks pale": the pallor is a statement of its own).
    const continues =
      previous &&
      turn.analysed.clauses[previous.start] === turn.analysed.clauses[reading.mention.start] &&
      (isListContinuation(turn, previous.end, reading.mention.start) ||
        isRepeatedLeadIn(turn, previous, reading.mention.start));
    if (status === "positive" && previous && previous.status !== "positive" && continues) status = previous.status;
    if (status === undefined) continue;
    previous = { start: reading.mention.start, end: reading.mention.end, status };
    read.push({ ...reading, status });
  }
  turn.readings = read;
}
