import { nluFramesSchema, doctorActionsSchema, describeIssues } from "../cmas/schemas.ts";
import { tupleParts, unrollActions, unrollFrames, type ScoringTuples } from "../cmas/scoring-tuples.ts";
import { exactJudge, type AttributeJudge } from "./attribute-judge.ts";

/**
 * MediTOD's NLU and policy scores (dair-iitd/MediTOD `metrics/nlu_metrics.py`, `pol_metrics.py`):
 * micro precision / recall / F1 over unrolled tuples, split into medical (canon) and non-medical
 * (non-canon) and pooled as overall, plus joint accuracy and the format-error rate.
 *
 * Official behaviour kept on purpose:
 * - a turn is skipped when its gold is empty, or is a single bare `inform` (NLU) / bare `inquire`
 *   (policy) — yet `samples`, `joint_accuracy` and `format_errors` divide by all turns;
 * - the `exact` judge is `compute_precision_recall_f1`: tuples must be equal;
 * - an LLM judge follows `compute_soft_metrics_chatgpt`: medical tuples still match exactly, non-medical
 *   ones are grouped by everything but their last element and matched greedily, gold items and
 *   predicted items sorted longest first, each gold item taking the first unused predicted item the
 *   judge accepts.
 * Where we differ (and why):
 * - scores are not rounded (the official code rounds to 4 digits);
 * - a prediction must validate against the ontology's zod schema; one that does not scores as empty
 *   and counts as a format error. The official code only fails on structures it cannot unroll and
 *   silently skips unknown slots (policy: drops the failing action alone), so for malformed output it
 *   can count more tuples than we do. Validation failures on skipped turns are not counted, as officially;
 * - an output the model failed to produce readably (a predictions line's `format_error`: invalid JSON,
 *   prose, a fence, …) counts as a format error on any turn, although the `[]` written in its place
 *   validates: otherwise the rate would read 0 while every output failed.
 */

export type CmasTask = "nlu" | "pol";

/** Precision, recall and F1 (unrounded). */
export interface PrecisionRecallF1 {
  precision: number;
  recall: number;
  f1: number;
}

/** The official NLU / policy scores: samples, joint accuracy, format errors, and P/R/F1 overall, medical and non-medical. */
export interface CmasScores {
  samples: number;
  joint_accuracy: number;
  format_errors: number;
  overall: PrecisionRecallF1;
  medical: PrecisionRecallF1;
  non_medical: PrecisionRecallF1;
}

/** One turn to score: its gold annotation (data format) and the raw prediction. */
export interface TurnToScore {
  gold: ReadonlyArray<Record<string, unknown>>;
  prediction: unknown;
  /**
   * Why the model's output could not be read (the predictions line's `format_error`), when it could
   * not: the turn counts as a format error whatever its prediction (often the `[]` written in its place).
   */
  outputFormatError?: string;
}

/** A turn after validation and unrolling. */
export interface UnrolledTurn {
  gold: ScoringTuples;
  /** Null when the prediction did not validate (a format error). */
  prediction: ScoringTuples | null;
  /** Why the output could not be read, or why the prediction did not validate. */
  formatError?: string;
  /** The output itself failed (reported by whoever predicted), as opposed to failing validation here. */
  outputFailed?: boolean;
  /** Excluded from P/R/F1 by the official skip rule. */
  skipped: boolean;
}

function isSkipped(task: CmasTask, gold: TurnToScore["gold"]): boolean {
  if (gold.length === 0) return true;
  if (gold.length !== 1) return false;
  const only = gold[0]!;
  if (task === "nlu") {
    const slots = (only.slots ?? {}) as Record<string, unknown>;
    return only.intent === "inform" && Object.keys(slots).length === 0;
  }
  return only.action === "inquire" && Object.keys(only).length === 1;
}

/** A prediction validated and unrolled. */
type UnrolledPrediction = { readonly tuples: ScoringTuples | null; readonly formatError?: string };

/**
 * Predictions already unrolled, by task and JSON text: a run's report reads its predictions files
 * again after scoring them (by slot, format errors), and validating each line three times cost a
 * tenth of `npm run bench`. Unrolled tuples are never changed by their readers. Bounded.
 */
const unrolledPredictions = new Map<string, UnrolledPrediction>();
const MAX_UNROLLED = 20_000;

/** Validates and unrolls a prediction (as JSON); null with a reason when it does not validate. */
export function unrollPrediction(task: CmasTask, prediction: unknown): UnrolledPrediction {
  // A prediction is a JSON value (a predictions file's field): the value validated is the JSON text's,
  // so the result depends on the key alone.
  const json: string | undefined = JSON.stringify(prediction);
  const key = `${task}\n${json ?? ""}`;
  const known = unrolledPredictions.get(key);
  if (known) return known;
  const value: unknown = json === undefined ? undefined : JSON.parse(json);
  const parsed = (task === "nlu" ? nluFramesSchema : doctorActionsSchema).safeParse(value);
  const unrolled: UnrolledPrediction = parsed.success
    ? { tuples: unrollTask(task, parsed.data) }
    : { tuples: null, formatError: describeIssues(parsed.error) };
  if (unrolledPredictions.size >= MAX_UNROLLED) unrolledPredictions.clear();
  unrolledPredictions.set(key, unrolled);
  return unrolled;
}

/** Gold annotations already unrolled, per task: the dataset's own arrays, read once per run by each reader. */
const unrolledGold = new WeakMap<object, Partial<Record<CmasTask, ScoringTuples>>>();

function unrollGold(task: CmasTask, gold: ReadonlyArray<Record<string, unknown>>): ScoringTuples {
  const byTask = unrolledGold.get(gold) ?? {};
  const tuples = (byTask[task] ??= unrollTask(task, gold));
  unrolledGold.set(gold, byTask);
  return tuples;
}

function unrollTask(task: CmasTask, annotation: ReadonlyArray<Record<string, unknown>>): ScoringTuples {
  return task === "nlu" ? unrollFrames(annotation as Parameters<typeof unrollFrames>[0]) : unrollActions(annotation);
}

/** Validates and unrolls every turn. */
export function unrollTurns(task: CmasTask, turns: readonly TurnToScore[]): UnrolledTurn[] {
  return turns.map((turn) => {
    const skipped = isSkipped(task, turn.gold);
    const { tuples, formatError } = unrollPrediction(task, turn.prediction);
    const reason = turn.outputFormatError ?? formatError;
    return {
      gold: unrollGold(task, turn.gold),
      prediction: tuples,
      skipped,
      ...(reason ? { formatError: reason } : {}),
      ...(turn.outputFormatError !== undefined ? { outputFailed: true } : {}),
    };
  });
}

interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

function compare(gold: Set<string>, predicted: Set<string>, into: Counts): void {
  let tp = 0;
  for (const tuple of predicted) if (gold.has(tuple)) tp += 1;
  into.tp += tp;
  into.fp += predicted.size - tp;
  into.fn += gold.size - tp;
}

/** P/R/F1 with the official operation order, so results match to the last bit. */
function precisionRecallF1({ tp, fp, fn }: Counts): PrecisionRecallF1 {
  const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  const f1 = precision + recall > 0 ? (2.0 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

const EMPTY: ScoringTuples = { medical: new Set(), nonMedical: new Set() };

/** All tuples of a turn, medical and non-medical pooled (the official joint-accuracy comparison). */
export function allTuples(tuples: ScoringTuples): Set<string> {
  return new Set([...tuples.medical, ...tuples.nonMedical]);
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
  if (a.size !== b.size) return false;
  for (const item of a) if (!b.has(item)) return false;
  return true;
}

/** Python's `str` ordering: by code point (JavaScript's `<` compares UTF-16 units). */
function compareCodePoints(a: string, b: string): number {
  const left = Array.from(a);
  const right = Array.from(b);
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const difference = left[index]!.codePointAt(0)! - right[index]!.codePointAt(0)!;
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

/** The official group order: longest first (in code points), then lexicographic. */
function officialGroupOrder(a: string, b: string): number {
  return Array.from(b).length - Array.from(a).length || compareCodePoints(a, b);
}

function groupByPrefix(tuples: Set<string>): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const key of tuples) {
    const parts = tupleParts(key);
    const group = JSON.stringify(parts.slice(0, -1));
    let items = groups.get(group);
    if (!items) {
      items = [];
      groups.set(group, items);
    }
    items.push(parts[parts.length - 1]!);
  }
  for (const items of groups.values()) items.sort(officialGroupOrder);
  return groups;
}

const pairKey = (gold: string, predicted: string) => JSON.stringify([gold, predicted]);

/** Non-medical counts with a judge: greedy matching within (intent, slot, value, attribute) groups. */
async function judgedNonMedical(turns: readonly UnrolledTurn[], judge: AttributeJudge, into: Counts): Promise<void> {
  const grouped = turns.map((turn) => ({
    gold: groupByPrefix(turn.gold.nonMedical),
    predicted: groupByPrefix((turn.prediction ?? EMPTY).nonMedical),
  }));
  const pending = new Map<string, { gold: string; predicted: string }>();
  for (const { gold, predicted } of grouped) {
    for (const [group, goldItems] of gold) {
      for (const goldItem of goldItems) {
        for (const predictedItem of predicted.get(group) ?? [])
          pending.set(pairKey(goldItem, predictedItem), { gold: goldItem, predicted: predictedItem });
      }
    }
  }
  const pairs = [...pending.values()];
  const verdicts = pairs.length > 0 ? await judge.equivalent(pairs) : [];
  const accepted = new Set(
    pairs.filter((_, index) => verdicts[index] === true).map((pair) => pairKey(pair.gold, pair.predicted)),
  );

  for (const { gold, predicted } of grouped) {
    for (const [group, goldItems] of gold) {
      const predictedItems = predicted.get(group);
      if (!predictedItems) {
        into.fn += goldItems.length;
        continue;
      }
      const used = new Set<number>();
      for (const goldItem of goldItems) {
        const match = predictedItems.findIndex(
          (item, index) => !used.has(index) && accepted.has(pairKey(goldItem, item)),
        );
        if (match >= 0) {
          used.add(match);
          into.tp += 1;
        } else {
          into.fn += 1;
        }
      }
      into.fp += predictedItems.length - used.size;
    }
    for (const [group, predictedItems] of predicted) if (!gold.has(group)) into.fp += predictedItems.length;
  }
}

/**
 * Scores NLU frames or doctor actions against gold. `judge` decides non-medical equivalence:
 * {@link exactJudge} (default) reproduces the official exact scores.
 */
export async function scoreCmas(
  task: CmasTask,
  turns: readonly TurnToScore[],
  judge: AttributeJudge = exactJudge,
): Promise<CmasScores> {
  return scoreUnrolledTurns(unrollTurns(task, turns), judge);
}

/** {@link scoreCmas} for turns already validated and unrolled. */
export async function scoreUnrolledTurns(
  unrolled: readonly UnrolledTurn[],
  judge: AttributeJudge = exactJudge,
): Promise<CmasScores> {
  const medical: Counts = { tp: 0, fp: 0, fn: 0 };
  const nonMedical: Counts = { tp: 0, fp: 0, fn: 0 };
  let joint = 0;
  // A failed output counts on every turn; a prediction that does not validate, on scored turns (as officially).
  const formatErrors = unrolled.filter(
    (turn) => turn.outputFailed || (!turn.skipped && turn.prediction === null),
  ).length;
  const scored = unrolled.filter((turn) => !turn.skipped);
  for (const turn of scored) {
    const prediction = turn.prediction ?? EMPTY;
    compare(turn.gold.medical, prediction.medical, medical);
    if (judge.id === exactJudge.id) compare(turn.gold.nonMedical, prediction.nonMedical, nonMedical);
    if (sameSet(allTuples(turn.gold), allTuples(prediction))) joint += 1;
  }
  if (judge.id !== exactJudge.id) await judgedNonMedical(scored, judge, nonMedical);

  const samples = unrolled.length;
  return {
    samples,
    joint_accuracy: samples > 0 ? joint / samples : 0,
    format_errors: samples > 0 ? formatErrors / samples : 0,
    overall: precisionRecallF1({
      tp: medical.tp + nonMedical.tp,
      fp: medical.fp + nonMedical.fp,
      fn: medical.fn + nonMedical.fn,
    }),
    medical: precisionRecallF1(medical),
    non_medical: precisionRecallF1(nonMedical),
  };
}
