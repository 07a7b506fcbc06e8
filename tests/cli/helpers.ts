import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";

const bin = fileURLToPath(new URL("../../bin/anamnesis.js", import.meta.url));
const bundledCli = new URL("../../dist/bundle/cli.js", import.meta.url);

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

type CliMain = (argv: string[]) => Promise<number>;
let loadedMain: Promise<CliMain> | undefined;

/** The compiled CLI's `main`, imported once per test worker: the code `bin/anamnesis.js` runs. */
function cliMain(): Promise<CliMain> {
  loadedMain ??= import(/* @vite-ignore */ pathToFileURL(fileURLToPath(bundledCli)).href).then(
    (module: { main: CliMain }) => module.main,
  );
  return loadedMain;
}

/** One CLI run at a time per worker: stdout, stderr and the environment are the process's own. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs the compiled CLI (`dist/bundle/cli.js`, what `bin/anamnesis.js` runs) in this process, with
 * stdout and stderr captured and `env` set for the run: the same code and output as a child process
 * without a Node start and the CLI's data loading for every run (most of `npm test`'s time when each
 * run was a child). Its event loop stays free, so servers in the test keep answering. A run that
 * needs its own process (standard input, a kill, plug-in providers registered for good) uses
 * {@link runBin} or {@link startCli}.
 */
export function runCli(args: readonly string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  const run = queue.then(() => runCapturedOnce(args, options.env ?? {}));
  queue = run.catch(() => undefined);
  return run;
}

async function runCapturedOnce(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  const main = await cliMain();
  const output = { stdout: "", stderr: "" };
  const restoreEnv = setEnvironment(env);
  const restoreStreams = [
    captureStream(process.stdout, output, "stdout"),
    captureStream(process.stderr, output, "stderr"),
  ];
  const exitCodeBefore = process.exitCode;
  process.exitCode = undefined;
  try {
    const status = await main([...args]);
    return { status, ...output };
  } finally {
    process.exitCode = exitCodeBefore;
    for (const restore of restoreStreams) restore();
    restoreEnv();
  }
}

/** Sets `env` on process.env for one run (undefined removes a variable) and gives back what restores it. */
function setEnvironment(env: NodeJS.ProcessEnv): () => void {
  const before = new Map(Object.keys(env).map((key) => [key, process.env[key]]));
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  return () => {
    for (const [key, value] of before) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}

function captureStream(
  stream: NodeJS.WriteStream,
  output: { stdout: string; stderr: string },
  name: "stdout" | "stderr",
): () => void {
  const original = Object.getOwnPropertyDescriptor(stream, "write");
  const capture = (chunk: string | Uint8Array, encoding?: unknown, callback?: unknown): boolean => {
    output[name] += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    const done = typeof encoding === "function" ? encoding : callback;
    if (typeof done === "function") queueMicrotask(() => (done as () => void)());
    return true;
  };
  Object.defineProperty(stream, "write", { value: capture, configurable: true, writable: true });
  return () => {
    if (original) Object.defineProperty(stream, "write", original);
    else delete (stream as { write?: unknown }).write;
  };
}

/** Runs the real `anamnesis` bin in a child process, as a user would (for standard input, or a process of its own). */
export function runBin(args: readonly string[], options: { env?: NodeJS.ProcessEnv; input?: string } = {}): CliResult {
  const result = spawnSync(process.execPath, [bin, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 26,
    env: { ...process.env, ...options.env },
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
/**
 * Runs the bin without blocking the event loop, so servers in the test process keep answering.
 * `onStdout` and `onStderr` see the output as it arrives; `kill()` ends the child like a user's Ctrl-C would not: SIGKILL.
 */
export function startCli(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; onStdout?: (chunk: string) => void; onStderr?: (chunk: string) => void } = {},
): {
  done: Promise<CliResult>;
  kill(): void;
} {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    options.onStdout?.(chunk);
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    options.onStderr?.(chunk);
  });
  const done = new Promise<CliResult>((resolve) => child.on("close", (status) => resolve({ status, stdout, stderr })));
  return { done, kill: () => child.kill("SIGKILL") };
}
