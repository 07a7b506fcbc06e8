/**
 * The embedded engine's speed: the whole `npm run bench` (three MediTOD suites, test split, a fresh
 * run directory) as a user runs it, and chat-turn latency (NLU → state → policy → NLG through the
 * dialogue manager) over simulated conversations.
 *
 *   npx tsx bench/embedded.ts [--runs 5] [--conversations 20] [--json]
 */
import { scriptArgs } from "./script-args.ts";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadMeditod } from "../src/data/meditod.ts";
import { Conversation } from "../src/dialogue-manager/conversation.ts";
import { buildEmbeddedEngine } from "../src/modules/embedded/index.ts";
import { PatientSimulator, caseFromDialogue } from "../src/simulator/patient-simulator.ts";
import { benchOutput, median } from "./json-output.ts";

const { values } = scriptArgs({
  options: {
    runs: { type: "string", default: "5" },
    conversations: { type: "string", default: "20" },
    json: { type: "boolean", default: false },
  },
});
const out = benchOutput();
const runs = Number(values.runs);
const conversations = Number(values.conversations);
const bin = fileURLToPath(new URL("../bin/anamnesis.js", import.meta.url));

const quantile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

// 1. npm run bench, end to end, in a child process (start-up included).
const seconds: number[] = [];
for (let run = 0; run < runs; run += 1) {
  const out = mkdtempSync(join(tmpdir(), "anamnesis-bench-"));
  const started = performance.now();
  const result = spawnSync(process.execPath, [bin, "bench", "--suite", "meditod", "--split", "test", "--out", out], {
    encoding: "utf8",
  });
  seconds.push((performance.now() - started) / 1000);
  rmSync(out, { recursive: true, force: true });
  if (result.status !== 0) throw new Error(`bench failed: ${result.stderr}`);
}
seconds.sort((a, b) => a - b);
const benchCommand = { runs, medianWall: median(seconds), maxWall: seconds.at(-1)! };
out.line(
  `anamnesis bench (3 suites, test split, embedded): median ${benchCommand.medianWall.toFixed(2)} s, max ${benchCommand.maxWall.toFixed(2)} s over ${runs} runs`,
);

// 2. Chat turns with simulated patients (cases from the train and valid dialogues).
const dataset = loadMeditod();
const buildStarted = performance.now();
const engine = buildEmbeddedEngine(dataset, "train", { wording: "clean" });
const buildMs = performance.now() - buildStarted;
const cases = [...(dataset.splits.train ?? []), ...(dataset.splits.valid ?? [])].map((id) =>
  caseFromDialogue(dataset, id),
);
const turnMs: number[] = [];
for (let index = 0; index < conversations; index += 1) {
  const simulator = new PatientSimulator(cases[index % cases.length]!);
  const conversation = new Conversation(engine, { maxDoctorTurns: 60 });
  let outcome = await conversation.say(simulator.openingStatement());
  turnMs.push(outcome.elapsedMs);
  while (!outcome.ended && outcome.error === null) {
    outcome = await conversation.say(simulator.answer(outcome.actions));
    turnMs.push(outcome.elapsedMs);
  }
}
turnMs.sort((a, b) => a - b);
const chatTurn = {
  conversations,
  turns: turnMs.length,
  p50Ms: quantile(turnMs, 0.5),
  p95Ms: quantile(turnMs, 0.95),
  maxMs: turnMs.at(-1)!,
};
out.line(`engine build: ${buildMs.toFixed(0)} ms (trained on ${engine.trainedOn.join(", ")})`);
out.line(
  `chat turn (embedded, ${chatTurn.turns} turns in ${conversations} simulated conversations): p50 ${chatTurn.p50Ms.toFixed(2)} ms, p95 ${chatTurn.p95Ms.toFixed(2)} ms, max ${chatTurn.maxMs.toFixed(2)} ms`,
);
out.result({ benchCommand, engineBuildMs: buildMs, trainedOn: engine.trainedOn, chatTurn });
