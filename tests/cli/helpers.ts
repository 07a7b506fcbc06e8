import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../../bin/anamnesis.js", import.meta.url));

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `anamnesis` bin in a child process, as a user would. */
export function runCli(args: readonly string[], options: { env?: NodeJS.ProcessEnv; input?: string } = {}): CliResult {
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
