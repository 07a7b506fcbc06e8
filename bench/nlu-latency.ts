/**
 * How long the embedded NLU takes per patient turn: every patient turn of the non-test dialogues
 * (train, valid and the development dialogue), read with its history, `--rounds` times after one
 * warm-up round. Prints p50, p95 and the mean in milliseconds. Compare two checkouts on the same
 * machine state; timings on a busy machine are provisional.
 *
 *   npx tsx bench/nlu-latency.ts [--rounds 20]
 */
import { scriptArgs } from "./script-args.ts";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadMeditod } from "../src/data/meditod.ts";
import { buildEmbeddedEngine } from "../src/modules/embedded/index.ts";
import type { DialogueTurn } from "../src/language/module-interfaces.ts";

const { values } = scriptArgs({ options: { rounds: { type: "string", default: "20" } } });
const rounds = Number(values.rounds);
const main = loadMeditod();
const developmentDir = join(process.cwd(), "data", "meditod-dev");
const datasets = [main, ...(existsSync(join(developmentDir, "dialogs.json")) ? [loadMeditod(developmentDir)] : [])];
const engine = buildEmbeddedEngine(main, "train");

const turns: Array<{ utterance: string; history: DialogueTurn[] }> = [];
for (const dataset of datasets) {
  const held = new Set([...(dataset.splits.test ?? []), ...(dataset.splits.ood ?? [])]);
  for (const [id, dialogue] of dataset.dialogues) {
    if (held.has(id)) continue;
    const history: DialogueTurn[] = [];
    for (const utterance of dialogue.utterances) {
      if (utterance.speaker === "patient") turns.push({ utterance: utterance.text, history: [...history] });
      history.push({ speaker: utterance.speaker, text: utterance.text });
    }
  }
}

const times: number[] = [];
for (let round = 0; round <= rounds; round += 1) {
  for (const turn of turns) {
    const started = performance.now();
    await engine.nlu.understand(turn);
    if (round > 0) times.push(performance.now() - started);
  }
}
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!;
const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
console.log(
  `embedded NLU over ${turns.length} patient turns × ${rounds} rounds: p50 ${at(0.5).toFixed(3)} ms, p95 ${at(0.95).toFixed(3)} ms, mean ${mean.toFixed(3)} ms`,
);
