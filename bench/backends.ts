/**
 * Backend throughput benchmark: `npx tsx bench/backends.ts [--requests 2000] [--latency 50] [--json]`.
 *
 * Second part, the official MediTOD protocol (`--protocol official`): every turn is a query embedding
 * then a chat completion, both to the same server, so the ideal is `turns × 2 × latency / concurrency`;
 * the pool is embedded once before timing (a stand-in commons.py gives the prompt text).
 *
 * Drives requests through the real OpenAI backend (our chat-completions client, semaphore, retries and
 * timeouts; response cache off) against a local OpenAI-protocol server on 127.0.0.1 that answers every
 * request after a fixed latency. The server runs in a child process so it does not share the
 * client's event loop. After a short unmeasured warm-up, for each concurrency it prints the wall time against the ideal
 * `requests × latency / concurrency` and the efficiency (ideal / measured); the target is ≥ 90% at 32.
 */
import { scriptArgs } from "./script-args.ts";
import { forkFakeServer, serveToParent } from "./fake-server-process.ts";
import { availableParallelism, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { createBackend } from "../src/backends/registry.ts";
import { startFakeOpenAIServer } from "../test-support/fake-llm-server.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadMeditod, splitIds } from "../src/data/meditod.ts";
import { readMeditodCheckout } from "../src/modules/official/meditod-checkout.ts";
import { createOfficialModules } from "../src/modules/official/official-modules.ts";
import { writeStandInCheckout } from "../test-support/stand-in-checkout.ts";
import { benchOutput } from "./json-output.ts";

/** Official-protocol turns per second at `concurrency`: `total` predictions cycling through the sample's turns. */
async function officialThroughput(
  baseUrl: string,
  concurrency: number,
  total: number,
): Promise<{ measured: number; ideal: number; cpuPerRequest: number }> {
  const scratch = mkdtempSync(join(tmpdir(), "anamnesis-bench-official-"));
  const dataset = loadMeditod();
  const options = { baseUrl, concurrency, noCache: true, maxRetries: 0, env: {}, config: {} };
  const modules = createOfficialModules(
    await createBackend("openai:bench-model", options),
    await createBackend("openai:bench-embeddings", options),
    dataset,
    readMeditodCheckout(writeStandInCheckout(scratch)),
  );
  const turns = (["train", "valid", "test"] as const)
    .flatMap((split) =>
      splitIds(dataset, split).flatMap((dialogueId) =>
        dataset.dialogues
          .get(dialogueId)!
          .utterances.map((utterance, turn) => ({ dialogueId, turn, speaker: utterance.speaker })),
      ),
    )
    .filter((turn) => turn.turn > 0);
  const predict = (index: number) => {
    const { dialogueId, turn, speaker } = turns[index % turns.length]!;
    if (speaker === "patient") return modules.nlu.understand({ history: [], utterance: "", dialogueId, turn });
    return index % 2 === 0
      ? modules.policy.nextActions({ history: [], state: {}, dialogueId, turn })
      : modules.nlg.realise({ history: [], actions: [], dialogueId, turn });
  };
  // Warm-up: embeds the three pools (once per run, as in a bench run) and opens connections.
  await Promise.all(Array.from({ length: concurrency }, (_, index) => predict(index)));
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await predict(next++);
    }),
  );
  const measured = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  rmSync(scratch, { recursive: true, force: true });
  // The client's CPU per HTTP request (two per turn): what decides the pace when one event loop serves 32.
  return {
    measured,
    ideal: (total * 2 * latencyMs) / concurrency,
    cpuPerRequest: (cpu.user + cpu.system) / 1000 / (total * 2),
  };
}

const { values } = scriptArgs({
  options: {
    requests: { type: "string", default: "2000" },
    latency: { type: "string", default: "50" },
    serve: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  },
});
const out = benchOutput();
const latencyMs = Number(values.latency);

if (values.serve) {
  // Child process: the fake server; reports its base URL and max in-flight count to the parent.
  const server = await startFakeOpenAIServer({ latencyMs, respond: () => ({ content: "ok" }) });
  serveToParent(server, () => ({ maxInFlight: server.maxInFlight, requests: server.requests.length }));
} else {
  const total = Number(values.requests);
  const server = await forkFakeServer(["--serve", "--latency", String(latencyMs)]);
  const { baseUrl } = server;

  out.line(`OpenAI backend → local server with ${latencyMs} ms latency (server in a child process, cache off)`);
  out.line(
    `machine: ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(2)} (other work on the machine lowers the figures)`,
  );
  const plain: Array<{
    concurrency: number;
    requests: number;
    measuredMs: number;
    idealMs: number;
    efficiency: number;
    requestsPerSecond: number;
    maxInFlight: number;
  }> = [];
  out.line("concurrency  requests  measured ms  ideal ms  efficiency  req/s  max in flight at server");
  for (const concurrency of [1, 8, 32]) {
    // Concurrency 1 at 50 ms would take 100 s for 2,000 requests: it runs a tenth of them.
    const requests = concurrency === 1 ? Math.max(1, Math.round(total / 10)) : total;
    const backend = await createBackend("openai:bench-model", {
      baseUrl,
      concurrency,
      noCache: true,
      maxRetries: 0,
      env: {},
      config: {},
    });
    // Warm-up (JIT, keep-alive connections), not measured.
    await Promise.all(
      Array.from({ length: 4 * concurrency }, (_, i) => backend.generate([{ role: "user", content: `warm-up ${i}` }])),
    );
    const started = performance.now();
    await Promise.all(
      Array.from({ length: requests }, (_, i) =>
        backend.generate([{ role: "user", content: `request ${concurrency}/${i}` }]),
      ),
    );
    const measured = performance.now() - started;
    const ideal = (requests * latencyMs) / concurrency;
    const { maxInFlight } = await server.stats<{ maxInFlight: number }>();
    plain.push({
      concurrency,
      requests,
      measuredMs: measured,
      idealMs: ideal,
      efficiency: ideal / measured,
      requestsPerSecond: requests / (measured / 1000),
      maxInFlight,
    });
    out.line(
      [
        String(concurrency).padStart(11),
        String(requests).padStart(9),
        measured.toFixed(0).padStart(12),
        ideal.toFixed(0).padStart(9),
        `${((ideal / measured) * 100).toFixed(1)}%`.padStart(11),
        (requests / (measured / 1000)).toFixed(0).padStart(6),
        String(maxInFlight).padStart(24),
      ].join(" "),
    );
  }
  if (total >= 10)
    out.line(`(concurrency 1 ran ${Math.round(total / 10)} requests instead of ${total} to keep the run short)`);

  const official: Array<{
    concurrency: number;
    turns: number;
    measuredMs: number;
    idealMs: number;
    efficiency: number;
    turnsPerSecond: number;
    clientCpuMsPerRequest: number;
  }> = [];
  out.line("\nofficial protocol (--protocol official): a query embedding, then a chat completion, per turn");
  out.line("concurrency     turns  measured ms  ideal ms  efficiency  turns/s  client CPU ms/request");
  for (const concurrency of [8, 32]) {
    const turns = Math.max(1, Math.round(total / 2));
    const { measured, ideal, cpuPerRequest } = await officialThroughput(baseUrl, concurrency, turns);
    official.push({
      concurrency,
      turns,
      measuredMs: measured,
      idealMs: ideal,
      efficiency: ideal / measured,
      turnsPerSecond: turns / (measured / 1000),
      clientCpuMsPerRequest: cpuPerRequest,
    });
    out.line(
      [
        String(concurrency).padStart(11),
        String(turns).padStart(9),
        measured.toFixed(0).padStart(12),
        ideal.toFixed(0).padStart(9),
        `${((ideal / measured) * 100).toFixed(1)}%`.padStart(11),
        (turns / (measured / 1000)).toFixed(0).padStart(8),
        cpuPerRequest.toFixed(3).padStart(22),
      ].join(" "),
    );
  }
  server.stop();
  out.result({ latencyMs, plain, official });
}
