/**
 * The consultation suites' speed limits (issue #19), measured, never asserted in a test:
 *
 *   npx tsx bench/consult.ts [--runs 3] [--limit N] [--cases 64] [--concurrency 16] [--latency 50]
 *                            [--questions 4] [--json]
 *
 * 1. Offline: `anamnesis bench --suite consult-mediq` (the embedded doctor × the embedded patient on
 *    the 140 iCraft-MD cases, with its complaint-blind floor and full-information ceiling) timed as a
 *    whole process, start-up included, `--runs` times (`--limit N` plays fewer cases, for a smoke run).
 *    The target is ≤ 10 s wall on 2 cores.
 * 2. Concurrency: the same suite with an LLM doctor (`openai:` against a local OpenAI-protocol server in
 *    a child process, answering every request after `--latency` ms) at `--concurrency`, cache off, on
 *    `--cases` cases. The doctor asks `--questions` questions and then commits; its patient is the
 *    embedded one. Within a case the calls follow one another; across cases they overlap, so the ideal
 *    is `calls × latency / concurrency`, timed from the first request's arrival to the last reply (the
 *    engine's start-up and the scoring are outside both). The target is ≥ 90 % of ideal at 16.
 *
 * Run `npm run build` first: the commands run the compiled CLI.
 */
import { scriptArgs } from "./script-args.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeOpenAIServer, type ChatCall, type Reply } from "../test-support/fake-llm-server.ts";
import { forkFakeServer, serveToParent } from "./fake-server-process.ts";
import { benchOutput, median } from "./json-output.ts";
import { runTimed } from "./process-timing.ts";

const { values } = scriptArgs({
  options: {
    runs: { type: "string", default: "3" },
    limit: { type: "string" },
    cases: { type: "string", default: "64" },
    concurrency: { type: "string", default: "16" },
    latency: { type: "string", default: "50" },
    questions: { type: "string", default: "4" },
    serve: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  },
});
const latencyMs = Number(values.latency);
const questions = Number(values.questions);
const out = benchOutput();
const BIN = "bin/anamnesis.js";

/** The doctor the fake server plays: `questions` questions, then option A (told to answer now, A too). */
function doctorReply(call: ChatCall): Reply {
  const user = call.messages.at(-1)?.content ?? "";
  const asked = (user.match(/^Doctor: /gm) ?? []).length;
  if (user.includes("You may not ask any more questions") || asked >= questions) return { content: "ANSWER: A" };
  return { content: "QUESTION: Have you had a fever?" };
}

/** The child process: the fake server; it reports its base URL, then the arrival times it saw. */
async function serve(): Promise<void> {
  const server = await startFakeOpenAIServer({ latencyMs, respond: doctorReply });
  serveToParent(server, () => {
    const at = server.requests.map((request) => request.at);
    return {
      requests: at.length,
      spanMs: at.length === 0 ? 0 : Math.max(...at) - Math.min(...at) + latencyMs,
      maxInFlight: server.maxInFlight,
    };
  });
}

/** Part 1: the offline suite timed whole, `runs` times. */
function offline(scratch: string) {
  const runs = Number(values.runs);
  const limit = values.limit ? ["--limit", values.limit] : [];
  const timings = Array.from({ length: runs }, (_, index) => {
    const args = [BIN, "bench", "--suite", "consult-mediq", ...limit, "--out", join(scratch, `offline-${index}`)];
    const run = runTimed(process.execPath, [...args, "--restart", "--json"]);
    if (run.status !== 0) throw new Error(`consult-mediq failed (${run.status}): ${run.stderr}`);
    const cases = (JSON.parse(run.stdout) as { suites: { "consult-mediq": { cases: number } } }).suites["consult-mediq"]
      .cases;
    out.line(
      `  run ${index + 1}: ${cases} cases, ${run.wall.toFixed(2)} s wall${run.cpu ? `, ${run.cpu.toFixed(2)} s CPU` : ""}`,
    );
    return { cases, wall: run.wall, cpu: run.cpu };
  });
  const cpus = timings.flatMap((timing) => (timing.cpu === undefined ? [] : [timing.cpu]));
  return {
    cases: timings[0]!.cases,
    runs,
    medianWall: median(timings.map((timing) => timing.wall)),
    minWall: Math.min(...timings.map((timing) => timing.wall)),
    maxWall: Math.max(...timings.map((timing) => timing.wall)),
    ...(cpus.length > 0 ? { medianCpu: median(cpus) } : {}),
  };
}

/** Part 2: the suite with an LLM doctor at `--concurrency`, against the fake server. */
async function concurrent(scratch: string) {
  const concurrency = Number(values.concurrency);
  const server = await forkFakeServer(["--serve", "--latency", String(latencyMs), "--questions", String(questions)]);
  const { baseUrl } = server;
  try {
    const args = [BIN, "bench", "--suite", "consult-mediq", "--limit", values.cases, "--backend", "openai:bench"];
    const run = runTimed(
      process.execPath,
      [
        ...args,
        "--base-url",
        baseUrl,
        "--concurrency",
        String(concurrency),
        "--no-cache",
        "--restart",
        "--json",
      ].concat(["--out", join(scratch, "llm")]),
      { ...process.env, OPENAI_API_KEY: "bench" },
    );
    if (run.status !== 0) throw new Error(`consult-mediq with an LLM doctor failed (${run.status}): ${run.stderr}`);
    const stats = await server.stats<{ requests: number; spanMs: number; maxInFlight: number }>();
    const idealMs = (stats.requests * latencyMs) / concurrency;
    return {
      cases: Number(values.cases),
      concurrency,
      latencyMs,
      ...stats,
      idealMs,
      efficiency: idealMs / stats.spanMs,
    };
  } finally {
    server.stop();
  }
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), "anamnesis-bench-consult-"));
  try {
    const load = loadavg()[0]!;
    out.line(`consult-mediq, embedded doctor × embedded patient (floor, doctor, ceiling), whole process:`);
    const embedded = offline(scratch);
    out.line(
      `  median ${embedded.medianWall.toFixed(2)} s wall over ${embedded.runs} run(s) of ${embedded.cases} cases (target ≤ 10 s on 2 cores)`,
    );
    out.line(
      `consult-mediq, LLM doctor → local server (${latencyMs} ms), concurrency ${values.concurrency}, cache off:`,
    );
    const llm = await concurrent(scratch);
    out.line(
      `  ${llm.requests} requests in ${(llm.spanMs / 1000).toFixed(2)} s (ideal ${(llm.idealMs / 1000).toFixed(2)} s): ${(llm.efficiency * 100).toFixed(1)} % of ideal, ${llm.maxInFlight} in flight at most (target ≥ 90 %)`,
    );
    out.result({ cpuCount: availableParallelism(), loadBefore: load, loadAfter: loadavg()[0]!, embedded, llm });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (values.serve) await serve();
else await main();
