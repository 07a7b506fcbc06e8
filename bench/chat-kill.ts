/**
 * Crash benchmark for durable chat sessions: `npx tsx bench/chat-kill.ts [--turns 1000] [--sessions 20] [--db :memory:] [--json]`
 * (`--db :memory:`, a server that keeps nothing, is the control: it must report losses).
 *
 * Runs `anamnesis chat --db FILE --transcripts DIR` (embedded engine) in a child process; 20 clients
 * drive 20 sessions with the simulated patient (a conversation that ends is replaced by a new one) while
 * the server is killed with SIGKILL at random moments (after 10–60 more acknowledged turns, with
 * turns in flight) and restarted on the
 * same files, until `turns` turns have been acknowledged (answered 200). After every kill it checks:
 * every transcript file parses as JSON and holds at least the turns acknowledged for its session; and
 * after every restart: every session acknowledged so far exists, and its history begins with exactly the
 * history last acknowledged for it. Prints kills, turns, and the three figures that must be zero:
 * acknowledged turns lost, sessions lost, corrupt transcripts.
 */
import { scriptArgs } from "./script-args.ts";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  issuedClientCookie,
  rawRequest,
  startChatServerProcess,
  type ChatServerProcess,
} from "./chat-server-process.ts";
import { benchOutput } from "./json-output.ts";

// --db :memory: is the control: a server that keeps nothing must make this script report losses.
const { values } = scriptArgs({
  options: {
    turns: { type: "string", default: "1000" },
    sessions: { type: "string", default: "20" },
    seed: { type: "string", default: "7" },
    db: { type: "string", default: "file" },
    json: { type: "boolean", default: false },
  },
});
const out = benchOutput();
const targetTurns = Number(values.turns);
const clientCount = Number(values.sessions);
let seed = Number(values.seed);
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

const folder = mkdtempSync(join(tmpdir(), "anamnesis-kill-"));
const args = [
  "--db",
  values.db === ":memory:" ? ":memory:" : join(folder, "sessions.db"),
  "--transcripts",
  join(folder, "transcripts"),
];
const json = { "content-type": "application/json" };
type Turn = { speaker: string; text: string };

/** What the clients were told: per session, the history of its last acknowledged answer. */
const acknowledged = new Map<string, Turn[]>();
const lost = { turns: 0, sessions: 0, transcripts: 0 };
const lostSessions = new Set<string>();
let acknowledgedTurns = 0;
let kills = 0;
/** While the server restarts and is checked, clients wait (else they run hundreds of turns before the next kill). */
let paused = false;
let server: ChatServerProcess;

function sameStart(longer: readonly Turn[], prefix: readonly Turn[]): boolean {
  return (
    longer.length >= prefix.length &&
    prefix.every((turn, index) => turn.speaker === longer[index]!.speaker && turn.text === longer[index]!.text)
  );
}

/** After a kill: each transcript whole and at least as far as the acknowledged turns. */
function checkTranscripts(): void {
  for (const [id, history] of acknowledged) {
    const path = join(folder, "transcripts", `${id}.json`);
    try {
      const transcript = JSON.parse(readFileSync(path, "utf8")) as { history: Turn[] };
      if (!sameStart(transcript.history, history)) lost.transcripts += 1;
    } catch {
      lost.transcripts += 1;
      out.line(`  corrupt or missing transcript ${path} (exists: ${existsSync(path)})`);
    }
  }
}

/**
 * After a restart: every session acknowledged before the kill exists and begins with the history then
 * acknowledged (`before`: taken while the server was down, as clients go on once it is back).
 */
async function checkSessions(before: ReadonlyMap<string, Turn[]>): Promise<void> {
  for (const [id, history] of before) {
    const answer = await rawRequest(server.port, { method: "GET", path: `/api/sessions/${id}` });
    if (answer.status !== 200) {
      // Counted once, with the turns it had acknowledged.
      if (!lostSessions.has(id)) lost.turns += Math.floor(history.length / 2);
      lostSessions.add(id);
      lost.sessions = lostSessions.size;
      continue;
    }
    const stored = (JSON.parse(answer.body) as { history: Turn[] }).history;
    if (!sameStart(stored, history)) {
      lost.turns += Math.max(1, (history.length - stored.length) / 2);
      out.line(`  session ${id}: acknowledged ${history.length} history entries, found ${stored.length}`);
    }
  }
}

/** One client: keeps a session going with the simulated patient until the run has its turns. */
async function client(index: number, cases: string[], cookie: string): Promise<void> {
  let id: string | null = null;
  while (acknowledgedTurns < targetTurns) {
    if (paused) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      continue;
    }
    try {
      if (id === null) {
        const created = await rawRequest(server.port, {
          method: "POST",
          path: "/api/sessions",
          headers: { ...json, cookie },
          body: JSON.stringify({ case: cases[index % cases.length] }),
        });
        if (created.status !== 201) throw new Error(`create ${created.status}`);
        const session = JSON.parse(created.body) as { id: string; history: Turn[] };
        id = session.id;
        acknowledged.set(id, session.history);
      }
      const answer = await rawRequest(server.port, {
        method: "POST",
        path: `/api/sessions/${id}/simulate`,
        headers: { cookie },
      });
      if (answer.status === 404) {
        // Lost in a restart (the checks count it): go on with a new session.
        id = null;
        continue;
      }
      if (answer.status !== 200) throw new Error(`simulate ${answer.status} ${answer.body.slice(0, 80)}`);
      const session = JSON.parse(answer.body) as { history: Turn[]; ended: boolean };
      acknowledged.set(id, session.history);
      acknowledgedTurns += 1;
      if (session.ended) id = null;
    } catch {
      // The server is down (killed): wait for the restart, then carry on from what it stored.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

server = await startChatServerProcess(args);
const cases = (
  JSON.parse((await rawRequest(server.port, { method: "GET", path: "/api/cases" })).body) as {
    cases: Array<{ id: string }>;
  }
).cases.map((item) => item.id);
// Signed by the server once, good across its restarts (the signing secret is in the database file).
const cookies: string[] = [];
for (let index = 0; index < clientCount; index += 1) {
  const cookie = await issuedClientCookie(server.port);
  if (!cookie)
    throw new Error(
      `the server issued no client cookie for client ${index + 1} (more clients than its burst of new identities per address)`,
    );
  cookies.push(cookie);
}
const started = performance.now();
const clients = Promise.all(Array.from({ length: clientCount }, (_, index) => client(index, cases, cookies[index]!)));
while (acknowledgedTurns < targetTurns) {
  // A random moment: after 10–60 more acknowledged turns, a few milliseconds apart, so turns are in flight.
  const killAt = acknowledgedTurns + 10 + Math.floor(random() * 50);
  while (acknowledgedTurns < Math.min(killAt, targetTurns))
    await new Promise((resolve) => setTimeout(resolve, 1 + random() * 4));
  if (acknowledgedTurns >= targetTurns) break;
  server.child.kill("SIGKILL");
  paused = true;
  await new Promise((resolve) => server.child.once("exit", resolve));
  kills += 1;
  checkTranscripts();
  const before = new Map(acknowledged);
  server = await startChatServerProcess(args);
  await checkSessions(before);
  if (kills % 5 === 0)
    out.line(`kill ${kills}: ${acknowledgedTurns} turns acknowledged, ${acknowledged.size} sessions`);
  paused = false;
}
await clients;
await checkSessions(new Map(acknowledged));
await server.stop();
checkTranscripts();
const seconds = (performance.now() - started) / 1000;
rmSync(folder, { recursive: true, force: true });
out.line(
  `\n${acknowledgedTurns} acknowledged turns over ${acknowledged.size} sessions (${clientCount} at a time), ${kills} kill -9s and restarts, ${seconds.toFixed(0)} s`,
);
out.line(
  `acknowledged turns lost ${lost.turns}   sessions lost ${lost.sessions}   corrupt transcripts ${lost.transcripts}`,
);
out.result({
  acknowledgedTurns,
  sessions: acknowledged.size,
  concurrentSessions: clientCount,
  kills,
  seconds,
  db: values.db,
  lost,
});
process.exitCode = lost.turns + lost.sessions + lost.transcripts > 0 ? 1 : 0;
