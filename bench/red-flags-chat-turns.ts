import type { RedFlagRules } from "../src/clinical/red-flags.ts";
import { bundledSemanticRedFlags } from "../src/clinical/red-flags-encoder.ts";
import type { SemanticRedFlags } from "../src/clinical/red-flags-semantic.ts";
import { loadMeditod } from "../src/data/meditod.ts";
import { Conversation } from "../src/dialogue-manager/conversation.ts";
import { defaultCacheDir } from "../src/backends/response-cache.ts";
import { buildEmbeddedEngine } from "../src/modules/embedded/index.ts";

/** p50 and p95 of a list of times, in milliseconds. */
function percentiles(times: number[]): { p50: number; p95: number; turns: number } {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: Number(at(0.5).toFixed(2)), p95: Number(at(0.95).toFixed(2)), turns: times.length };
}

/** The patient turns of the sample's non-test dialogues, one list per dialogue. */
function patientScripts(): string[][] {
  const dataset = loadMeditod();
  const held = new Set(dataset.splits.test ?? []);
  return [...dataset.dialogues]
    .filter(([id]) => !held.has(id))
    .map(([, dialogue]) => dialogue.utterances.filter((u) => u.speaker === "patient").map((u) => u.text));
}

/** Times `say()` over the scripts, up to `limit` turns, with the given semantic signal (warm) or none. */
async function timeTurns(rules: RedFlagRules, semantic: SemanticRedFlags | null, limit: number): Promise<number[]> {
  const engine = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });
  const times: number[] = [];
  for (const script of patientScripts()) {
    const conversation = new Conversation(engine, { redFlags: rules, semanticRedFlags: semantic });
    for (const text of script) {
      if (times.length >= limit || conversation.snapshot().ended) break;
      const started = performance.now();
      await conversation.say(text);
      times.push(performance.now() - started);
    }
  }
  return times;
}

/**
 * A chat turn's time in-process (`Conversation.say`, embedded engine): the sample's non-test patient
 * turns, once with the rules alone and once with a semantic signal that is warm (encoder loaded,
 * statements encoded) but has seen none of these sentences, as in a live chat.
 */
export async function chatTurnTimes(
  rules: RedFlagRules,
  semantic: SemanticRedFlags | null,
  limit: number,
): Promise<Record<string, { p50: number; p95: number; turns: number }>> {
  const rulesOnly = percentiles(await timeTurns(rules, null, limit));
  if (!semantic) return { rulesOnly };
  const fresh = bundledSemanticRedFlags(rules, { cacheDir: defaultCacheDir(process.env) });
  await fresh.warmUp();
  await fresh.prepare(["warm the encoder up with one sentence"]);
  return { rulesOnly, withSemantic: percentiles(await timeTurns(rules, fresh, limit)) };
}
