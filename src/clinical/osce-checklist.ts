import { AnamnesisError } from "../foundation/errors.ts";
import { contentWords, normaliseUtterance, sentencesOf } from "./checklist-text.ts";
import {
  GENERAL_SYSTEM,
  loadOsceChecklist,
  type CompiledChecklist,
  type CompiledItem,
} from "./osce-checklist-rules.ts";

/**
 * The OSCE history-taking checklist: which items of a history (`ontology/osce-checklist.json`) a
 * doctor's questions covered in a whole consultation, measured from the doctor's words alone (never
 * from a tracked state or the engine's own plan), so that any doctor — the embedded engine or an LLM
 * speaking free text — is scored the same way.
 */

/** One turn of a consultation. `measurement` turns (examination findings, test results) are not read. */
export interface ChecklistTurn {
  readonly speaker: "doctor" | "patient" | "measurement";
  readonly text: string;
}

/**
 * What the checklist needs to know of the patient: the presenting complaint in words, whether it is a
 * pain, age in years and sex (items such as pregnancy depend on them), and the complaint's body system
 * (one of the checklist's systems; inferred from `complaint` when absent).
 */
export interface ChecklistCase {
  readonly complaint: string;
  readonly pain: boolean;
  readonly age?: number;
  readonly sex?: "female" | "male";
  readonly system?: string;
}

/**
 * One item: whether it applies to this case, whether some doctor question covered it (reported for
 * every item, applicable or not), and the index in `turns` of the first doctor turn that did.
 */
export interface ChecklistItemResult {
  readonly id: string;
  readonly label: string;
  readonly applicable: boolean;
  readonly covered: boolean;
  readonly firstTurn: number | null;
}

/**
 * A consultation scored against the checklist.
 * - `items`: every item of the checklist, in the file's order.
 * - `coverage`: covered applicable items / applicable items (0 when no question was asked).
 * - `repeatedQuestions`: doctor questions that ask again what one earlier question already asked. A
 *   question is a sentence of a doctor turn that ends in "?" or opens as a question or request
 *   ("do you…", "tell me about…"; a turn with no sentence punctuation at all is read as one question).
 *   A question Q that covers at least one item is a repeat when some earlier question P covered every
 *   item Q covers and P's content words include all of Q's (words other than the checklist's function
 *   words, compared by Porter stem; a Q with no content word repeats only a P with none): "Do you smoke?" after "Do you smoke or drink?" is a repeat, "When
 *   did the cough start?" after "When did it start?" is not (it names something the first did not).
 *   Not a repeat: a question right after a patient turn asking to repeat or explain ("sorry, what do
 *   you mean?"), and a doctor checking back ("just to confirm, …"). Questions that cover no item are
 *   never counted, as the checklist cannot say what they ask.
 * - `offTopicBeforeComplaintDone`: questions asked while some applicable item of the complaint's own
 *   history (onset, duration, progression, the pain items for a pain, associated symptoms) was still
 *   uncovered, that review only systems other than the complaint's, its related systems and `general`,
 *   and cover no item of the complaint's own history. Always 0 for a complaint of the general system.
 */
export interface ChecklistResult {
  readonly items: readonly ChecklistItemResult[];
  readonly coverage: number;
  readonly repeatedQuestions: number;
  readonly offTopicBeforeComplaintDone: number;
}

let bundledChecklist: CompiledChecklist | undefined;

/**
 * The bundled checklist, read and compiled on first use and kept: scoring does no I/O after the first
 * call, and a process that never scores a consultation (`npm run bench`) never pays for it.
 */
function checklist(): CompiledChecklist {
  return (bundledChecklist ??= loadOsceChecklist());
}

/** A doctor question as its words alone decide: the items its rules match, and its content words. */
interface QuestionReading {
  readonly question: string;
  /** The ids of the items whose rules match the question, before anything the case adds. */
  readonly matched: readonly string[];
  readonly content: ReadonlySet<string>;
  readonly checksBack: boolean;
}

/** How many doctor turns a {@link TurnReadings} keeps before it starts again: a bounded memory. */
const TURN_READINGS_LIMIT = 4096;

/**
 * The questions of doctor turns, read once per text: the same words recur across the consultations
 * of a run (the complaint-blind floor asks one list of every patient; a doctor's phrasings repeat),
 * and matching every item's rules against each question was most of the time a consultation suite
 * spent scoring. Emptied when full, so a long-running process holds a bounded number.
 */
class TurnReadings {
  private readonly turns = new Map<string, readonly QuestionReading[]>();

  constructor(private readonly checklist: CompiledChecklist) {}

  of(text: string): readonly QuestionReading[] {
    const known = this.turns.get(text);
    if (known !== undefined) return known;
    const { checklist } = this;
    const readings = questionsOf(text, checklist).map((question) => ({
      question,
      matched: checklist.items.filter((item) => itemMatches(item, question)).map((item) => item.id),
      content: contentWords(question, checklist.functionWords),
      checksBack: checklist.checkBack.test(question),
    }));
    if (this.turns.size >= TURN_READINGS_LIMIT) this.turns.clear();
    this.turns.set(text, readings);
    return readings;
  }
}

/** What reading a consultation needs: the checklist, the complaint's system, and which items apply. */
interface ScoringContext {
  readonly checklist: CompiledChecklist;
  readonly readings: TurnReadings;
  readonly system: string;
  readonly applicable: ReadonlySet<string>;
}

/** A question a doctor asked, as the checklist reads it. */
interface AskedQuestion {
  readonly turn: number;
  readonly items: ReadonlySet<string>;
  readonly content: ReadonlySet<string>;
  /** False right after the patient asked to repeat or explain, and for a doctor's check-back: never a repeat. */
  readonly mayRepeat: boolean;
}

function ruleMatches(rule: CompiledItem["rules"][number], text: string): boolean {
  return rule.all.every((pattern) => pattern.test(text)) && !rule.none.some((pattern) => pattern.test(text));
}

const itemMatches = (item: CompiledItem, text: string): boolean =>
  item.quickCheck.test(text) && item.rules.some((rule) => ruleMatches(rule, text));

/**
 * The ids of the items one question covers: those whose rules match it, and the items covered by any
 * symptoms review of the complaint's own system (associated symptoms) when it covers an applicable one.
 */
function itemsCoveredBy(question: QuestionReading, context: ScoringContext): Set<string> {
  const { checklist, system, applicable } = context;
  const covered = new Set<string>(question.matched);
  const reviewsComplaintSystem = checklist.items.some(
    (item) =>
      item.reviewOf === system && item.reviewKind === "symptoms" && applicable.has(item.id) && covered.has(item.id),
  );
  if (reviewsComplaintSystem)
    for (const item of checklist.items) if (item.coveredByComplaintReview) covered.add(item.id);
  return covered;
}

/**
 * The questions of a doctor turn (see `ChecklistResult.repeatedQuestions` for what counts as one). A
 * question that points back ("any thoughts like that?") carries the statements before it in the turn,
 * and a fragment that only lists examples after a question ("What makes it worse? Moving, eating?")
 * is read as part of that question.
 */
function questionsOf(text: string, checklist: CompiledChecklist): string[] {
  const sentences = sentencesOf(text);
  if (!/[.?!]/.test(text)) return sentences;
  const questions: string[] = [];
  let statements: string[] = [];
  for (const sentence of sentences) {
    const opens = checklist.questionOpener.test(sentence);
    if (!sentence.endsWith("?") && !opens) {
      statements.push(sentence);
    } else if (!opens && statements.length === 0 && questions.length > 0) {
      questions.push(`${questions.pop()!} ${sentence}`);
    } else {
      const pointsBack = statements.length > 0 && checklist.contextReference.test(sentence);
      questions.push(pointsBack ? [...statements, sentence].join(" ") : sentence);
      statements = [];
    }
  }
  return questions;
}

/** Every doctor question of a consultation, in order, with the items it covers. */
function askedQuestions(turns: readonly ChecklistTurn[], context: ScoringContext): AskedQuestion[] {
  const { checklist } = context;
  const asked: AskedQuestion[] = [];
  let patientAskedToClarify = false;
  turns.forEach((turn, index) => {
    if (turn.speaker === "patient")
      patientAskedToClarify = checklist.clarificationRequest.test(normaliseUtterance(turn.text));
    if (turn.speaker !== "doctor") return;
    for (const question of context.readings.of(turn.text))
      asked.push({
        turn: index,
        items: itemsCoveredBy(question, context),
        content: question.content,
        mayRepeat: !patientAskedToClarify && !question.checksBack,
      });
    patientAskedToClarify = false;
  });
  return asked;
}

const isSubset = (small: ReadonlySet<string>, large: ReadonlySet<string>): boolean =>
  [...small].every((entry) => large.has(entry));

/** Whether `question` asks again what `before` asked: no new item and no new content word (nor none where it had some). */
function asksAgain(question: AskedQuestion, before: AskedQuestion): boolean {
  if (!isSubset(question.items, before.items)) return false;
  if (question.content.size === 0) return before.content.size === 0;
  return isSubset(question.content, before.content);
}

function countRepeats(asked: readonly AskedQuestion[]): number {
  let repeats = 0;
  asked.forEach((question, index) => {
    if (question.items.size === 0 || !question.mayRepeat) return;
    if (asked.slice(0, index).some((before) => asksAgain(question, before))) repeats += 1;
  });
  return repeats;
}

/** Whether a question reviews only systems unrelated to the complaint's and asks nothing of the complaint's own history. */
function isOffTopic(question: AskedQuestion, context: ScoringContext): boolean {
  const { checklist, system } = context;
  const reviewed = new Set<string>();
  for (const item of checklist.items) {
    if (!question.items.has(item.id)) continue;
    if (item.complaintCore) return false;
    if (item.reviewOf !== null) reviewed.add(item.reviewOf);
  }
  const related = checklist.systems.get(system)?.related ?? new Set<string>();
  const onTopic = (reviewedSystem: string): boolean =>
    reviewedSystem === system || reviewedSystem === GENERAL_SYSTEM || related.has(reviewedSystem);
  return reviewed.size > 0 && ![...reviewed].some(onTopic);
}

function countOffTopic(asked: readonly AskedQuestion[], context: ScoringContext): number {
  if (context.system === GENERAL_SYSTEM) return 0;
  const core = context.checklist.items.filter((item) => item.complaintCore && context.applicable.has(item.id));
  const remaining = new Set(core.map((item) => item.id));
  let offTopic = 0;
  for (const question of asked) {
    if (remaining.size > 0 && isOffTopic(question, context)) offTopic += 1;
    for (const id of question.items) remaining.delete(id);
  }
  return offTopic;
}

/**
 * Whether an item applies to a case whose complaint is of `system`. A systems-review item applies to
 * a complaint of its system unless its rules match the complaint's own words (then it is the
 * complaint: "any chest pain?" reviews nothing for a patient who came with chest pain).
 */
function isApplicable(item: CompiledItem, patient: ChecklistCase, system: string): boolean {
  if (item.reviewOf !== null)
    return item.reviewOf === system && !itemMatches(item, normaliseUtterance(patient.complaint));
  const { pain, sex, min_age: minAge, max_age: maxAge, when_unknown: whenUnknown } = item.applies;
  if (pain && !patient.pain) return false;
  const ageNeeded = minAge !== undefined || maxAge !== undefined;
  const unknown = (sex !== undefined && patient.sex === undefined) || (ageNeeded && patient.age === undefined);
  if (unknown) return whenUnknown === "applies";
  if (sex !== undefined && patient.sex !== sex) return false;
  if (minAge !== undefined && patient.age! < minAge) return false;
  return maxAge === undefined || patient.age! <= maxAge;
}

/**
 * The body system of a complaint in words, by the checklist's complaint patterns: the system named
 * earliest in the text wins, any system before `general` (so "fever and a cough" is respiratory).
 * When the text says where the complaint starts ("… presents with", "complaining of"), only what
 * follows is read first. A complaint nothing names is `general`.
 */
export function inferComplaintSystem(complaint: string): string {
  const text = normaliseUtterance(complaint);
  const cue = checklist().complaintCue.exec(text);
  const parts = cue ? [text.slice(cue.index + cue[0].length), text] : [text];
  for (const part of parts) {
    let best: { system: string; at: number } | null = null;
    for (const system of checklist().systems.values()) {
      if (system.id === GENERAL_SYSTEM) continue;
      for (const pattern of system.complaint) {
        const at = part.search(pattern);
        if (at >= 0 && (best === null || at < best.at)) best = { system: system.id, at };
      }
    }
    if (best) return best.system;
  }
  return GENERAL_SYSTEM;
}

function systemOf(patient: ChecklistCase): string {
  if (patient.system === undefined) return inferComplaintSystem(patient.complaint);
  if (!checklist().systems.has(patient.system))
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `unknown body system '${patient.system}' (one of: ${[...checklist().systems.keys()].join(", ")})`,
    );
  return patient.system;
}

/** Scores consultations against the checklist, each doctor turn's words read once (see {@link TurnReadings}). */
export type OsceChecklistScorer = (turns: readonly ChecklistTurn[], patient: ChecklistCase) => ChecklistResult;

/**
 * A scorer with a memory of its own for the doctor turns it has read: what {@link scoreOsceChecklist}
 * is, and what a timing of the scoring uses to read every turn as if for the first time.
 */
export function osceChecklistScorer(): OsceChecklistScorer {
  let readings: TurnReadings | undefined;
  return (turns, patient) => scoreWith((readings ??= new TurnReadings(checklist())), turns, patient);
}

function scoreWith(readings: TurnReadings, turns: readonly ChecklistTurn[], patient: ChecklistCase): ChecklistResult {
  const system = systemOf(patient);
  const applicable = new Set(
    checklist()
      .items.filter((item) => isApplicable(item, patient, system))
      .map((item) => item.id),
  );
  const context: ScoringContext = { checklist: checklist(), readings, system, applicable };
  const asked = askedQuestions(turns, context);
  const firstTurn = new Map<string, number>();
  for (const question of asked)
    for (const id of question.items) if (!firstTurn.has(id)) firstTurn.set(id, question.turn);
  const items = checklist().items.map((item) => ({
    id: item.id,
    label: item.label,
    applicable: applicable.has(item.id),
    covered: firstTurn.has(item.id),
    firstTurn: firstTurn.get(item.id) ?? null,
  }));
  const coveredApplicable = items.filter((item) => item.applicable && item.covered).length;
  return {
    items,
    coverage: applicable.size > 0 ? coveredApplicable / applicable.size : 0,
    repeatedQuestions: countRepeats(asked),
    offTopicBeforeComplaintDone: countOffTopic(asked, context),
  };
}

/**
 * Scores a consultation against the OSCE history-taking checklist (see `ChecklistResult` for each
 * measure). No I/O after the first call: the checklist is read once, on first use, and the doctor
 * turns already read are remembered (a bounded number).
 */
export const scoreOsceChecklist: OsceChecklistScorer = osceChecklistScorer();
