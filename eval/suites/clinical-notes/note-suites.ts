import { createHash } from "node:crypto";
import { AnamnesisError } from "../../../src/foundation/errors.ts";
import { noteSplit, type NoteDataset, type NoteDatasetInfo, type NoteDocument, type NoteTask } from "../../../src/data/note-dataset.ts";
import { scoreLoglikelihoodPredictions, scoreNotePredictions } from "./note-scoring.ts";
import { NOTE_LINES, type NotePredictionLine } from "../../predictions-file.ts";
import type { BenchDataset, Suite, SuiteExample } from "../../suites.ts";

/**
 * The clinical-note suites of lm-evaluation-harness, as data: `mts-dialog` and `medtext` (generate a
 * note zero-shot from the document's text, scored per document and averaged with nanmean) and their
 * `-perplexity` variants (`loglikelihood_rolling` over the target alone).
 */

export const NOTE_SUITES = ["mts-dialog", "mts-dialog-perplexity", "medtext", "medtext-perplexity"] as const;
export type NoteSuiteId = (typeof NOTE_SUITES)[number];

/** lm-eval's task `description`s: YAML folded scalars, hence the final newline (kept by its Jinja). */
export const LM_EVAL_DESCRIPTIONS: Readonly<Record<NoteTask, string>> = {
  mts_dialog:
    "Instructions: The following text is from a collection of medical dialogs between doctor and patient. Extract all relevant information to compose a note that summarizes the relevant content of the dialog.\n",
  medtext:
    "Instructions: The following text is from a collection of medical records. What follows is the patients record. Answer how a doctor would, what is the likely diagnosis, and what is the treatment?. Answer how a doctor would, what is the likely diagnosis, and what is the treatment?\n",
};

/** The prompt's version for run records: the lm-eval task and a hash of its description. */
export function notePromptVersion(task: NoteTask): string {
  return `lm-eval:${task}#${createHash("sha256").update(LM_EVAL_DESCRIPTIONS[task]).digest("hex").slice(0, 12)}`;
}

export function isNoteDataset(dataset: BenchDataset): dataset is NoteDataset {
  return "task" in dataset;
}

function noteDataset(dataset: BenchDataset, task: NoteTask): NoteDataset {
  if (!isNoteDataset(dataset) || dataset.task !== task) throw new AnamnesisError("INVALID_ARGUMENT", `this suite needs the ${task} data`);
  return dataset;
}

/** What results.json and the report say about the data of a note run. */
export interface NoteRunData extends NoteDatasetInfo {
  readonly split: string;
  readonly documents: number;
}

export function describeNoteData(dataset: NoteDataset, split: string, subset: boolean): NoteRunData {
  const documents = noteSplit(dataset, split).length;
  const full = split === "all" && !subset;
  return {
    ...dataset.info,
    comparable_with_lm_eval: dataset.info.comparable_with_lm_eval && full,
    split,
    documents,
  };
}

/** The perplexity variants score log-likelihoods; the others generate text. */
export function isPerplexitySuite(id: string): boolean {
  return id.endsWith("-perplexity");
}

/** A suite over a note dataset's documents: one example per document, keyed by its id. */
function noteSuite(id: NoteSuiteId, task: NoteTask, definition: Pick<Suite, "module" | "protocol" | "score"> & { predict: (document: NoteDocument) => SuiteExample["predict"] }): Suite {
  return {
    id,
    data: task === "mts_dialog" ? "mts-dialog" : "medtext",
    module: definition.module,
    protocol: definition.protocol,
    format: NOTE_LINES,
    examples: (dataset, split) => noteSplit(noteDataset(dataset, task), split).map((document) => ({ key: document.id, fields: { id: document.id }, predict: definition.predict(document) })),
    score: definition.score,
  };
}

function generationSuite(id: NoteSuiteId, task: NoteTask): Suite {
  return noteSuite(id, task, {
    module: "note",
    protocol: `one document at a time, zero-shot: lm-eval's ${task} description, then the document's ${task === "mts_dialog" ? "dialogue" : "Prompt"}; greedy, at most 256 tokens, cut at the first blank line; scored per document (bleu, rouge1/2/L) and averaged with nanmean`,
    predict: (document) => async (modules, options) => {
      if (!modules.note) throw new AnamnesisError("INVALID_ARGUMENT", `${id} needs a note writer`);
      const { text, ...info } = await modules.note.write({ instructions: LM_EVAL_DESCRIPTIONS[task], input: document.input }, options);
      return { prediction: text, info };
    },
    score: async (dataset, lines) => scoreNotePredictions(noteDataset(dataset, task), lines as readonly NotePredictionLine[]),
  });
}

function perplexitySuite(id: NoteSuiteId, task: NoteTask): Suite {
  return noteSuite(id, task, {
    module: "likelihood",
    protocol: `lm-eval's ${task}_perplexity: the log-likelihood of each target with nothing before it (loglikelihood_rolling); word and byte perplexity and bits per byte weighted over documents`,
    predict: (document) => async (modules, options) => {
      if (!modules.likelihood) throw new AnamnesisError("INVALID_ARGUMENT", `${id} needs a backend that scores log-likelihoods`);
      const { logLikelihood, ...info } = await modules.likelihood.loglikelihoodRolling(document.target, options);
      return { prediction: logLikelihood, info };
    },
    score: async (dataset, lines) => scoreLoglikelihoodPredictions(noteDataset(dataset, task), lines as readonly NotePredictionLine[]),
  });
}

export const NOTE_SUITE_DEFINITIONS: Record<NoteSuiteId, Suite> = {
  "mts-dialog": generationSuite("mts-dialog", "mts_dialog"),
  "mts-dialog-perplexity": perplexitySuite("mts-dialog-perplexity", "mts_dialog"),
  medtext: generationSuite("medtext", "medtext"),
  "medtext-perplexity": perplexitySuite("medtext-perplexity", "medtext"),
};
