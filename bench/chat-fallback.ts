/**
 * What a person waits for when the chat's LLM backend fails: `npx tsx bench/chat-fallback.ts [--turns 10] [--json]`.
 *
 * Runs the web chat server in-process with `openai:bench` behind the local fake OpenAI server
 * (test-support/fake-llm-server.ts) and the offline fallback on, as `anamnesis chat` sets it up, and
 * lets the simulated patient of a library case answer `--turns` turns through `POST …/simulate` in each
 * scenario: a healthy backend; a backend that refuses connections (with the chat's one retry, with a
 * benchmark run's four, and with none); one answering 500; one hanging past a 2 s `timeoutMs`. Prints the first turn's latency (the
 * one that waits for the backend to fail) and the median of the later turns (answered by the offline
 * engine while the backend is left alone), and how many turns the offline engine answered.
 */
import { scriptArgs } from "./script-args.ts";
import { createServer } from "node:net";
import { startChatServer } from "../server/app.ts";
import { loadMeditod } from "../src/data/meditod.ts";
import { CHAT_BACKEND_BASELINE } from "../cli/commands/chat.ts";
import { createModules } from "../src/modules/builders/create-modules.ts";
import { loadCaseLibrary } from "../src/simulator/case-library.ts";
import { instanceOf, startFakeOpenAIServer, type Reply } from "../test-support/fake-llm-server.ts";
import { benchOutput } from "./json-output.ts";

const { values } = scriptArgs({
  options: { turns: { type: "string", default: "10" }, json: { type: "boolean", default: false } },
});
const out = benchOutput();
const turns = Number(values.turns);
const dataset = loadMeditod();
const patientCase = loadCaseLibrary()[0]!;

/** A loopback port nothing listens on (connections are refused). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

interface Scenario {
  readonly name: string;
  /** The fake server's answer; undefined: a closed port instead of the server. */
  readonly fault?: Reply | null;
  readonly settings: { maxRetries?: number; timeoutMs?: number };
}

const SCENARIOS: Scenario[] = [
  { name: "healthy backend", fault: null, settings: {} },
  { name: "connection refused, the chat's 1 retry", settings: {} },
  { name: "connection refused, 4 retries (bench default)", settings: { maxRetries: 4 } },
  { name: "connection refused, maxRetries 0", settings: { maxRetries: 0 } },
  { name: "500, maxRetries 0", fault: { status: 500 }, settings: { maxRetries: 0 } },
  { name: "hang, timeoutMs 2000, maxRetries 0", fault: { hang: true }, settings: { maxRetries: 0, timeoutMs: 2000 } },
];

/** The parts of the chat API's answers this benchmark reads. */
interface Answer {
  readonly id: string;
  readonly ended: boolean;
  readonly outcome?: { readonly fallback: unknown };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** One scenario's figures: the first turn (which waits for the backend to fail) and the later ones. */
interface ScenarioFigures {
  readonly scenario: string;
  readonly firstTurnMs: number;
  readonly laterTurnsP50Ms: number;
  readonly offlineAnswered: number;
  readonly turns: number;
}

async function run(scenario: Scenario): Promise<ScenarioFigures> {
  const llm = await startFakeOpenAIServer({
    respond: (call) =>
      scenario.fault ??
      (call.schema ? { content: JSON.stringify(instanceOf(call.schema)) } : { content: "Could you tell me more?" }),
  });
  const baseUrl = scenario.fault === undefined ? `http://127.0.0.1:${await closedPort()}/v1` : llm.baseUrl;
  const setup = await createModules("openai:bench", dataset, {
    // As `anamnesis chat` starts: the chat's baseline (60 s per attempt, one retry) under the scenario's settings.
    backendOptions: {
      baseUrl,
      env: {},
      config: {},
      noCache: true,
      baseline: CHAT_BACKEND_BASELINE,
      ...scenario.settings,
    },
    wording: "clean",
    fallback: "embedded",
    answerFailures: true,
  });
  const server = await startChatServer({ modules: setup.modules, cases: [patientCase] });
  const post = async (path: string, body?: unknown): Promise<Answer> =>
    (await (
      await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body ?? {}),
      })
    ).json()) as Answer;
  const { id } = await post("/api/sessions", { case: patientCase.id });
  const latencies: number[] = [];
  let offline = 0;
  for (let turn = 0; turn < turns; turn += 1) {
    const started = performance.now();
    const answer = await post(`/api/sessions/${id}/simulate`);
    latencies.push(performance.now() - started);
    if (answer.outcome?.fallback) offline += 1;
    if (answer.ended) break;
  }
  await server.close();
  await setup.close();
  await llm.close();
  const [first, ...later] = latencies;
  return {
    scenario: scenario.name,
    firstTurnMs: first!,
    laterTurnsP50Ms: median(later),
    offlineAnswered: offline,
    turns: latencies.length,
  };
}

const scenarios: ScenarioFigures[] = [];
for (const scenario of SCENARIOS) {
  const figures = await run(scenario);
  scenarios.push(figures);
  out.line(
    `${figures.scenario.padEnd(46)} first turn ${figures.firstTurnMs.toFixed(0).padStart(6)} ms   later turns p50 ${figures.laterTurnsP50Ms.toFixed(1).padStart(6)} ms   offline-answered ${figures.offlineAnswered}/${figures.turns}`,
  );
}
out.result({ turnsPerScenario: turns, scenarios });
