import { AnamnesisError } from "../../../src/foundation/errors.ts";
import { f4 } from "../../shared/report-blocks.ts";
import { formatScore, formatTable } from "../../shared/terminal-table.ts";
import { LM_EVAL_DESCRIPTIONS, notePromptVersion } from "./lm-eval-descriptions.ts";
import { noteDatasetOf } from "./note-data.ts";
import { scoreNotePredictions, type NoteGenerationScores } from "./note-scoring.ts";
import { noteSuite, type NoteSuiteName } from "./note-suite.ts";
import { sectionHeaderTable } from "./section-header-table.ts";

/** A generation suite's name, what its documents' input is called, and whether the report breaks it down by section header. */
export interface GenerationSuiteName<Id extends string> extends NoteSuiteName<Id> {
  /** The document's text the model is given, as lm-eval's task calls it ("dialogue", "Prompt"). */
  readonly inputName: string;
  /** The report's per-section-header table's title, for data whose documents have section headers. */
  readonly sectionHeaderTitle?: string;
}

/** The report's headline table of a note-generation suite: our scores beside the columns lm-eval reports. */
function headlineTable(title: string, note: NoteGenerationScores, ourLabel: string) {
  const nan = note.nan_counts;
  return {
    title: `${title} (${note.samples} documents)`,
    header: ["model", "BLEU", "ROUGE-1", "ROUGE-2", "ROUGE-L", "BLEURT", "BERTScore", "NaN (length gate)"],
    rows: [
      [
        ourLabel,
        f4(note.bleu),
        f4(note.rouge1),
        f4(note.rouge2),
        f4(note.rougeL),
        note.bleurt === null ? "n/a" : f4(note.bleurt),
        note.bert_score === null ? "n/a" : f4(note.bert_score),
        `${Math.max(nan.bleu, nan.rouge1)} (${nan.length_gate})`,
      ],
    ],
    ours: 0,
  };
}

/** The model metrics' labels, or the reasons they are null: a line each under the printed table. */
function modelMetricLines(note: NoteGenerationScores): string {
  const line = (name: string, record: NoteGenerationScores["model_metrics"]["bleurt"]) =>
    `${name}: ${record.status === "unavailable" ? record.reason : `${record.label}, ${record.settings}`}`;
  return `${line("BLEURT", note.model_metrics.bleurt)}\n${line("BERTScore", note.model_metrics.bert_score)}`;
}

/** What `anamnesis score <id>` prints for a note-generation suite. */
function printedScores(id: string, note: NoteGenerationScores): string {
  const optional = (value: number | null) => (value === null ? "-" : formatScore(value));
  const row = [
    String(note.samples),
    formatScore(note.bleu),
    formatScore(note.rouge1),
    formatScore(note.rouge2),
    formatScore(note.rougeL),
    optional(note.bleurt),
    optional(note.bert_score),
    String(note.nan_counts.rougeL),
  ];
  const header = ["documents", "BLEU", "ROUGE-1", "ROUGE-2", "ROUGE-L", "BLEURT", "BERTScore", "NaN"];
  return `${id}\n${formatTable(header, [row])}\n${modelMetricLines(note)}\n`;
}

/**
 * An lm-eval note-generation suite: the note writer is given lm-eval's task description and the
 * document's text, zero-shot; each note is scored against the document's target (BLEU, ROUGE-1/2/L)
 * and the scores are averaged with nanmean.
 */
export function generationSuite<const Id extends string>(name: GenerationSuiteName<Id>) {
  const { id, task } = name;
  return noteSuite(name, {
    module: "note",
    protocol: `one document at a time, zero-shot: lm-eval's ${task} description, then the document's ${name.inputName}; greedy, at most 256 tokens, cut at the first blank line; scored per document (bleu, rouge1/2/L) and averaged with nanmean`,
    // Hashed when a run records it (a prompted run), not whenever the suites are listed.
    prompt: {
      module: "note",
      get version() {
        return notePromptVersion(task);
      },
    },
    predict: (document) => async (modules, options) => {
      if (!modules.note) throw new AnamnesisError("INVALID_ARGUMENT", `${id} needs a note writer`);
      const { text, ...info } = await modules.note.write(
        { instructions: LM_EVAL_DESCRIPTIONS[task], input: document.input },
        options,
      );
      return { prediction: text, info };
    },
    score: (dataset, lines, models) => scoreNotePredictions(dataset, lines, models),
    resultCells: (note: NoteGenerationScores) => [
      String(note.samples),
      `BLEU ${formatScore(note.bleu)}`,
      `ROUGE-1 ${formatScore(note.rouge1)}`,
      `ROUGE-2 ${formatScore(note.rouge2)}`,
      `ROUGE-L ${formatScore(note.rougeL)}`,
      ...(note.bleurt !== null ? [`BLEURT ${formatScore(note.bleurt)}`] : []),
      ...(note.bert_score !== null ? [`BERTScore ${formatScore(note.bert_score)}`] : []),
    ],
    reportSection: ({ scores: note, dataset, dir, ourLabel }) => {
      const byHeader =
        name.sectionHeaderTitle !== undefined
          ? sectionHeaderTable(dir, id, noteDatasetOf(dataset, task), name.sectionHeaderTitle)
          : undefined;
      return { tables: [headlineTable(name.title, note, ourLabel), ...(byHeader ? [byHeader] : [])], charts: [] };
    },
    scoreCommand: {
      description: `lm-eval ${id.replace(/-/g, "_")}: per-document BLEU and ROUGE-1/2/L, and BLEURT and BERTScore given a model source (nanmean).`,
      predictionsHelp: "JSONL, one line per document: {id, prediction: text}; - reads standard input",
      modelMetrics: ["bleurt", "bertscore"],
      print: (note) => printedScores(id, note),
    },
  });
}
