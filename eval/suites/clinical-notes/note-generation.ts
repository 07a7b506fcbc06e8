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
        "n/a",
        "n/a",
        `${Math.max(nan.bleu, nan.rouge1)} (${nan.length_gate})`,
      ],
    ],
    ours: 0,
  };
}

/** What `anamnesis score <id>` prints for a note-generation suite. */
function printedScores(id: string, note: NoteGenerationScores): string {
  const row = [
    String(note.samples),
    formatScore(note.bleu),
    formatScore(note.rouge1),
    formatScore(note.rouge2),
    formatScore(note.rougeL),
    String(note.nan_counts.rougeL),
  ];
  const table = formatTable(["documents", "BLEU", "ROUGE-1", "ROUGE-2", "ROUGE-L", "NaN"], [row]);
  return `${id}\n${table}\n(${note.unavailable})\n`;
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
    prompt: { module: "note", version: notePromptVersion(task) },
    predict: (document) => async (modules, options) => {
      if (!modules.note) throw new AnamnesisError("INVALID_ARGUMENT", `${id} needs a note writer`);
      const { text, ...info } = await modules.note.write(
        { instructions: LM_EVAL_DESCRIPTIONS[task], input: document.input },
        options,
      );
      return { prediction: text, info };
    },
    score: (dataset, lines) => scoreNotePredictions(dataset, lines),
    resultCells: (note: NoteGenerationScores) => [
      String(note.samples),
      `BLEU ${formatScore(note.bleu)}`,
      `ROUGE-1 ${formatScore(note.rouge1)}`,
      `ROUGE-2 ${formatScore(note.rouge2)}`,
      `ROUGE-L ${formatScore(note.rougeL)}`,
    ],
    reportSection: ({ scores: note, dataset, dir, ourLabel }) => {
      const byHeader =
        name.sectionHeaderTitle !== undefined
          ? sectionHeaderTable(dir, id, noteDatasetOf(dataset, task), name.sectionHeaderTitle)
          : undefined;
      return { tables: [headlineTable(name.title, note, ourLabel), ...(byHeader ? [byHeader] : [])], charts: [] };
    },
    scoreCommand: {
      description: `lm-eval ${id.replace(/-/g, "_")}: per-document BLEU and ROUGE-1/2/L (nanmean); BLEURT and BERTScore are null.`,
      predictionsHelp: "JSONL, one line per document: {id, prediction: text}; - reads standard input",
      print: (note) => printedScores(id, note),
    },
  });
}
