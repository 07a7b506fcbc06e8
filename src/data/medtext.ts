import { AnamnesisError } from "../foundation/errors.ts";
import { indexDocuments, readTableFile, type NoteDataset } from "./note-dataset.ts";
import { resolveInputPath } from "./input-file.ts";

/**
 * MedText (BI55/MedText on Hugging Face, CC BY 4.0): 1,412 patient presentations (`Prompt`) with a
 * diagnosis and treatment (`Completion`). lm-eval's `medtext` scores every row (its train split as the
 * test split). The data is not bundled and cannot be fetched here: it loads from a CSV or JSONL file
 * the user gives, with `Prompt` and `Completion` columns.
 */

export const MEDTEXT_ROWS = 1412;

/** The one-line message when the data is missing. */
export const MEDTEXT_MISSING =
  "medtext needs the MedText data, which is not bundled: download BI55/MedText from Hugging Face (medtext_2.csv, CC BY 4.0) and pass it with --data FILE (CSV or JSONL with Prompt and Completion)";

export function loadMedtext(path?: string): NoteDataset {
  if (path === undefined) throw new AnamnesisError("FILE_NOT_FOUND", MEDTEXT_MISSING);
  const full = resolveInputPath(path);
  const rows = readTableFile(full, ["Prompt", "Completion"], "MedText data file");
  // Ids are 0-based row numbers, as lm-eval's doc_id.
  const all = rows.map((row, index) => ({ id: String(index), input: row.Prompt!, target: row.Completion! }));
  const splits = { all };
  const complete = all.length === MEDTEXT_ROWS;
  return {
    task: "medtext",
    dir: full,
    info: {
      name: "MedText (BI55/MedText, user file)",
      source: `${full}: ${all.length} rows`,
      target: "Completion (diagnosis and treatment)",
      comparable_with_lm_eval: complete,
      note: `lm-eval's medtext scores all ${MEDTEXT_ROWS} rows (split 'all' here)${complete ? "" : `; this file has ${all.length}`}. BLEURT and BERTScore are not computed.`,
    },
    splits,
    defaultSplit: "all",
    trainingSplit: "all",
    documents: indexDocuments(splits),
  };
}
