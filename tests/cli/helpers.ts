import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../../bin/anamnesis.js", import.meta.url));

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `anamnesis` bin in a child process, as a user would. */
export function runCli(args: readonly string[], options: { env?: NodeJS.ProcessEnv } = {}): CliResult {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", env: { ...process.env, ...options.env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
