import type { RedFlagRules } from "../src/clinical/red-flags.ts";
import { bundledSemanticRedFlags, type SentenceEncoderName } from "../src/clinical/red-flags-encoder.ts";
import type { SemanticRedFlags, SentenceEncoder } from "../src/clinical/red-flags-semantic.ts";
import { sentencesOf } from "../src/clinical/red-flag-signs.ts";
import { RedFlagScreen } from "../src/clinical/red-flag-screen.ts";
import { loadMeditod } from "../src/data/meditod.ts";
import { Conversation } from "../src/dialogue-manager/conversation.ts";
import { defaultCacheDir } from "../src/backends/response-cache.ts";
import { buildEmbeddedEngine } from "../src/modules/embedded/index.ts";

/**
 * A chat turn's cost in-process (`Conversation.say`, embedded engine), two ways, since a busy machine
 * makes wall time alone mislead: wall time, and the process's CPU time (`process.cpuUsage`: every
 * thread, the encoder's too). The encoding of one new sentence is timed alone as well: while it runs
 * the main thread only waits, so its CPU time is the encoder thread's.
 */

/** Long enough that a timed turn waits for its encoding, as a live turn does on an idle machine. */
const TIMING_WAIT_MS = 600_000;

/** The p50 and p95 of a list of times, in milliseconds. */
interface Percentiles {
  readonly p50: number;
  readonly p95: number;
}

/** A turn's cost, each measure's p50 and p95 over the turns timed. */
export interface TurnCost {
  readonly turns: number;
  readonly wallMs: Percentiles;
  readonly cpuMs: Percentiles;
}

function percentiles(times: readonly number[]): Percentiles {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: Number(at(0.5).toFixed(2)), p95: Number(at(0.95).toFixed(2)) };
}

/** What each call cost, wall and CPU time (every thread), as percentiles. */
async function costOf(calls: AsyncIterable<() => Promise<unknown>>): Promise<TurnCost> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for await (const call of calls) {
    const before = process.cpuUsage();
    const started = performance.now();
    await call();
    wall.push(performance.now() - started);
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
  }
  return { turns: wall.length, wallMs: percentiles(wall), cpuMs: percentiles(cpu) };
}

/** The patient turns of the sample's non-test dialogues, one list per dialogue. */
function patientScripts(): string[][] {
  const dataset = loadMeditod();
  const held = new Set(dataset.splits.test ?? []);
  return [...dataset.dialogues]
    .filter(([id]) => !held.has(id))
    .map(([, dialogue]) => dialogue.utterances.filter((u) => u.speaker === "patient").map((u) => u.text));
}

/** Each patient turn of the scripts as a call to `say()`, up to `limit`, with the given rules (null: none) and semantic signal (or none). */
async function* turns(
  engine: ReturnType<typeof buildEmbeddedEngine>,
  rules: RedFlagRules | null,
  semantic: SemanticRedFlags | null,
  limit: number,
): AsyncGenerator<() => Promise<unknown>> {
  let count = 0;
  for (const script of patientScripts()) {
    const conversation = new Conversation(engine, { redFlags: rules, semanticRedFlags: semantic });
    for (const text of script) {
      if (count >= limit || conversation.snapshot().ended) break;
      count += 1;
      yield () => conversation.say(text);
    }
  }
}

/** The red-flag screening alone, turn after turn (a new screen per script): what the rules add to a turn. */
async function* screenings(rules: RedFlagRules, limit: number): AsyncGenerator<() => Promise<unknown>> {
  let count = 0;
  for (const script of patientScripts()) {
    const screen = new RedFlagScreen(rules);
    for (let said = 1; said <= script.length && count < limit; said++, count++)
      yield async () => screen.flags({}, script.slice(0, said));
  }
}

/** One new sentence at a time through a warm encoder (the sample's, made new by a word before them): what the semantic signal adds to a turn. */
async function* sentences(semantic: SemanticRedFlags, limit: number): AsyncGenerator<() => Promise<unknown>> {
  const said = patientScripts().flat().flatMap(sentencesOf);
  for (let index = 0; index < Math.min(limit, said.length); index++)
    yield () => semantic.prepare([`again, ${said[index]!}`]);
}

/**
 * A chat turn's cost over the sample's non-test patient turns: after an untimed pass (the engine
 * warm), with no red flags at all (the engine's own cost), with the rules alone, and with a semantic
 * signal that is warm (its model loaded, the statements encoded) but has seen none of these sentences,
 * as in a live chat; then what each part adds alone: the red-flag screening of a turn, and the
 * encoding of one new sentence.
 */
export async function chatTurnCosts(
  rules: RedFlagRules,
  encoder: { readonly name: SentenceEncoderName; readonly load: () => Promise<SentenceEncoder> } | null,
  limit: number,
): Promise<Record<string, TurnCost>> {
  const engine = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });
  for await (const call of turns(engine, rules, null, limit)) await call();
  const noRedFlags = await costOf(turns(engine, null, null, limit));
  const rulesOnly = await costOf(turns(engine, rules, null, limit));
  const screening = await costOf(screenings(rules, limit));
  if (!encoder) return { noRedFlags, rulesOnly, screening };
  const fresh = bundledSemanticRedFlags(rules, {
    cacheDir: defaultCacheDir(process.env),
    waitMs: TIMING_WAIT_MS,
    encoder: encoder.name,
    loadEncoder: encoder.load,
  });
  await fresh.warmUp();
  await fresh.prepare(["warm the encoder up with one sentence"]);
  const semantic = await costOf(turns(engine, rules, fresh, limit));
  const oneSentence = await costOf(sentences(fresh, limit));
  return { noRedFlags, rulesOnly, screening, withSemantic: semantic, oneSentence };
}
