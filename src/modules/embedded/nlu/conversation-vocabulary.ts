import { readFileSync } from "node:fs";
import { BUNDLED } from "../../../foundation/package-paths.ts";

/**
 * Everyday and clinical English as patients and doctors speak it: the words that occur at least twice
 * in MTS-Dialog's training set (1,201 doctor–patient conversations and their notes; CC BY 4.0, bundled
 * in `data/mts-dialog/`). The spelling corrector never "corrects" these ("overnight" is not a
 * misspelling of "overweight"). Only the training split is read, so the MTS-Dialog note suites'
 * evaluation splits stay unseen.
 *
 * The list is derived once into `data/mts-dialog/training-vocabulary.txt` (one word per line, in order
 * of first occurrence; regenerate with `npx tsx src/modules/embedded/nlu/generate-conversation-vocabulary.ts`,
 * and a test fails when it is stale): counting the 1 MB file's words took 40 ms of every start.
 */
let vocabulary: ReadonlySet<string> | undefined;

/** The words of an MTS-Dialog CSV's text that occur at least twice, lower-cased, in order of first occurrence. */
export function deriveConversationVocabulary(csvText: string): string[] {
  const counts = new Map<string, number>();
  for (const word of csvText.toLowerCase().match(/[a-z]+/g) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
  return [...counts].filter(([, count]) => count >= 2).map(([word]) => word);
}

export function conversationVocabulary(): ReadonlySet<string> {
  vocabulary ??= new Set(readFileSync(BUNDLED.mtsDialogVocabulary, "utf8").split("\n").filter(Boolean));
  return vocabulary;
}
