/**
 * Text pairs of real clinical notes for the whole-process metric timings (`bench/startup.ts`,
 * `bench/metrics-python.ts`): each MTS-Dialog note section (reference) against another dialogue's
 * section (prediction), as a retrieval baseline answers. Deterministic, so every run scores the same
 * text.
 */
import { loadMtsDialog } from "../src/data/mts-dialog.ts";

/** `count` pairs as `metrics pairs` input: JSON Lines of {"id", "prediction", "reference"}. */
export function mtsDialogPairs(count: number): string {
  const documents = Object.values(loadMtsDialog().splits).flat();
  const lines: string[] = [];
  for (let index = 0; lines.length < count; index++) {
    const reference = documents[index % documents.length]!.target;
    const prediction = documents[(index * 7 + 3) % documents.length]!.target;
    lines.push(JSON.stringify({ id: index, prediction, reference }));
  }
  return `${lines.join("\n")}\n`;
}
