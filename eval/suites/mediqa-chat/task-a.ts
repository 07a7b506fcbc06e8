import { AnamnesisError } from "../../../src/foundation/errors.ts";
import type { NoteDataset, NoteDocument } from "../../../src/data/note-dataset.ts";
import type { NotePredictionLine } from "../../shared/predictions-file.ts";
import type { FormatError, SuiteExample } from "../../shared/suite.ts";
import type { ReportSection, ReportTable } from "../../shared/report-blocks.ts";
import { formatTable } from "../../shared/terminal-table.ts";
import { MTS_DIALOG_DATA, noteDatasetOf } from "../clinical-notes/note-data.ts";
import { MEDIQA_CHAT_A_ID } from "../clinical-notes/note-family.ts";
import { noteSuite } from "../clinical-notes/note-suite.ts";
import {
  TASK_A_EXEMPLARS,
  TaskAExemplarFinder,
  taskALabels,
  taskAPromptVersion,
  taskARequest,
} from "./task-a-prompt.ts";
import { runTaskAScore, TASK_A_RUN_FILE_SPLIT } from "./task-a-run-file.ts";
import { majorityHeader, scoreTaskALines, type TaskAScores } from "./task-a-scores.ts";

/**
 * MEDIQA-Chat 2023 task A as the challenge scored its header half: which of MTS-Dialog's 20 section
 * headers a short doctor–patient dialogue belongs under, scored by accuracy (the official test set is
 * `test1`, MTS-Dialog's TestSet-1 of the challenge). These are the official task A settings, not
 * lm-eval's `mts_dialog` ones (which generate the section text zero-shot and score BLEU and ROUGE;
 * that is the `mts-dialog` suite).
 */

const TASK_A_ID = MEDIQA_CHAT_A_ID;

/** What a prompted module sees, for run records. */
const PROTOCOL = `official MEDIQA-Chat 2023 task A (section header; not lm-eval's mts_dialog settings): one dialogue at a time, our prompt (prompts/mediqa-chat-a.v1.txt, the 20 headers with what each covers) as the system message, the ${TASK_A_EXEMPLARS} training dialogues nearest by BM25 as worked examples (dialogue, then its header), then the dialogue; greedy, a few tokens, read as one of the headers (else a format error, counted wrong); scored by accuracy against the gold header, ignoring case`;

/** Finders by dataset: the BM25 index over the training dialogues is built once per run. */
const finders = new WeakMap<NoteDataset, TaskAExemplarFinder>();
const labelSets = new WeakMap<NoteDataset, string[]>();

/** How one dialogue is predicted: the classifier names one of the training headers. */
function predictHeader(document: NoteDocument, dataset: NoteDataset): SuiteExample["predict"] {
  const finder = finders.get(dataset) ?? new TaskAExemplarFinder(dataset);
  finders.set(dataset, finder);
  const labels = labelSets.get(dataset) ?? taskALabels(dataset);
  labelSets.set(dataset, labels);
  return async (modules, options) => {
    if (!modules.classifier) throw new AnamnesisError("INVALID_ARGUMENT", `${TASK_A_ID} needs a text classifier`);
    const { label, ...info } = await modules.classifier.classify(
      taskARequest(document, finder.nearest(document), labels),
      options,
    );
    return { prediction: label, info };
  };
}

const accuracy = (fraction: number): string => `${(fraction * 100).toFixed(1)} %`;

/** The headline table: this run beside the floor that always names the most common training header. */
function headlineTable(scores: TaskAScores, ourLabel: string): ReportTable {
  const floor = scores.majority_floor;
  return {
    title: `MEDIQA-Chat 2023 task A, section header, split ${scores.split} (${scores.dialogues} of ${scores.split_dialogues} dialogues)`,
    header: ["model", "accuracy", "correct", "format errors"],
    rows: [
      [ourLabel, accuracy(scores.accuracy), `${scores.correct} / ${scores.dialogues}`, String(scores.format_errors)],
      [
        `floor: always ${floor.header} (the most common training header)`,
        accuracy(floor.accuracy),
        `${floor.correct} / ${scores.dialogues}`,
        "0",
      ],
    ],
    ours: 0,
  };
}

function reportSection({ scores, ourLabel }: { scores: TaskAScores; ourLabel: string }): ReportSection {
  const byHeader: ReportTable = {
    title: "MEDIQA-Chat task A by gold header",
    header: ["header", "dialogues", "correct", "accuracy"],
    rows: Object.entries(scores.by_header).map(([header, entry]) => [
      header,
      String(entry.dialogues),
      String(entry.correct),
      accuracy(entry.correct / entry.dialogues),
    ]),
  };
  return {
    tables: [headlineTable(scores, ourLabel), byHeader],
    charts: [
      {
        title: "MEDIQA-Chat task A accuracy",
        bars: [
          { label: "this run", value: scores.accuracy * 100, ours: true },
          { label: `always ${scores.majority_floor.header}`, value: scores.majority_floor.accuracy * 100, ours: false },
        ],
        max: 100,
      },
    ],
  };
}

function printScores(scores: TaskAScores): string {
  const table = formatTable(
    ["dialogues", "accuracy", "correct", "format errors", `floor (always ${scores.majority_floor.header})`],
    [
      [
        String(scores.dialogues),
        accuracy(scores.accuracy),
        String(scores.correct),
        String(scores.format_errors),
        accuracy(scores.majority_floor.accuracy),
      ],
    ],
  );
  const subset =
    scores.dialogues < scores.split_dialogues ? `; ${scores.dialogues} of its ${scores.split_dialogues} dialogues` : "";
  return `${TASK_A_ID} ${scores.split} (official MEDIQA-Chat 2023 task A: section-header accuracy${subset})\n${table}\n`;
}

/** The lines whose answer named no header, with the classifier's reason. */
function formatErrors(lines: readonly NotePredictionLine[]): FormatError[] {
  return lines
    .filter((line) => line.prediction === null)
    .map((line) => ({
      line,
      reason: typeof line.format_error === "string" ? line.format_error : "the answer named no section header",
    }));
}

/** MEDIQA-Chat 2023 task A: the section header of a short dialogue, scored by accuracy. */
export const MEDIQA_CHAT_A = noteSuite(
  { id: TASK_A_ID, task: "mts_dialog", data: MTS_DIALOG_DATA, title: "MEDIQA-Chat 2023 task A" },
  {
    module: "classifier",
    protocol: PROTOCOL,
    // Read when a run records it: the template file is read and hashed only for a prompted run.
    prompt: {
      module: "classifier",
      get version() {
        return taskAPromptVersion();
      },
    },
    predict: predictHeader,
    score: (dataset, lines) => scoreTaskALines(dataset, lines, majorityHeader(dataset)),
    resultCells: (scores: TaskAScores) => [
      String(scores.dialogues),
      `accuracy ${accuracy(scores.accuracy)}`,
      `floor ${accuracy(scores.majority_floor.accuracy)}`,
    ],
    reportSection,
    scoreFile: runTaskAScore,
    formatErrors: (lines, dataset) => {
      noteDatasetOf(dataset, "mts_dialog");
      return formatErrors(lines as readonly NotePredictionLine[]);
    },
    scoreCommand: {
      description:
        "MEDIQA-Chat 2023 task A (official settings, not lm-eval's mts_dialog): section-header accuracy over MTS-Dialog dialogues (the challenge's test set is test1).",
      predictionsHelp:
        'the challenge\'s run file (CSV: TestID, SystemOutput1 = the header, SystemOutput2), or JSONL, one line per dialogue: {id, prediction: section header or null}, e.g. {"id": "test1-0", "prediction": "GENHX"}; - reads standard input',
      splitHelp: `with a run file (CSV), the gold split it answers (default: ${TASK_A_RUN_FILE_SPLIT}, the challenge's test set)`,
      print: printScores,
    },
  },
);
