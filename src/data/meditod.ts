import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as z from "zod";
import { AnamnesisError } from "../foundation/errors.ts";
import { describeIssues, type DialogueState, type DoctorAction, type NluFrame } from "../cmas/schemas.ts";
import { BUNDLED } from "../foundation/package-paths.ts";

/**
 * The MediTOD dataset: `dialogs.json` plus split id files, in the format of dair-iitd/MediTOD `data/`.
 * The bundled copy is the public 3-dialogue sample; the full canonicalized release (UMLS licence and
 * the authors' request form) has the same format and loads from its directory with `--data DIR`.
 */

/** The bundled public sample. */
export const BUNDLED_MEDITOD_DIR = BUNDLED.meditod;

/** The split names MediTOD's id files define (`ood` only in the full release). */
export const SPLITS = ["train", "valid", "test", "ood"] as const;
/** A MediTOD split name. */
export type Split = (typeof SPLITS)[number];

// Loose on attribute and slot names: the full release may use names the public sample does not show,
// and gold data must load even then. Predictions are validated strictly against the ontology instead.
const attributeValue = z.union([z.string(), z.array(z.string())]);
const entry = z.record(z.string(), attributeValue);
const frame = z.looseObject({ intent: z.string(), slots: z.record(z.string(), z.array(entry)).optional() });
const actionEntry = z.looseObject({
  value: z.string().optional(),
  checks: z.array(z.looseObject({ type: z.string().optional(), values: z.array(z.string()).optional() })).optional(),
});
const action = z.looseObject({ action: z.string() }).catchall(z.union([z.string(), z.array(actionEntry)]));
const common = { uttr_id: z.number().int().nonnegative(), text: z.string(), keywords: z.array(z.string()).optional() };
const utterance = z.discriminatedUnion("speaker", [
  z.looseObject({
    speaker: z.literal("patient"),
    ...common,
    nlu: z.array(frame),
    dialog_state: z.record(z.string(), z.array(entry)),
  }),
  z.looseObject({ speaker: z.literal("doctor"), ...common, actions: z.array(action) }),
]);
const dialogsFile = z.record(z.string(), z.looseObject({ utterances: z.array(utterance) }));
const idsFile = z.array(z.union([z.string(), z.number()]).transform(String));

/** A patient utterance: its text, NLU frames and the dialogue state after it. */
export interface PatientUtterance {
  speaker: "patient";
  uttr_id: number;
  text: string;
  keywords?: string[];
  nlu: NluFrame[];
  dialog_state: DialogueState;
}
/** A doctor utterance: its text and the doctor actions it carries. */
export interface DoctorUtterance {
  speaker: "doctor";
  uttr_id: number;
  text: string;
  keywords?: string[];
  actions: DoctorAction[];
}
/** An utterance of either speaker. */
export type Utterance = PatientUtterance | DoctorUtterance;

/** One MediTOD dialogue: its id and utterances in order. */
export interface Dialogue {
  id: string;
  utterances: Utterance[];
}

/** A loaded MediTOD dataset: dialogues by id and the ids of each split. */
export interface MeditodDataset {
  /** The directory it was read from. */
  dir: string;
  dialogues: Map<string, Dialogue>;
  /** Dialogue ids per split; `ood` only when the release has an out-of-domain split. */
  splits: Partial<Record<Split, string[]>>;
}

function readJson(path: string, what: string): unknown {
  if (!existsSync(path)) throw new AnamnesisError("FILE_NOT_FOUND", `${what} not found: ${path}`);
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new AnamnesisError("INVALID_JSON", `${what} is not valid JSON: ${path} (${(error as Error).message})`);
  }
}

/** File names tried for each split's id list (the public repo has the first; OOD has no public file). */
const SPLIT_FILES: Record<Split, string[]> = {
  train: ["train_ids.json"],
  valid: ["valid_ids.json", "dev_ids.json"],
  test: ["test_ids.json"],
  ood: ["ood_ids.json", "ood_test_ids.json", "musculoskeletal_ids.json"],
};

const cache = new Map<string, MeditodDataset>();

/** `dialogs.json` of a MediTOD directory, checked against the format (see {@link readDialogs}). */
type DialogsFile = z.infer<typeof dialogsFile>;

/**
 * Validates a parsed `dialogs.json`; throws an {@link AnamnesisError} naming the JSON path of anything
 * malformed.
 */
export function checkDialogs(json: unknown, path: string): DialogsFile {
  const parsed = dialogsFile.safeParse(json);
  if (!parsed.success) throw new AnamnesisError("INVALID_DATA", `${path} does not have MediTOD's format: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/**
 * Reads `dialogs.json`. A directory the user gives is validated; the bundled sample is not validated
 * again at every start (40 ms of `npm run bench`): it ships with the package, and a test validates it.
 */
function readDialogs(path: string, bundled: boolean): DialogsFile {
  const json = readJson(path, "MediTOD dialogs.json");
  return bundled ? (json as DialogsFile) : checkDialogs(json, path);
}

/**
 * Loads MediTOD from a directory holding `dialogs.json` and the split id files (default: the bundled
 * sample). Throws an {@link AnamnesisError} naming the file and the JSON path of anything malformed.
 */
export function loadMeditod(dir: string = BUNDLED_MEDITOD_DIR): MeditodDataset {
  const absolute = resolve(dir);
  const cached = cache.get(absolute);
  if (cached) return cached;
  if (!existsSync(absolute)) throw new AnamnesisError("FILE_NOT_FOUND", `MediTOD data directory not found: ${absolute}`);

  const dialogsPath = join(absolute, "dialogs.json");
  const dialogues = new Map<string, Dialogue>();
  for (const [id, dialogue] of Object.entries(readDialogs(dialogsPath, absolute === resolve(BUNDLED_MEDITOD_DIR)))) {
    const utterances = dialogue.utterances as unknown as Utterance[];
    utterances.forEach((utterance, index) => {
      if (utterance.uttr_id !== index) {
        throw new AnamnesisError("INVALID_DATA", `${dialogsPath}: dialogue ${id} utterance ${index} has uttr_id ${utterance.uttr_id}`);
      }
    });
    dialogues.set(id, { id, utterances });
  }

  const splits: MeditodDataset["splits"] = {};
  for (const split of SPLITS) {
    const file = SPLIT_FILES[split].map((name) => join(absolute, name)).find((path) => existsSync(path));
    if (!file) {
      if (split === "ood") continue;
      throw new AnamnesisError("FILE_NOT_FOUND", `MediTOD split file not found: ${join(absolute, SPLIT_FILES[split][0]!)}`);
    }
    const ids = idsFile.safeParse(readJson(file, `MediTOD ${split} ids`));
    if (!ids.success) throw new AnamnesisError("INVALID_DATA", `${file} is not a list of dialogue ids: ${describeIssues(ids.error)}`);
    const missing = ids.data.filter((id) => !dialogues.has(id));
    if (missing.length > 0) {
      throw new AnamnesisError("INVALID_DATA", `${file} names dialogues missing from dialogs.json: ${missing.slice(0, 5).join(", ")}`);
    }
    splits[split] = ids.data;
  }
  const dataset = { dir: absolute, dialogues, splits };
  cache.set(absolute, dataset);
  return dataset;
}

/** The dialogue ids of a split; throws when the release has no such split. */
export function splitIds(dataset: MeditodDataset, split: Split): string[] {
  const ids = dataset.splits[split];
  if (!ids) {
    throw new AnamnesisError("UNKNOWN_SPLIT", `the MediTOD data in ${dataset.dir} has no '${split}' split (ood needs ood_ids.json)`);
  }
  return ids;
}

/** Looks a dialogue up by id, or throws UNKNOWN_DIALOGUE. */
export function getDialogue(dataset: MeditodDataset, id: string): Dialogue {
  const dialogue = dataset.dialogues.get(id);
  if (!dialogue) throw new AnamnesisError("UNKNOWN_DIALOGUE", `unknown dialogue '${id}' (not in ${join(dataset.dir, "dialogs.json")})`);
  return dialogue;
}

export interface SplitStats {
  dialogues: number;
  utterances: number;
  patient_turns: number;
  doctor_turns: number;
}

/** Counts per split, as `anamnesis data stats` prints them. */
export function datasetStats(dataset: MeditodDataset): Partial<Record<Split, SplitStats>> {
  const stats: Partial<Record<Split, SplitStats>> = {};
  for (const split of SPLITS) {
    const ids = dataset.splits[split];
    if (!ids) continue;
    const counts: SplitStats = { dialogues: ids.length, utterances: 0, patient_turns: 0, doctor_turns: 0 };
    for (const id of ids) {
      for (const utterance of getDialogue(dataset, id).utterances) {
        counts.utterances += 1;
        if (utterance.speaker === "patient") counts.patient_turns += 1;
        else counts.doctor_turns += 1;
      }
    }
    stats[split] = counts;
  }
  return stats;
}
