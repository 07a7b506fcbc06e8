import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { AnamnesisError } from "../foundation/errors.ts";
import { indexDocuments, readTableFile, type NoteDataset, type NoteDocument } from "./note-dataset.ts";
import { isStandardInput } from "./input-file.ts";
import { BUNDLED } from "../foundation/package-paths.ts";

/**
 * MTS-Dialog (abachaa/MTS-Dialog, CC BY 4.0): short doctor-patient dialogues, each with a clinical-note
 * section header and text. The bundled copy holds the four main CSVs (train 1,201, valid 100, test1 200,
 * test2 200; columns ID, section_header, section_text, dialogue).
 *
 * lm-eval's `mts_dialog` loads har1/MTS_Dialogue-Clinical_Note instead: the train and valid rows (1,301,
 * the ID counter restarting at the first valid row) with `section_text` rewritten into a four-field note
 * (`Symptoms: …\nDiagnosis: …\nHistory of Patient: …\nPlan of Action: …`). That mirror is only on
 * Hugging Face; a copy given as a file (CSV or JSONL, same columns) is used as is. On the bundled data
 * the target is the original `section_text`, so scores are not comparable with lm-eval's.
 */

export const BUNDLED_MTS_DIALOG_DIR = BUNDLED.mtsDialog;

export const MTS_DIALOG_SPLIT_FILES = {
  train: "MTS-Dialog-TrainingSet.csv",
  valid: "MTS-Dialog-ValidationSet.csv",
  test1: "MTS-Dialog-TestSet-1-MEDIQA-Chat-2023.csv",
  test2: "MTS-Dialog-TestSet-2-MEDIQA-Sum-2023.csv",
} as const;

const COLUMNS = ["ID", "section_header", "section_text", "dialogue"] as const;

/** The four-field note of the har1 mirror. */
const FOUR_FIELD_NOTE = /^Symptoms:[^]*\nDiagnosis:[^]*\nHistory of Patient:[^]*\nPlan of Action:/;

export function isFourFieldNote(text: string): boolean {
  return FOUR_FIELD_NOTE.test(text);
}

function documentOf(row: Record<string, string>, id: string): NoteDocument {
  return { id, input: row.dialogue!, target: row.section_text!, header: row.section_header! };
}

function loadDirectory(dir: string, bundled: boolean): NoteDataset {
  const base = existsSync(join(dir, MTS_DIALOG_SPLIT_FILES.train)) ? dir : join(dir, "Main-Dataset");
  const splits: Record<string, NoteDocument[]> = {};
  for (const [split, file] of Object.entries(MTS_DIALOG_SPLIT_FILES)) {
    const rows = readTableFile(join(base, file), COLUMNS, "MTS-Dialog file");
    splits[split] = rows.map((row) => documentOf(row, `${split}-${row.ID}`));
  }
  const name = bundled ? "MTS-Dialog (bundled abachaa/MTS-Dialog, CC BY 4.0)" : "MTS-Dialog (abachaa/MTS-Dialog layout)";
  return {
    task: "mts_dialog",
    dir: base.replace(/\/$/, ""),
    info: {
      name,
      source: base.replace(/\/$/, ""),
      target: "section_text as published (free-text note section)",
      comparable_with_lm_eval: false,
      note:
        "lm-eval's mts_dialog scores har1/MTS_Dialogue-Clinical_Note (the 1,301 train+valid rows with the note rewritten as Symptoms / Diagnosis / History of Patient / Plan of Action), which is only on Hugging Face; " +
        "this run scores the original section_text instead, so its numbers are not comparable with lm-eval's. Pass a copy of the mirror with --data FILE for lm-eval's targets.",
    },
    splits,
    defaultSplit: "valid",
    trainingSplit: "train",
    documents: indexDocuments(splits),
  };
}

function loadFile(path: string): NoteDataset {
  const rows = readTableFile(path, COLUMNS, "MTS-Dialog data file");
  // Document ids are 0-based row numbers, as lm-eval's doc_id: har1's IDs repeat (train then valid).
  const all = rows.map((row, index) => documentOf(row, String(index)));
  const restarts = rows.flatMap((row, index) => (index > 0 && Number(row.ID) <= Number(rows[index - 1]!.ID) ? [index] : []));
  const splits: Record<string, NoteDocument[]> = { all };
  if (restarts.length === 1) {
    splits.train = all.slice(0, restarts[0]);
    splits.valid = all.slice(restarts[0]);
  }
  const fourField = all.filter((document) => isFourFieldNote(document.target)).length;
  const mirror = fourField > all.length / 2;
  const layout = splits.train ? ` (train ${splits.train.length} + valid ${splits.valid!.length}, the ID counter restarting at row ${restarts[0]})` : "";
  const note = mirror
    ? `Targets are four-field notes as in har1/MTS_Dialogue-Clinical_Note, which lm-eval's mts_dialog scores (all 1,301 rows as its test split; split 'all' here)${all.length === 1301 ? "" : `; this file has ${all.length} rows, not 1,301`}. BLEURT and BERTScore are not computed.`
    : "Targets are not four-field notes, so this is not har1/MTS_Dialogue-Clinical_Note: numbers are not comparable with lm-eval's mts_dialog.";
  return {
    task: "mts_dialog",
    dir: path,
    info: {
      name: mirror ? "MTS-Dialog, har1/MTS_Dialogue-Clinical_Note format (user file)" : "MTS-Dialog (user file)",
      source: `${path}: ${all.length} rows${layout}`,
      target: mirror ? "four-field note (Symptoms / Diagnosis / History of Patient / Plan of Action)" : "section_text of the file",
      comparable_with_lm_eval: mirror && all.length === 1301,
      note,
    },
    splits,
    defaultSplit: "all",
    trainingSplit: splits.train ? "train" : "all",
    documents: indexDocuments(splits),
  };
}

/**
 * Loads MTS-Dialog: the bundled CSVs (no argument), a directory with the four main CSVs, or one data
 * file in the har1 layout (CSV or JSONL with ID, section_header, section_text, dialogue).
 */
export function loadMtsDialog(path?: string): NoteDataset {
  if (path !== undefined && isStandardInput(path)) return loadFile(path);
  const full = resolve(path ?? BUNDLED_MTS_DIALOG_DIR);
  if (!existsSync(full)) throw new AnamnesisError("FILE_NOT_FOUND", `MTS-Dialog data not found: ${full}`);
  if (!statSync(full).isDirectory()) return loadFile(full);
  return loadDirectory(full, [resolve(BUNDLED_MTS_DIALOG_DIR), resolve(BUNDLED_MTS_DIALOG_DIR, "..")].includes(full));
}
