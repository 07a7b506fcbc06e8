import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AnamnesisError } from "../../foundation/errors.ts";
import type { MeditodDataset } from "../../data/meditod.ts";

/**
 * MediTOD's dialogues exactly as Python's `json.load` sees them, for the official protocol: parsed
 * with `JSON.parse` and nothing else, so every object keeps the key order of `dialogs.json` (our zod
 * loader may reorder optional attributes, and the prompts `json.dumps` states and actions verbatim).
 */

export type RawJson = null | boolean | number | string | RawJson[] | { [key: string]: RawJson };
export type RawObject = { [key: string]: RawJson };

export interface RawUtterance {
  readonly speaker: string;
  readonly text: string;
  readonly nlu?: RawObject[];
  readonly actions?: RawJson;
  readonly dialog_state?: RawJson;
}

export type RawDialogues = ReadonlyMap<string, readonly RawUtterance[]>;

const loaded = new Map<string, RawDialogues>();

/** The raw dialogues of a loaded dataset (read once per directory). */
export function rawDialogues(dataset: MeditodDataset): RawDialogues {
  const cached = loaded.get(dataset.dir);
  if (cached) return cached;
  const parsed = JSON.parse(readFileSync(join(dataset.dir, "dialogs.json"), "utf8")) as Record<
    string,
    { utterances: RawUtterance[] }
  >;
  const dialogues = new Map(Object.entries(parsed).map(([id, dialogue]) => [id, dialogue.utterances]));
  loaded.set(dataset.dir, dialogues);
  return dialogues;
}

/** One dialogue's utterances, or an error naming the id. */
export function rawDialogue(dialogues: RawDialogues, id: string): readonly RawUtterance[] {
  const utterances = dialogues.get(id);
  if (!utterances) throw new AnamnesisError("UNKNOWN_DIALOGUE", `unknown dialogue '${id}'`);
  return utterances;
}
