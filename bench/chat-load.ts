/**
 * Chat server load benchmark: `npx tsx bench/chat-load.ts [--sessions 50] [--turns 30] [--rounds 3] [--db-sync full|normal] [--json]`.
 *
 * Starts `anamnesis chat` (embedded engine, sessions in a fresh SQLite file with WAL; with
 * the default `--db-sync full` every turn is on disk before it is answered) in a child process on loopback. Each
 * round, `sessions` simulated clients (each its own client cookie, signed by the server) run `turns` turns at once: the
 * simulated patient of a train or valid case answers (`POST …/simulate`); a conversation that ends
 * early is replaced by a new one. Prints turns/s, latency p50/p95/max, the server's resident memory
 * after each round (sessions are deleted at the end of a round, so memory must come back) and the
 * server's CPU time per turn (from /proc, so other processes on a busy machine do not inflate it).
 * Targets: ≥ 500 turns/s, p95 ≤ 100 ms on 2 cores, memory bounded.
 */
import { scriptArgs } from "./script-args.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { availableParallelism, loadavg } from "node:os";
import { issuedClientCookie, percentile, rawRequest, startChatServerProcess } from "./chat-server-process.ts";
import { benchOutput } from "./json-output.ts";

const { values } = scriptArgs({
  options: {
    sessions: { type: "string", default: "50" },
    turns: { type: "string", default: "30" },
    rounds: { type: "string", default: "3" },
    "db-sync": { type: "string", default: "full" },
    json: { type: "boolean", default: false },
  },
});
const out = benchOutput();
const sessionCount = Number(values.sessions);
const turnsPerSession = Number(values.turns);
const json = { "content-type": "application/json" };

const folder = mkdtempSync(join(tmpdir(), "anamnesis-load-"));
const server = await startChatServerProcess(["--db", join(folder, "sessions.db"), "--db-sync", values["db-sync"]]);
const cases = (
  JSON.parse((await rawRequest(server.port, { method: "GET", path: "/api/cases" })).body) as {
    cases: Array<{ id: string }>;
  }
).cases.map((item) => item.id);

// Each simulated browser's signed cookie, issued by the server: 50 from one address fit in its burst of
// 60 new identities; beyond the burst, the bench waits for the server's rate (12 a minute), as it must.
const cookies: string[] = [];
while (cookies.length < sessionCount) {
  const cookie = await issuedClientCookie(server.port);
  if (cookie) cookies.push(cookie);
  else await new Promise((resolve) => setTimeout(resolve, 1000));
}

async function create(cookie: string, caseId: string): Promise<string> {
  const answer = await rawRequest(server.port, {
    method: "POST",
    path: "/api/sessions",
    headers: { ...json, cookie },
    body: JSON.stringify({ case: caseId }),
  });
  if (answer.status !== 201) throw new Error(`creating a session: ${answer.status} ${answer.body}`);
  return (JSON.parse(answer.body) as { id: string }).id;
}

/** One client: `turnsPerSession` simulated-patient turns, timed one by one. */
async function client(index: number, latencies: number[], failures: string[]): Promise<string[]> {
  const cookie = cookies[index]!;
  const caseId = cases[index % cases.length]!;
  const ids = [await create(cookie, caseId)];
  for (let turn = 0; turn < turnsPerSession; turn += 1) {
    const started = performance.now();
    const answer = await rawRequest(server.port, {
      method: "POST",
      path: `/api/sessions/${ids.at(-1)}/simulate`,
      headers: { cookie },
    });
    latencies.push(performance.now() - started);
    if (answer.status !== 200) {
      failures.push(`${answer.status} ${answer.body.slice(0, 100)}`);
      continue;
    }
    if ((JSON.parse(answer.body) as { ended: boolean }).ended) ids.push(await create(cookie, caseId));
  }
  return ids.map((id) => id).concat([cookie]);
}

out.line(
  `${sessionCount} concurrent sessions × ${turnsPerSession} turns per round, embedded engine, SQLite (WAL, --db-sync ${values["db-sync"]}), loopback`,
);
const startRssMiB = server.rssMiB();
out.line(`server RSS at start ${startRssMiB.toFixed(0)} MiB\n`);
out.line("round  turns  seconds  turns/s  p50 ms  p95 ms  max ms  failures  RSS MiB  server CPU ms/turn");
let worst = { rate: Infinity, p95: 0 };
const rounds: Array<{
  turns: number;
  seconds: number;
  turnsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  failures: number;
  rssMiB: number;
  serverCpuMsPerTurn: number;
}> = [];
for (let round = 1; round <= Number(values.rounds); round += 1) {
  const latencies: number[] = [];
  const failures: string[] = [];
  const started = performance.now();
  const cpuBefore = server.cpuMs();
  const owned = await Promise.all(
    Array.from({ length: sessionCount }, (_, index) => client(index, latencies, failures)),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuPerTurn = (server.cpuMs() - cpuBefore) / latencies.length;
  const rate = latencies.length / seconds;
  const p95 = percentile(latencies, 0.95);
  // Round 1 warms the server up (JIT, first allocations); the worst of the others is the figure.
  if (round > 1 || Number(values.rounds) === 1)
    worst = { rate: Math.min(worst.rate, rate), p95: Math.max(worst.p95, p95) };
  for (const ids of owned) {
    const cookie = ids.at(-1)!;
    for (const id of ids.slice(0, -1))
      await rawRequest(server.port, { method: "DELETE", path: `/api/sessions/${id}`, headers: { cookie } });
  }
  const rss = server.rssMiB();
  rounds.push({
    turns: latencies.length,
    seconds,
    turnsPerSecond: rate,
    p50Ms: percentile(latencies, 0.5),
    p95Ms: p95,
    maxMs: Math.max(...latencies),
    failures: failures.length,
    rssMiB: rss,
    serverCpuMsPerTurn: cpuPerTurn,
  });
  out.line(
    `${String(round).padStart(5)}  ${String(latencies.length).padStart(5)}  ${seconds.toFixed(2).padStart(7)}  ${rate.toFixed(0).padStart(7)}  ${percentile(latencies, 0.5).toFixed(1).padStart(6)}  ${p95.toFixed(1).padStart(6)}  ${Math.max(
      ...latencies,
    )
      .toFixed(1)
      .padStart(
        6,
      )}  ${String(failures.length).padStart(8)}  ${rss.toFixed(0).padStart(7)}  ${cpuPerTurn.toFixed(2).padStart(18)}`,
  );
  if (failures.length > 0) out.line(`  e.g. ${failures[0]}`);
}
await server.stop();
rmSync(folder, { recursive: true, force: true });
out.line(
  `\nworst round after the warm-up: ${worst.rate.toFixed(0)} turns/s, p95 ${worst.p95.toFixed(1)} ms; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`,
);
out.result({
  sessions: sessionCount,
  turnsPerSession,
  dbSync: values["db-sync"],
  startRssMiB,
  rounds,
  worstAfterWarmUp: { turnsPerSecond: worst.rate, p95Ms: worst.p95 },
});
out.line(
  "server CPU per turn does not grow with other load on the machine: 1000 / (CPU ms per turn) is the turns/s one core of a quiet machine can serve",
);
