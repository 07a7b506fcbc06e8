import { extname } from "node:path";
import { AnamnesisError } from "../foundation/errors.ts";
import { parseCsvObjects } from "./csv.ts";
import { inputName, readInputText } from "./input-file.ts";
import { parseJsonLines } from "./json-lines.ts";

/**
 * Clinical-note datasets as lm-evaluation-harness's `mts_dialog` and `medtext` tasks see them: documents
 * with an input (`doc_to_text`) and a target (`doc_to_target`), grouped into splits.
 */

/**
 * The task a dataset feeds: lm-eval's `mts_dialog` and `medtext` (the task fixes the prompt and the
 * scorer's length gate), or ACI-Bench's full visit note (`aci_bench`, scored as its official script).
 */
export type NoteTask = "mts_dialog" | "medtext" | "aci_bench";

export interface NoteDocument {
  /** Unique in the dataset; what predictions files call `id`. */
  readonly id: string;
  /** What the model reads (`doc_to_text`): the dialogue, or MedText's Prompt. */
  readonly input: string;
  /** The reference (`doc_to_target`): the note section, or MedText's Completion. */
  readonly target: string;
  /** MTS-Dialog's section header (never shown to a model). */
  readonly header?: string;
}

/** What results.json and the report say about the data a run used. */
export interface NoteDatasetInfo {
  readonly name: string;
  /** The bundled directory or the user's file. */
  readonly source: string;
  readonly target: string;
  readonly comparable_with_lm_eval: boolean;
  /** One or two sentences a reader of the report needs: where the data is from, how it differs from lm-eval's. */
  readonly note: string;
}

export interface NoteDataset {
  readonly task: NoteTask;
  /** The directory or file the data was read from (recorded in run.json; a resumed run must use the same). */
  readonly dir: string;
  readonly info: NoteDatasetInfo;
  readonly splits: Readonly<Record<string, readonly NoteDocument[]>>;
  readonly defaultSplit: string;
  /** The split an offline engine learns from (it never reads the target of the document it is asked about). */
  readonly trainingSplit: string;
  readonly documents: ReadonlyMap<string, NoteDocument>;
}

/** The documents of a split; an unknown split is an error listing the dataset's splits. */
export function noteSplit(dataset: NoteDataset, split: string): readonly NoteDocument[] {
  const documents = dataset.splits[split];
  if (!documents) {
    throw new AnamnesisError("UNKNOWN_SPLIT", `${dataset.info.name} has no split '${split}' (available: ${Object.keys(dataset.splits).join(", ")})`);
  }
  return documents;
}

export function indexDocuments(splits: Readonly<Record<string, readonly NoteDocument[]>>): Map<string, NoteDocument> {
  const documents = new Map<string, NoteDocument>();
  for (const list of Object.values(splits)) for (const document of list) documents.set(document.id, document);
  return documents;
}

/**
 * Rows of a user's data file: CSV with a header row (`.csv`, or any file not starting with `{`), or JSON
 * Lines with one object per row (`.jsonl`, `.ndjson`, or a first character `{`). Every row must have the
 * `columns`; JSONL numbers become strings.
 */
export function readTableFile(path: string, columns: readonly string[], what: string): Array<Record<string, string>> {
  const text = readInputText(path, what);
  const source = inputName(path);
  const extension = extname(path).toLowerCase();
  const jsonl = extension === ".jsonl" || extension === ".ndjson" || (extension !== ".csv" && text.replace(/^\ufeff/, "").trimStart().startsWith("{"));
  const rows: Array<{ where: string; row: Record<string, unknown> }> = jsonl
    ? parseJsonLines(text, source).map(({ line, value }) => {
        if (value === null || typeof value !== "object" || Array.isArray(value)) throw new AnamnesisError("INVALID_DATA", `${source}:${line}: expected a JSON object with ${columns.join(", ")}`);
        return { where: `${source}:${line}`, row: value as Record<string, unknown> };
      })
    : parseCsvObjects(text, { source }).map((row, index) => ({ where: `${source}: record ${index + 1}`, row }));
  if (rows.length === 0) throw new AnamnesisError("INVALID_DATA", `${source}: no rows`);
  return rows.map(({ where, row }) => {
    const missing = columns.filter((column) => !(column in row));
    if (missing.length > 0) {
      throw new AnamnesisError("INVALID_DATA", `${where}: no column ${missing.map((column) => `'${column}'`).join(", ")} (expected ${columns.join(", ")}; found ${Object.keys(row).join(", ") || "none"})`);
    }
    return Object.fromEntries(
      columns.map((column) => {
        const value = row[column];
        if (typeof value === "number") return [column, String(value)];
        if (typeof value !== "string") throw new AnamnesisError("INVALID_DATA", `${where}: '${column}' must be a string`);
        return [column, value];
      }),
    );
  });
}
