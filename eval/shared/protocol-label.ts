import { BUNDLED_MEDITOD_DIR, type Split } from "../../src/data/meditod.ts";
import { EMBEDDED_BACKEND_ID } from "../../src/modules/builders/create-modules.ts";
import { isConsultDataset, isNoteDataset, type BenchDataset } from "./bench-dataset.ts";

/**
 * What every output says about how its figures were made: the protocol in one line, and whether the
 * embedded engine ran on dialogues it was shaped on (its figures there are not estimates).
 */

/** Dialogues the embedded engine's lexicon, plan and wording were shaped on while reading them. */
const SHAPED_ON: Readonly<Record<string, string>> = {
  "317": "the lexicon, the plan and the wording were shaped while reading dialogue 317",
  RES0001: "reading rules were fixed on the development dialogue RES0001",
};

/**
 * For an embedded-engine run on MediTOD data: why its figures on this split are not a plain result
 * (`tuned on this split: …` or `trained on this split`), or null.
 */
export function tunedOnSplit(
  backend: string,
  dataset: BenchDataset,
  split: string,
  trainSplit: string = "train",
): string | null {
  if (backend !== EMBEDDED_BACKEND_ID || isNoteDataset(dataset) || isConsultDataset(dataset)) return null;
  if (split === trainSplit) return "trained on this split: the engine is built from these dialogues";
  const ids = dataset.splits[split as Split] ?? [];
  const reasons = ids.flatMap((id) => (SHAPED_ON[id] ? [SHAPED_ON[id]] : []));
  if (reasons.length > 0) return `tuned on this split: ${reasons.join("; ")}`;
  return dataset.dir === BUNDLED_MEDITOD_DIR && split === "valid" ? "tuned on this split" : null;
}

/** The short form shown beside figures. */
export function tunedMark(reason: string | null | undefined): string {
  if (!reason) return "";
  return reason.startsWith("trained") ? "trained on this split" : "tuned on this split";
}

/** A recorded protocol value as text: strings as they are, anything else as its JSON. */
function asText(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
}

/** One line naming the protocol, prompt source (and commit), retrieval, embedding model and decoding: `official; prompts …`. */
export function describeProtocol(protocol: Readonly<Record<string, unknown>>): string {
  const name = asText(protocol.name ?? "unrecorded");
  const decoding = protocol.decoding as Record<string, unknown> | undefined;
  const parts = [name];
  if (protocol.prompt_source)
    parts.push(
      `prompts ${asText(protocol.prompt_source)}${protocol.meditod_commit ? ` @ ${asText(protocol.meditod_commit)}` : ""}`,
    );
  if (protocol.retrieval) parts.push(`retrieval ${asText(protocol.retrieval)}`);
  if (protocol.embedding_model) parts.push(`embeddings ${asText(protocol.embedding_model)}`);
  if (decoding) {
    const settings = Object.entries(decoding).map(
      ([key, value]) => `${key} ${value === null ? "none" : asText(value)}`,
    );
    parts.push(`decoding ${settings.join(", ")}`);
  }
  return parts.join("; ");
}
