import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { request as httpRequest, Agent } from "node:http";
import { fileURLToPath } from "node:url";

/**
 * The chat server as the user runs it (`anamnesis chat`), in a child process, for the server benchmarks:
 * started on a free loopback port, its URL read from its first line of output.
 */

const CLI = fileURLToPath(new URL("../bin/anamnesis.js", import.meta.url));

export interface ChatServerProcess {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Resident memory now (MiB), from /proc. */
  rssMiB(): number;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  stop(): Promise<void>;
}

export async function startChatServerProcess(args: readonly string[]): Promise<ChatServerProcess> {
  const child = spawn(process.execPath, [CLI, "chat", "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const match = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`chat server exited with ${code} before listening: ${stderr}`)));
  });
  return {
    url,
    port: Number(new URL(url).port),
    child,
    rssMiB: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0) / 1024,
    stderr: () => stderr,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** One HTTP request with full control of headers and body bytes (fetch would normalise them). */
export function rawRequest(port: number, options: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer; keepAlive?: boolean }): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: "127.0.0.1", port, method: options.method, path: options.path, headers: { host: `127.0.0.1:${port}`, ...options.headers }, agent: options.keepAlive === false ? false : agent },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }));
        response.on("error", reject);
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error("timeout")));
    request.on("error", reject);
    request.end(options.body);
  });
}

export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}
