/**
 * Writes `data/mts-dialog/training-vocabulary.txt` from MTS-Dialog's training CSV (see
 * conversation-vocabulary.ts): `npx tsx src/modules/embedded/nlu/generate-conversation-vocabulary.ts`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUNDLED_MTS_DIALOG_DIR, MTS_DIALOG_SPLIT_FILES } from "../../../data/mts-dialog.ts";
import { BUNDLED } from "../../../foundation/package-paths.ts";
import { deriveConversationVocabulary } from "./conversation-vocabulary.ts";

/** The vocabulary file's text as the bundled training CSV gives it. */
export function renderConversationVocabulary(): string {
  const csv = readFileSync(join(BUNDLED_MTS_DIALOG_DIR, MTS_DIALOG_SPLIT_FILES.train), "utf8");
  return `${deriveConversationVocabulary(csv).join("\n")}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(BUNDLED.mtsDialogVocabulary, renderConversationVocabulary());
  console.log(`wrote ${BUNDLED.mtsDialogVocabulary}`);
}
