/**
 * ACI-Bench's ROUGE, computed as its official `evaluation/evaluate_fullnote.py` computes it, step by
 * step:
 * 1. Each note pair — the full reference and prediction, then each of the four divisions of both
 *    (aci-bench-sections.ts) — is scored by Hugging Face evaluate's `rouge`: rouge_score's
 *    `RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])` with its default tokenizer, WITHOUT
 *    stemming (evaluate's default), `score(reference, prediction)`, and the F-measure kept
 *    (`use_aggregator=False`: no bootstrap). rougeLsum splits each text into sentences at `"\n"`: full
 *    notes keep their line breaks, while division texts carry them as `__lf1__` (one more `lf1` token
 *    per line break, and rougeLsum equal to rougeL).
 * 2. A figure is numpy's mean (pairwise summation, numpy-sum.ts) of the per-note F-measures of a
 *    cohort, in the gold order: ALL (the full notes), each `dataset` of the metadata file
 *    (`dataset-virtassist`, …, in the order they first appear), each division (`division-subjective`,
 *    …, over every note: a division only one side has scores 0, one both lack 1, as
 *    aci-bench-sections.ts says), the notes whose conversation is at most 512 words (`shorter-src`) or
 *    longer (`longer-src (support:N)`), and each value of the metadata's `patient_gender`, `cc` and
 *    `2nd_complaints` (`cc-knee pain(support:2)`, a missing value being `#####EMPTY#####`). The keys
 *    are the results JSON's own.
 *
 * The paper's tables call rougeLsum "ROUGE-L". The script's other figures — BERTScore, BLEURT and
 * MEDCON — are scored over the same pairs (aciEvaluationPairs) and averaged over the same cohorts
 * (aciCohortMeans) by src/metrics/model-metrics/aci-bench-model-metrics.ts, when the user has them.
 */
import {
  ACI_DIVISIONS,
  divisionColumn,
  MISSING_DIVISION,
  noteDivisions,
  type AciDivision,
} from "./aci-bench-sections.ts";
import { numpyMean } from "./numpy-sum.ts";
import { pyWordCount } from "./python-text.ts";
import { rougeScore } from "./rouge.ts";

/** One note to score: the reference, the prediction as the script read it, and what its cohorts are made from. */
export interface AciScoringNote {
  readonly reference: string;
  readonly prediction: string;
  /** The conversation: its length in words (`str.split()`) puts the note among the shorter or longer sources. */
  readonly dialogue: string;
  /** The metadata row; `dataset`, `patient_gender`, `cc` and `2nd_complaints` make cohorts. A value pandas reads as missing is null. */
  readonly metadata: Readonly<Record<string, string | null>>;
}

/** The four ROUGE F-measures of one pair, or their means over a cohort. */
export interface AciRouge {
  rouge1: number;
  rouge2: number;
  rougeL: number;
  rougeLsum: number;
}

/** The ROUGE types, in the script's order. */
export const ACI_ROUGE_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"] as const;

/** One note's scores: the full note and each division. */
export interface AciNoteScores {
  readonly full: AciRouge;
  readonly divisions: Readonly<Record<AciDivision, AciRouge>>;
}

/** Every cohort's means, keyed as the official results JSON keys them (`ALL`, `dataset-aci`, `division-subjective`, …). */
export type AciCohortScores = Record<string, AciRouge>;

/** The conversations of at most this many words are the script's shorter sources. */
const SHORT_SOURCE_WORDS = 512;

/** The metadata columns the script makes cohorts of, besides `dataset`. */
const METADATA_COHORTS = ["patient_gender", "cc", "2nd_complaints"] as const;

/** evaluate's rouge of one pair: rouge_score's F-measures, no stemming. */
function pairRouge(reference: string, prediction: string): AciRouge {
  const scores = rougeScore(reference, prediction, { useStemmer: false });
  return {
    rouge1: scores.rouge1.fmeasure,
    rouge2: scores.rouge2.fmeasure,
    rougeL: scores.rougeL.fmeasure,
    rougeLsum: scores.rougeLsum.fmeasure,
  };
}

/**
 * The pairs the script scores, in its order: every full note, then each division's column
 * (`references.extend(df.get("reference_<division>"))`, …) — 5 x the notes. The model-based metrics
 * score these lists in one call, as the script does.
 */
export function aciEvaluationPairs(notes: readonly AciScoringNote[]): { references: string[]; predictions: string[] } {
  const references = notes.map((note) => noteDivisions(note.reference));
  const predictions = notes.map((note) => noteDivisions(note.prediction));
  return {
    references: [
      ...notes.map((note) => note.reference),
      ...ACI_DIVISIONS.flatMap((division) => divisionColumn(references, division)),
    ],
    predictions: [
      ...notes.map((note) => note.prediction),
      ...ACI_DIVISIONS.flatMap((division) => divisionColumn(predictions, division)),
    ],
  };
}

/** Each note's ROUGE on the full note and on each division, as the script's per-instance lists hold them. */
export function scoreAciNotes(notes: readonly AciScoringNote[]): AciNoteScores[] {
  const { references, predictions } = aciEvaluationPairs(notes);
  const pair = (index: number) => pairRouge(references[index]!, predictions[index]!);
  return notes.map((_, index) => ({
    full: pair(index),
    divisions: Object.fromEntries(
      ACI_DIVISIONS.map((division, column) => [division, pair((column + 1) * notes.length + index)]),
    ) as Record<AciDivision, AciRouge>,
  }));
}

/** A metadata value as the script groups it: after pandas' `fillna("#####EMPTY#####")`. */
function cohortValue(note: AciScoringNote, column: string): string {
  return note.metadata[column] ?? MISSING_DIVISION;
}

/** Indexes of the notes, grouped by a value, the groups in the order their value first appears. */
function groupBy(notes: readonly AciScoringNote[], valueOf: (note: AciScoringNote) => string): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  notes.forEach((note, index) => groups.set(valueOf(note), [...(groups.get(valueOf(note)) ?? []), index]));
  return groups;
}

/** The length cohorts: `shorter-src` (no support in its name) and `longer-src (support:N)`, each only when it has notes. */
function lengthCohorts(notes: readonly AciScoringNote[]): Array<[string, number[]]> {
  const words = notes.map((note) => pyWordCount(note.dialogue));
  const shorter = words.flatMap((count, index) => (count <= SHORT_SOURCE_WORDS ? [index] : []));
  const longer = words.flatMap((count, index) => (count > SHORT_SOURCE_WORDS ? [index] : []));
  return [
    ...(shorter.length > 0 ? [["shorter-src", shorter] as [string, number[]]] : []),
    ...(longer.length > 0 ? [[`longer-src (support:${longer.length})`, longer] as [string, number[]]] : []),
  ];
}

/** The metadata cohorts: `cc-knee pain(support:2)`, … for each column the notes' metadata has. */
function metadataCohorts(notes: readonly AciScoringNote[]): Array<[string, number[]]> {
  return METADATA_COHORTS.filter((column) => notes.some((note) => column in note.metadata)).flatMap((column) =>
    [...groupBy(notes, (note) => cohortValue(note, column))].map(([value, indexes]): [string, number[]] => [
      `${column}-${value}(support:${indexes.length})`,
      indexes,
    ]),
  );
}

/** A cohort of the results JSON: some notes' full-note pairs, or one division's pairs of every note. */
export type AciCohort =
  | { readonly name: string; readonly notes: readonly number[] }
  | { readonly name: string; readonly division: AciDivision };

/** The results JSON's cohorts, in its key order (see the module comment). */
export function aciCohortList(notes: readonly AciScoringNote[]): AciCohort[] {
  const all = notes.map((_, index) => index);
  return [
    { name: "ALL", notes: all },
    ...[...groupBy(notes, (note) => cohortValue(note, "dataset"))].map(([dataset, indexes]) => ({
      name: `dataset-${dataset}`,
      notes: indexes,
    })),
    ...ACI_DIVISIONS.map((division) => ({ name: `division-${division}`, division })),
    ...[...lengthCohorts(notes), ...metadataCohorts(notes)].map(([name, indexes]) => ({ name, notes: indexes })),
  ];
}

/**
 * Every cohort's numpy means of per-pair figures given in the script's order (aciEvaluationPairs: the
 * full notes, then each division's column), keyed as the results JSON: `{ALL: {bleurt: …}, …}`.
 */
export function aciCohortMeans<Figure extends string>(
  notes: readonly AciScoringNote[],
  perPair: Readonly<Record<Figure, readonly number[]>>,
): Record<string, Record<Figure, number>> {
  const figures = Object.keys(perPair) as Figure[];
  const cohorts: Record<string, Record<Figure, number>> = {};
  for (const cohort of aciCohortList(notes)) {
    const pairs =
      "division" in cohort
        ? notes.map((_, index) => (ACI_DIVISIONS.indexOf(cohort.division) + 1) * notes.length + index)
        : cohort.notes;
    cohorts[cohort.name] = Object.fromEntries(
      figures.map((figure) => [figure, numpyMean(pairs.map((pair) => perPair[figure][pair]!))]),
    ) as Record<Figure, number>;
  }
  return cohorts;
}

/** The official results JSON's ROUGE figures: every cohort's means (see the module comment). */
export function aciCohorts(notes: readonly AciScoringNote[], scores: readonly AciNoteScores[]): AciCohortScores {
  const pairs = [
    ...scores.map((score) => score.full),
    ...ACI_DIVISIONS.flatMap((d) => scores.map((score) => score.divisions[d])),
  ];
  const perPair = (type: (typeof ACI_ROUGE_TYPES)[number]) => pairs.map((pair) => pair[type]);
  return aciCohortMeans(notes, {
    rouge1: perPair("rouge1"),
    rouge2: perPair("rouge2"),
    rougeL: perPair("rougeL"),
    rougeLsum: perPair("rougeLsum"),
  });
}
