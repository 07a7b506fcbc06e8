/**
 * Hostile-requests benchmark for the chat server: `npx tsx bench/chat-hostile.ts [--requests 10000] [--json]`.
 *
 * Starts `anamnesis chat` (embedded engine, a fresh SQLite file) in a child process on loopback and
 * sends it malformed and hostile requests, 16 at a time: bad JSON, wrong types, cross-origin requests
 * (foreign Origin, Sec-Fetch-Site, text/plain and form bodies), foreign Host names (DNS rebinding),
 * oversized bodies, headers and URLs, deep nesting, lone surrogates and invalid UTF-8, odd methods and
 * paths, unknown sessions; 80 % of requests carry a client cookie, a quarter of them forged (right
 * shape, wrong signature: the server must treat them as no cookie). Prints, per kind, the statuses seen, and the totals that must be zero:
 * crashes, 5xx answers, error answers that are not JSON with an `error.code`, and failed connections
 * other than those the server closes on purpose after answering a malformed request.
 */
import { scriptArgs } from "./script-args.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seededRandom } from "../test-support/random.ts";
import {
  issuedClientCookie,
  keepAliveRetries,
  rawRequest,
  startChatServerProcess,
  type RawAnswer,
} from "./chat-server-process.ts";
import { benchOutput } from "./json-output.ts";

const { values } = scriptArgs({
  options: {
    requests: { type: "string", default: "10000" },
    seed: { type: "string", default: "13" },
    json: { type: "boolean", default: false },
  },
});
const out = benchOutput();
const total = Number(values.requests);

// Seeded, so a run can be repeated.
const random = seededRandom(Number(values.seed));
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

interface Attack {
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
}

const json = { "content-type": "application/json" };
const nested = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth);

/** The kinds of hostile request; each builds one request against a live session `id`. */
const ATTACKS: Record<string, (id: string) => Attack> = {
  "bad JSON": (id) => ({
    method: "POST",
    path: pick([`/api/sessions/${id}/turns`, "/api/sessions"]),
    headers: json,
    body: pick([
      '{"text": "cough"',
      "{text: 1}",
      '{"text": "a",}',
      "\u0000\u0001",
      "{]",
      '"unterminated',
      "nul",
      '{"text": "a"}{"text": "b"}',
      "\ufeff{}",
    ]),
  }),
  "wrong types": (id) => ({
    method: "POST",
    path: pick([`/api/sessions/${id}/turns`, "/api/sessions"]),
    headers: json,
    body: JSON.stringify(
      pick<unknown>([
        { text: 5 },
        { text: null },
        { text: ["a"] },
        { text: { a: 1 } },
        { case: 5 },
        { role: "admin" },
        [],
        "text",
        123,
        true,
        null,
        { text: "x", extra: 1 },
        { text: "" },
        { text: " " },
        { text: "x".repeat(3000) },
        { case: "" },
        { role: "doctor" },
        { __proto__: { text: "a" } },
        { constructor: { prototype: 1 } },
      ]),
    ),
  }),
  "cross-origin": (id) =>
    pick<Attack>([
      {
        method: "POST",
        path: "/api/sessions",
        headers: { ...json, origin: pick(["http://evil.example", "null", "http://127.0.0.1:1", "https://127.0.0.1"]) },
        body: "{}",
      },
      {
        method: "POST",
        path: `/api/sessions/${id}/turns`,
        headers: { ...json, "sec-fetch-site": "cross-site" },
        body: '{"text":"hi"}',
      },
      { method: "POST", path: "/api/sessions", headers: { "content-type": "text/plain" }, body: "{}" },
      {
        method: "POST",
        path: `/api/sessions/${id}/simulate`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "a=1",
      },
      {
        method: "POST",
        path: "/api/sessions",
        headers: { "content-type": "multipart/form-data; boundary=x" },
        body: "--x--",
      },
      { method: "DELETE", path: `/api/sessions/${id}`, headers: { origin: "http://evil.example" } },
    ]),
  "wrong Host": () => ({
    method: pick(["GET", "POST"]),
    path: pick(["/", "/api/health", "/api/sessions"]),
    headers: {
      ...json,
      host: pick([
        "evil.example",
        "evil.example:80",
        "127.0.0.1.nip.io",
        "localhost.evil.example",
        "[::2]",
        "a b",
        "%31%32%37.0.0.1",
      ]),
    },
    body: "{}",
  }),
  oversized: (id) =>
    pick<Attack>([
      {
        method: "POST",
        path: `/api/sessions/${id}/turns`,
        headers: json,
        body: JSON.stringify({ text: "a".repeat(20_000) }),
      },
      { method: "POST", path: "/api/sessions", headers: json, body: `{"case": "${"b".repeat(200_000)}"}` },
      { method: "GET", path: "/api/health", headers: { "x-padding": "p".repeat(20_000) } },
      { method: "GET", path: `/api/sessions/${"c".repeat(20_000)}` },
    ]),
  "deep nesting": (id) => ({
    method: "POST",
    path: pick([`/api/sessions/${id}/turns`, "/api/sessions"]),
    headers: json,
    body: pick([
      nested(7000, "[", "]"),
      `{"text": ${nested(3000, '{"a":', "}").replace(/\{"a":\}$/, "1}")}}`,
      `{"text": ${nested(5000, "[", "]")}}`,
    ]),
  }),
  "lone surrogates": (id) => ({
    method: "POST",
    path: pick([`/api/sessions/${id}/turns`, "/api/sessions"]),
    headers: json,
    body: pick([
      '{"text": "cough \\ud800"}',
      '{"text": "\\udfff"}',
      '{"case": "\\ud83d"}',
      '{"text": "\\ud800\\ud800x"}',
    ]),
  }),
  "invalid UTF-8": (id) => ({
    method: "POST",
    path: `/api/sessions/${id}/turns`,
    headers: pick([
      json,
      { "content-type": "application/json; charset=utf-7" },
      { "content-type": "application/json; charset=latin1" },
    ]),
    body: Buffer.from([0x7b, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xc3, 0x28, 0x22, 0x7d]),
  }),
  "odd methods and paths": (id) =>
    pick<Attack>([
      { method: pick(["PUT", "PATCH", "TRACE", "OPTIONS"]), path: `/api/sessions/${id}` },
      {
        method: "GET",
        path: pick([
          "/api/sessions/%ZZ",
          "/api/sessions/..%2f..%2fetc%2fpasswd",
          "/../../etc/passwd",
          "/%00",
          "/api/%E0%A4%A",
          "/api/sessions/%00/turns",
          "/api/sessions?__proto__[x]=1",
        ]),
      },
      { method: "POST", path: "/api/sessions", headers: { ...json, "content-encoding": "gzip" }, body: "{}" },
      {
        method: "POST",
        path: `/api/sessions/${id}/turns`,
        headers: { ...json, "transfer-encoding": "chunked" },
        body: '{"text":"a cough"}',
      },
    ]),
  "unknown sessions": () => ({
    method: pick(["GET", "POST", "DELETE"]),
    path: pick([
      `/api/sessions/${crypto.randomUUID()}`,
      `/api/sessions/${crypto.randomUUID()}/turns`,
      "/api/sessions/constructor",
      "/api/sessions/__proto__/retry",
    ]),
    headers: json,
    body: '{"text":"hi"}',
  }),
};

interface Tally {
  statuses: Map<number, number>;
}

const folder = mkdtempSync(join(tmpdir(), "anamnesis-hostile-"));
const server = await startChatServerProcess(["--db", join(folder, "sessions.db")]);
// 48 browsers' cookies, signed by the server, and 16 forged ones of the right shape (random id and signature).
const clients: string[] = [];
for (let index = 0; index < 48; index += 1) clients.push((await issuedClientCookie(server.port)) ?? "");
const randomText = (length: number, alphabet: string) =>
  Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
for (let index = 0; index < 16; index += 1)
  clients.push(
    `anamnesis_client=${randomText(32, "0123456789abcdef")}.${randomText(22, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")}`,
  );
const sessions: string[] = [];
for (let index = 0; index < 8; index += 1) {
  const created = await rawRequest(server.port, {
    method: "POST",
    path: "/api/sessions",
    headers: { ...json, cookie: clients[index]! },
    body: "{}",
  });
  sessions.push((JSON.parse(created.body) as { id: string }).id);
}

const tallies = new Map<string, Tally>(Object.keys(ATTACKS).map((kind) => [kind, { statuses: new Map() }]));
const problems = { fiveHundreds: 0, errorsWithoutCode: 0, connectionFailures: 0, examples: [] as string[] };

/** An error answer must be JSON with `error.code` (HEAD answers have no body). */
function checkAnswer(kind: string, attack: Attack, answer: RawAnswer): void {
  const tally = tallies.get(kind)!;
  tally.statuses.set(answer.status, (tally.statuses.get(answer.status) ?? 0) + 1);
  if (answer.status >= 500) problems.fiveHundreds += 1;
  if (answer.status >= 400 && attack.method !== "HEAD") {
    let code: unknown;
    try {
      code = (JSON.parse(answer.body) as { error?: { code?: unknown } }).error?.code;
    } catch {
      code = undefined;
    }
    if (typeof code !== "string" || code === "") {
      problems.errorsWithoutCode += 1;
      if (problems.examples.length < 5)
        problems.examples.push(
          `${kind}: ${attack.method} ${attack.path.slice(0, 60)} → ${answer.status} ${answer.body.slice(0, 80)}`,
        );
    }
  }
}

const kinds = Object.keys(ATTACKS);
let sent = 0;
const started = performance.now();
async function worker(): Promise<void> {
  while (sent < total) {
    const index = sent++;
    const kind = kinds[index % kinds.length]!;
    const attack = ATTACKS[kind]!(pick(sessions));
    const cookie: Record<string, string> = random() < 0.8 ? { cookie: pick(clients) } : {};
    // Requests refused before their body is read (413, 431, parser errors) close their connection: send those on their own.
    const alone = kind === "oversized" || kind === "deep nesting" || kind === "odd methods and paths";
    try {
      checkAnswer(
        kind,
        attack,
        await rawRequest(server.port, { ...attack, headers: { ...cookie, ...attack.headers }, keepAlive: !alone }),
      );
    } catch (error) {
      problems.connectionFailures += 1;
      if (problems.examples.length < 5)
        problems.examples.push(`${kind}: ${attack.method} ${attack.path.slice(0, 60)} → ${(error as Error).message}`);
    }
  }
}
await Promise.all(Array.from({ length: 16 }, worker));
const seconds = (performance.now() - started) / 1000;

const health = await rawRequest(server.port, { method: "GET", path: "/api/health" }).catch(() => null);
const crashed = server.child.exitCode !== null || server.child.signalCode !== null || health?.status !== 200;
const rss = server.rssMiB();
await server.stop();
rmSync(folder, { recursive: true, force: true });

out.line(
  `${total} hostile requests in ${seconds.toFixed(1)} s against anamnesis chat (embedded, SQLite), 16 at a time\n`,
);
out.line("kind                    statuses");
for (const [kind, tally] of tallies)
  out.line(
    `${kind.padEnd(24)}${[...tally.statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join("  ")}`,
  );
out.line(
  `\ncrashes ${crashed ? 1 : 0}   5xx ${problems.fiveHundreds}   errors without a JSON code ${problems.errorsWithoutCode}   failed connections ${problems.connectionFailures} (re-sent after a keep-alive race: ${keepAliveRetries.count})   server RSS after ${rss.toFixed(0)} MiB`,
);
if (server.stderr().trim() !== "") out.line(`server stderr:\n${server.stderr().slice(0, 2000)}`);
for (const example of problems.examples) out.line(`  e.g. ${example}`);
out.result({
  requests: total,
  seconds,
  crashes: crashed ? 1 : 0,
  fiveHundreds: problems.fiveHundreds,
  errorsWithoutCode: problems.errorsWithoutCode,
  failedConnections: problems.connectionFailures,
  resentAfterKeepAliveRace: keepAliveRetries.count,
  serverRssMiB: rss,
  statuses: Object.fromEntries([...tallies].map(([kind, tally]) => [kind, Object.fromEntries(tally.statuses)])),
});
process.exitCode =
  crashed || problems.fiveHundreds + problems.errorsWithoutCode + problems.connectionFailures > 0 ? 1 : 0;
