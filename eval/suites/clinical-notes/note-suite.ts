import { noteSplit, type NoteDataset, type NoteDocument } from "../../../src/data/note-dataset.ts";
import type { LmEvalTask } from "../../../src/metrics/lm-eval.ts";
import type { BenchDataset, DatasetSource } from "../../shared/bench-dataset.ts";
import {
  inPredictionsFile,
  NOTE_LINES,
  readLinesOf,
  type AnyPredictionLine,
  type NotePredictionLine,
} from "../../shared/predictions-file.ts";
import type { ScoreCommand, Suite, SuiteExample, SuiteReportContext } from "../../shared/suite.ts";
import type { ReportSection } from "../../shared/report-blocks.ts";
import { noteDatasetOf } from "./note-data.ts";
import { NOTE_FAMILY } from "./note-family.ts";

/**
 * One factory for the clinical-note suites: one example per document of a split, keyed by its id
 * (`{id, prediction}` lines), scored per document; the generation and perplexity variants
 * (note-generation.ts, note-perplexity.ts) give the rest.
 */

/** What names a clinical-note suite: its id, its lm-eval task and data, and its title in the report. */
export interface NoteSuiteName<Id extends string> {
  readonly id: Id;
  readonly task: LmEvalTask;
  readonly data: DatasetSource;
  /** The report's name for it, e.g. "MTS-Dialog note generation". */
  readonly title: string;
}

/** What a variant adds: the module, how a document is predicted, scored and shown. */
export interface NoteVariant<Scores> {
  readonly module: "note" | "likelihood" | "classifier";
  readonly protocol: string;
  readonly prompt?: Suite["prompt"];
  predict(document: NoteDocument, dataset: NoteDataset): SuiteExample["predict"];
  score(dataset: NoteDataset, lines: readonly NotePredictionLine[]): Scores;
  resultCells(scores: Scores): string[];
  reportSection(context: SuiteReportContext<Scores>): ReportSection;
  /** The lines whose output could not be read (a classifier's answer that named no label). */
  formatErrors?: Suite["formatErrors"];
  readonly scoreCommand: Omit<ScoreCommand<Scores>, "run" | "judged">;
}

/** A clinical-note suite from its name and variant. */
export function noteSuite<const Id extends string, Scores>(
  name: NoteSuiteName<Id>,
  variant: NoteVariant<Scores>,
): Suite<Id, Scores> {
  const score = async (dataset: BenchDataset, lines: readonly AnyPredictionLine[]) =>
    variant.score(noteDatasetOf(dataset, name.task), lines as readonly NotePredictionLine[]);
  return {
    id: name.id,
    family: NOTE_FAMILY,
    data: name.data.id,
    module: variant.module,
    protocol: variant.protocol,
    format: NOTE_LINES,
    ...(variant.prompt ? { prompt: variant.prompt } : {}),
    examples: (dataset, split) => {
      const notes = noteDatasetOf(dataset, name.task);
      return noteSplit(notes, split).map((document) => ({
        key: document.id,
        fields: { id: document.id },
        predict: variant.predict(document, notes),
      }));
    },
    score,
    resultCells: (scores) => variant.resultCells(scores),
    reportSection: (context) => variant.reportSection(context),
    baselines: [],
    ...(variant.formatErrors ? { formatErrors: variant.formatErrors } : {}),
    scoreCommand: {
      ...variant.scoreCommand,
      judged: false,
      // The data first: a missing MedText file is the first thing to say.
      run: async ({ predictions, data }) => {
        const dataset = name.data.load(data);
        const lines = readLinesOf(predictions, NOTE_LINES);
        return inPredictionsFile(predictions, () => score(dataset, lines));
      },
    },
  };
}
