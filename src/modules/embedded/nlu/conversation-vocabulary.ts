import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BUNDLED_MTS_DIALOG_DIR, MTS_DIALOG_SPLIT_FILES } from "../../../data/mts-dialog.ts";

/**
 * Everyday and clinical English as patients and doctors speak it: the words that occur at least twice
 * in MTS-Dialog's training set (1,201 doctor–patient conversations and their notes; CC BY 4.0, bundled
 * in `data/mts-dialog/`). The spelling corrector never "corrects" these ("overnight" is not a
 * misspelling of "overweight"). Only the training split is read, so the MTS-Dialog note suites'
 * evaluation splits stay unseen.
 */
let vocabulary: ReadonlySet<string> | undefined;

export function conversationVocabulary(): ReadonlySet<string> {
  if (vocabulary) return vocabulary;
  const text = readFileSync(join(BUNDLED_MTS_DIALOG_DIR, MTS_DIALOG_SPLIT_FILES.train), "utf8").toLowerCase();
  const counts = new Map<string, number>();
  for (const word of text.match(/[a-z]+/g) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
  vocabulary = new Set([...counts].filter(([, count]) => count >= 2).map(([word]) => word));
  return vocabulary;
}
