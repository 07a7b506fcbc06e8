/**
 * What the product does, captured from the outside so that two checkouts can be compared byte for byte
 * (a restructure must not change behaviour):
 *
 *   npx tsx bench/behaviour-snapshot.ts capture --checkout DIR --out SNAPSHOT_DIR
 *   npx tsx bench/behaviour-snapshot.ts compare SNAPSHOT_A SNAPSHOT_B
 *
 * `capture` drives only the checkout's command line (`bin/anamnesis.js`) and its leave-one-out script,
 * never its modules, so the same capture runs on any layout. It records, with the embedded engine:
 * predictions, results and reports of every suite on every split the bundled data has (MediTOD
 * test/valid/train, MTS-Dialog valid/train/test1/test2 and their perplexity suites, a MedText file made
 * here); the leave-one-out table; self-play over every case (summary, results and transcripts); notes;
 * `score` and `metrics` on the runs just made; and the chat API's answers for simulated patients of
 * every case, a typed conversation, practice mode and the note. What differs from run to run by nature
 * (latencies, timestamps, session ids, cookies, the checkout's path and git revision) is blanked.
 * `compare` lists every file that differs and exits 1 if any does.
 */
import { scriptArgs } from "./script-args.ts";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

/** Fields whose values are measurements or identities of one run, not behaviour. */
const VOLATILE_KEYS = new Set([
  "latency_ms",
  "git_revision",
  "started_at",
  "finished_at",
  "created_at",
  "updated_at",
  "createdAt",
  "updatedAt",
  "elapsed_ms",
  "duration_ms",
  "seconds",
  "wall_seconds",
  "timestamp",
  "started",
  "finished",
  "elapsedMs",
]);

/** An ISO date and time, e.g. 2026-12-01T14:48:36.029Z. */
const ISO_TIME = /\d{4}-\d\d-\d\dT[\d:.]+Z/g;
/** The two latency cells (mean, p95) of a row of the report's cost table, e.g. "| meditod-nlu | 74 | 0 | 0 | 0 | 2.2 | 6.1 |". */
const COST_ROW_MARKDOWN = /^(\| [\w-]+ \| \d+ \| \d+ \| \d+ \| \d+ \| )[\d.]+ \| [\d.]+ \|/gm;
/** The same cells in the HTML report, e.g. "<td>0</td><td>2.2</td><td>6.1</td><td>0 / 0</td>". */
const COST_ROW_HTML = /(<tr><td>[\w-]+<\/td>(?:<td>\d+<\/td>){4})<td>[\d.]+<\/td><td>[\d.]+<\/td>/g;

/** Lines of reports that carry a date, a time or a duration. */
const VOLATILE_LINE = /\b(?:elapsed|took|seconds|ms\b|generated|date|time)\b/i;

let scratchDir = "";

function normalised(text: string, checkout: string): string {
  const paths = text.split(checkout).join("<checkout>");
  return (scratchDir ? paths.split(scratchDir).join("<scratch>") : paths)
    .replace(ISO_TIME, "<time>")
    .replace(COST_ROW_MARKDOWN, "$1<ms> | <ms> |")
    .replace(COST_ROW_HTML, "$1<td><ms></td><td><ms></td>");
}

function blankVolatile(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(blankVolatile);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    out[key] = VOLATILE_KEYS.has(key) ? "<volatile>" : blankVolatile(item);
  return out;
}

/** A file's content with run-to-run values blanked: JSON and JSONL field by field, text line by line. */
function stableContent(path: string, checkout: string): string {
  const text = normalised(readFileSync(path, "utf8"), checkout);
  if (path.endsWith(".jsonl")) {
    return text
      .split("\n")
      .map((line) => (line.trim() ? JSON.stringify(blankVolatile(JSON.parse(line))) : line))
      .join("\n");
  }
  if (path.endsWith(".json")) return JSON.stringify(blankVolatile(JSON.parse(text)), null, 1);
  if (path.endsWith(".html")) return text;
  return text
    .split("\n")
    .map((line) => (VOLATILE_LINE.test(line) ? line.replace(/\d+(?:\.\d+)?/g, "<n>") : line))
    .join("\n");
}

/**
 * A progress line of the bench command, e.g. "meditod-nlu: 12/74". The last (74/74) is always printed;
 * the ones before it only when a suite runs longer than 2 s, so on a slow or busy machine: those are dropped.
 */
const PROGRESS_LINE = /^[\w-]+: (\d+)\/(\d+)\n/gm;

/** A capture's text without the progress lines a slow machine adds (captures made before this rule kept them). */
function withoutProgress(text: string): string {
  return text.replace(PROGRESS_LINE, (line, done: string, total: string) => (done === total ? line : ""));
}

function cli(checkout: string, args: readonly string[], cwd: string): string {
  const run = spawnSync(process.execPath, [join(checkout, "bin/anamnesis.js"), ...args], {
    cwd,
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  return `exit ${run.status}\n--- stdout\n${run.stdout}\n--- stderr\n${withoutProgress(run.stderr)}`;
}

function copyStable(from: string, to: string, checkout: string): void {
  for (const name of readdirSync(from).sort()) {
    const path = join(from, name);
    if (statSync(path).isDirectory()) {
      mkdirSync(join(to, name), { recursive: true });
      copyStable(path, join(to, name), checkout);
    } else if (!name.endsWith(".db") && !name.includes(".db-")) {
      writeFileSync(join(to, name), stableContent(path, checkout));
    }
  }
}

const BENCH_RUNS: ReadonlyArray<{ name: string; args: string[] }> = [
  ...["test", "valid", "train"].map((split) => ({
    name: `meditod-${split}`,
    args: ["--suite", "meditod", "--split", split],
  })),
  ...["valid", "train", "test1", "test2"].flatMap((split) => [
    { name: `mts-dialog-${split}`, args: ["--suite", "mts-dialog", "--split", split] },
    { name: `mts-dialog-perplexity-${split}`, args: ["--suite", "mts-dialog-perplexity", "--split", split] },
  ]),
];

/** A small MedText file (it is not bundled): the same rows on every capture. */
const MEDTEXT_CSV = [
  "Prompt,Completion",
  '"A 30-year-old with fever, cough and green sputum for three days.","Likely community-acquired pneumonia. Chest X-ray; amoxicillin."',
  '"A child with an itchy rash in the elbow creases.","Atopic eczema. Emollients and a mild topical steroid."',
  '"A 60-year-old with crushing chest pain for an hour.","Possible acute coronary syndrome: call an ambulance, ECG, aspirin."',
  "",
].join("\n");

function captureBench(checkout: string, out: string, scratch: string): void {
  const medtext = join(scratch, "medtext.csv");
  writeFileSync(medtext, MEDTEXT_CSV);
  const runs = [
    ...BENCH_RUNS,
    { name: "medtext", args: ["--suite", "medtext", "--data", medtext] },
    { name: "medtext-perplexity", args: ["--suite", "medtext-perplexity", "--data", medtext] },
  ];
  for (const run of runs) {
    const dir = join(scratch, "runs", run.name);
    const log = cli(checkout, ["bench", ...run.args, "--out", dir, "--restart"], scratch);
    mkdirSync(join(out, "bench", run.name), { recursive: true });
    writeFileSync(join(out, "bench", run.name, "terminal.txt"), stableContent(writeTemp(scratch, log), checkout));
    copyStable(dir, join(out, "bench", run.name), checkout);
  }
  // Scoring the predictions just written, as a user scores a file.
  const test = join(scratch, "runs", "meditod-test");
  const scores = ["nlu", "pol", "nlg"].map((task) =>
    cli(
      checkout,
      ["score", `meditod-${task}`, "--predictions", join(test, `predictions-meditod-${task}.jsonl`)],
      scratch,
    ),
  );
  writeFileSync(join(out, "score.txt"), normalised(scores.join("\n"), checkout));
}

function writeTemp(scratch: string, text: string): string {
  const path = join(scratch, "log.txt");
  writeFileSync(path, text);
  return path;
}

function captureCommands(checkout: string, out: string, scratch: string): void {
  const pairs = join(scratch, "pairs.jsonl");
  const lines = readFileSync(join(scratch, "runs", "mts-dialog-valid", "predictions-mts-dialog.jsonl"), "utf8")
    .trim()
    .split("\n");
  writeFileSync(
    pairs,
    lines
      .map((line, index) =>
        JSON.stringify({
          id: String(index),
          prediction: (JSON.parse(line) as { prediction: string }).prediction,
          reference: "The patient reports a cough.",
        }),
      )
      .join("\n") + "\n",
  );
  const outputs: Record<string, string> = {
    "metrics-pairs.txt": cli(checkout, ["metrics", "pairs", "--input", pairs], scratch),
    "metrics-corpus.txt": cli(checkout, ["metrics", "corpus", "--input", pairs], scratch),
    "note-markdown.txt": cli(checkout, ["note", "--dialogue", "407"], scratch),
    "note-json.txt": cli(checkout, ["note", "--dialogue", "407", "--format", "json"], scratch),
    "data-stats.txt": cli(checkout, ["data", "stats"], scratch),
    "help.txt": ["", "bench", "score", "merge", "chat", "note", "simulate", "metrics", "data"]
      .map((command) => cli(checkout, [...(command ? [command] : []), "--help"], scratch))
      .join("\n"),
  };
  for (const [name, text] of Object.entries(outputs)) writeFileSync(join(out, name), normalised(text, checkout));
  const simulated = join(scratch, "simulate");
  writeFileSync(
    join(out, "simulate.txt"),
    normalised(cli(checkout, ["simulate", "--out", simulated, "--json"], scratch), checkout),
  );
  mkdirSync(join(out, "simulate"), { recursive: true });
  copyStable(simulated, join(out, "simulate"), checkout);
  const leaveOneOut = spawnSync(
    process.execPath,
    ["--import", "tsx", join(checkout, "bench/leave-one-out.ts"), "--json"],
    { cwd: checkout, encoding: "utf8", maxBuffer: 1 << 28 },
  );
  writeFileSync(join(out, "leave-one-out.json"), normalised(leaveOneOut.stdout + leaveOneOut.stderr, checkout));
}

interface Answer {
  status: number;
  body: string;
  cookie?: string;
}

/** One API request; an answer of 429 (the server's per-client turn rate) is waited out and the request sent again. */
async function request(base: string, method: string, path: string, cookie: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { cookie };
  if (body !== undefined) headers["content-type"] = "application/json";
  let response = await fetch(base + path, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  while (response.status === 429) {
    await new Promise((done) => setTimeout(done, 1000 * Number(response.headers.get("retry-after") ?? 1)));
    response = await fetch(base + path, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  }
  const setCookie = response.headers.get("set-cookie")?.split(";")[0];
  return { status: response.status, body: await response.text(), ...(setCookie ? { cookie: setCookie } : {}) };
}

/** An answer with its measurements blanked and the session's random id replaced by a placeholder. */
function stableAnswer(answer: Answer, sessionId?: string): string {
  const body = sessionId ? answer.body.split(sessionId).join("<session>") : answer.body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `${answer.status} ${body}`;
  }
  return `${answer.status} ${JSON.stringify(blankVolatile(parsed))}`;
}

async function startServer(checkout: string, scratch: string): Promise<{ base: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [join(checkout, "bin/anamnesis.js"), "chat", "--port", "0", "--db", ":memory:"],
    { cwd: scratch, stdio: ["ignore", "pipe", "pipe"] },
  );
  const base = await new Promise<string>((done, fail) => {
    let text = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
      const match = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (match) done(match[1]!);
    });
    child.once("exit", (code) => fail(new Error(`chat server exited with ${code}`)));
  });
  return { base, stop: () => child.kill("SIGTERM") };
}

const TYPED_CONVERSATION = [
  "Hello doctor",
  "I've had a cough for about two weeks and now I'm bringing up green stuff",
  "It's worse at night. I dont smoke, I quit five years ago",
  "Yes a bit of a temperature",
  "No chest pain",
  "I take ramipril 5mg once a day for blood pressure",
  "Sorry, what do you mean?",
  "My mother had asthma",
  "Is it something serious?",
  "No, nothing else",
  "Can we stop here",
];

async function captureChat(checkout: string, out: string, scratch: string): Promise<void> {
  const server = await startServer(checkout, scratch);
  const lines: string[] = [];
  try {
    const first = await request(server.base, "GET", "/api/cases", "");
    const cookie = first.cookie ?? "";
    lines.push(`cases ${stableAnswer(first)}`);
    for (const path of ["/api/health", "/api/ontology"])
      lines.push(`${path} ${stableAnswer(await request(server.base, "GET", path, cookie))}`);
    const cases = (JSON.parse(first.body) as { cases: Array<{ id: string }> }).cases.map((item) => item.id);
    for (const caseId of cases) lines.push(...(await simulatedSession(server.base, cookie, caseId)));
    lines.push(...(await typedSession(server.base, cookie)));
    lines.push(...(await practiceSession(server.base, cookie, cases[0]!)));
  } finally {
    server.stop();
  }
  writeFileSync(join(out, "chat-api.txt"), normalised(lines.join("\n") + "\n", checkout));
}

async function simulatedSession(base: string, cookie: string, caseId: string): Promise<string[]> {
  const created = await request(base, "POST", "/api/sessions", cookie, { case: caseId });
  const id = (JSON.parse(created.body) as { id: string }).id;
  const lines = [`case ${caseId} create ${stableAnswer(created, id)}`];
  for (let turn = 0; turn < 120; turn += 1) {
    const answer = await request(base, "POST", `/api/sessions/${id}/simulate`, cookie);
    lines.push(`case ${caseId} simulate ${stableAnswer(answer, id)}`);
    if (answer.status !== 200 || (JSON.parse(answer.body) as { ended?: boolean }).ended) break;
  }
  lines.push(`case ${caseId} note ${stableAnswer(await request(base, "GET", `/api/sessions/${id}/note`, cookie), id)}`);
  await request(base, "DELETE", `/api/sessions/${id}`, cookie);
  return lines;
}

async function typedSession(base: string, cookie: string): Promise<string[]> {
  const created = await request(base, "POST", "/api/sessions", cookie, {});
  const id = (JSON.parse(created.body) as { id: string }).id;
  const lines = [`typed create ${stableAnswer(created, id)}`];
  for (const text of TYPED_CONVERSATION)
    lines.push(
      `typed ${JSON.stringify(text)} ${stableAnswer(await request(base, "POST", `/api/sessions/${id}/turns`, cookie, { text }), id)}`,
    );
  lines.push(`typed note ${stableAnswer(await request(base, "GET", `/api/sessions/${id}/note`, cookie), id)}`);
  lines.push(
    `typed note.md ${stableAnswer(await request(base, "GET", `/api/sessions/${id}/note?format=markdown`, cookie), id)}`,
  );
  lines.push(`typed end ${stableAnswer(await request(base, "POST", `/api/sessions/${id}/end`, cookie), id)}`);
  lines.push(
    `typed bad ${stableAnswer(await request(base, "POST", `/api/sessions/${id}/turns`, cookie, { nope: 1 }), id)}`,
  );
  return lines;
}

async function practiceSession(base: string, cookie: string, caseId: string): Promise<string[]> {
  const created = await request(base, "POST", "/api/sessions", cookie, { role: "doctor", case: caseId });
  const id = (JSON.parse(created.body) as { id: string }).id;
  const lines = [`practice create ${stableAnswer(created, id)}`];
  for (const text of [
    "What brings you in today?",
    "When did it start?",
    "Do you smoke?",
    "Any allergies?",
    "Does anyone in your family have heart problems?",
  ]) {
    lines.push(
      `practice ${JSON.stringify(text)} ${stableAnswer(await request(base, "POST", `/api/sessions/${id}/turns`, cookie, { text }), id)}`,
    );
  }
  return lines;
}

function listFiles(root: string, dir = root): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? listFiles(root, path) : [relative(root, path)];
    });
}

function compare(a: string, b: string): number {
  const left = new Set(listFiles(a));
  const right = new Set(listFiles(b));
  const all = [...new Set([...left, ...right])].sort();
  let differing = 0;
  for (const file of all) {
    if (!left.has(file) || !right.has(file)) {
      console.log(`only in ${left.has(file) ? a : b}: ${file}`);
      differing += 1;
    } else if (
      withoutProgress(readFileSync(join(a, file), "utf8")) !== withoutProgress(readFileSync(join(b, file), "utf8"))
    ) {
      console.log(`differs: ${file}`);
      differing += 1;
    }
  }
  console.log(`${all.length} files compared, ${all.length - differing} identical, ${differing} different`);
  return differing === 0 ? 0 : 1;
}

const { positionals, values } = scriptArgs({
  allowPositionals: true,
  options: { checkout: { type: "string" }, out: { type: "string" } },
});
if (positionals[0] === "compare" && positionals.length === 3) {
  process.exitCode = compare(positionals[1]!, positionals[2]!);
} else if (positionals[0] === "capture" && values.checkout && values.out) {
  const checkout = resolve(values.checkout);
  const out = resolve(values.out);
  const scratch = join(out, "..", `.scratch-${process.pid}`);
  scratchDir = resolve(scratch);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  mkdirSync(scratch, { recursive: true });
  try {
    captureBench(checkout, out, scratch);
    captureCommands(checkout, out, scratch);
    await captureChat(checkout, out, scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`${listFiles(out).length} files captured in ${out}`);
} else {
  console.error("usage: behaviour-snapshot.ts capture --checkout DIR --out DIR | compare SNAPSHOT_A SNAPSHOT_B");
  process.exitCode = 2;
}
