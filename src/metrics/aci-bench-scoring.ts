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
 * The paper's tables call rougeLsum "ROUGE-L". BERTScore, BLEURT and MEDCON (the script's other
 * figures) need models and a UMLS licence; they are not computed here.
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

/** Each note's ROUGE on the full note and on each division, as the script's per-instance lists hold them. */
export function scoreAciNotes(notes: readonly AciScoringNote[]): AciNoteScores[] {
  const references = notes.map((note) => noteDivisions(note.reference));
  const predictions = notes.map((note) => noteDivisions(note.prediction));
  const columns = ACI_DIVISIONS.map((division) => ({
    division,
    references: divisionColumn(references, division),
    predictions: divisionColumn(predictions, division),
  }));
  return notes.map((note, index) => ({
    full: pairRouge(note.reference, note.prediction),
    divisions: Object.fromEntries(
      columns.map(({ division, references: refs, predictions: preds }) => [
        division,
        pairRouge(refs[index]!, preds[index]!),
      ]),
    ) as Record<AciDivision, AciRouge>,
  }));
}

/** numpy's mean of each ROUGE type over the given scores, in their order. */
export function meanRouge(scores: readonly AciRouge[]): AciRouge {
  const mean = (type: (typeof ACI_ROUGE_TYPES)[number]) => numpyMean(scores.map((score) => score[type]));
  return { rouge1: mean("rouge1"), rouge2: mean("rouge2"), rougeL: mean("rougeL"), rougeLsum: mean("rougeLsum") };
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

/** The official results JSON's ROUGE figures: every cohort's means (see the module comment). */
export function aciCohorts(notes: readonly AciScoringNote[], scores: readonly AciNoteScores[]): AciCohortScores {
  const full = scores.map((score) => score.full);
  const of = (indexes: readonly number[]) => meanRouge(indexes.map((index) => full[index]!));
  const cohorts: AciCohortScores = { ALL: meanRouge(full) };
  for (const [dataset, indexes] of groupBy(notes, (note) => cohortValue(note, "dataset")))
    cohorts[`dataset-${dataset}`] = of(indexes);
  for (const division of ACI_DIVISIONS)
    cohorts[`division-${division}`] = meanRouge(scores.map((score) => score.divisions[division]));
  for (const [name, indexes] of [...lengthCohorts(notes), ...metadataCohorts(notes)]) cohorts[name] = of(indexes);
  return cohorts;
}
