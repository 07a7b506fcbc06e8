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
  /** CPU time the server has used so far (user + system, ms), from /proc: a figure other processes do not inflate. */
  cpuMs(): number;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  stop(): Promise<void>;
}

export async function startChatServerProcess(args: readonly string[]): Promise<ChatServerProcess> {
  // CHAT_BENCH_PROFILE_DIR=DIR writes the server's V8 CPU profile there when it stops (to see where a turn's time goes).
  const profile = process.env.CHAT_BENCH_PROFILE_DIR
    ? ["--cpu-prof", `--cpu-prof-dir=${process.env.CHAT_BENCH_PROFILE_DIR}`]
    : [];
  const child = spawn(process.execPath, [...profile, CLI, "chat", "--port", "0", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
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
    cpuMs: () => {
      // Fields 14 and 15 of /proc/PID/stat (after the parenthesised name) are utime and stime in clock ticks (100 Hz).
      const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8")
        .replace(/^.*\) /, "")
        .split(" ");
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
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

/** Requests re-sent on a fresh connection because a kept-alive one was closed under them (see {@link rawRequest}). */
export const keepAliveRetries = { count: 0 };

/**
 * One HTTP request with full control of headers and body bytes (fetch would normalise them). A request
 * on a reused keep-alive connection that the server closed at that moment (its idle timeout, or after
 * answering a malformed request) fails with "socket hang up" before the server saw it; as Node's
 * documentation advises, that one case is re-sent once on a fresh connection, and counted.
 */
export async function rawRequest(
  port: number,
  options: {
    method: string;
    path: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    keepAlive?: boolean;
  },
): Promise<RawAnswer> {
  try {
    return await sendOnce(port, options, options.keepAlive !== false);
  } catch (error) {
    if (!(error as { reusedSocket?: boolean }).reusedSocket) throw error;
    keepAliveRetries.count += 1;
    return sendOnce(port, options, false);
  }
}

function sendOnce(
  port: number,
  options: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
  keepAlive: boolean,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: options.method,
        path: options.path,
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
        agent: keepAlive ? agent : false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error("timeout")));
    request.on("error", (error: NodeJS.ErrnoException) => {
      const hangUp = error.code === "ECONNRESET" || /socket hang up/.test(error.message);
      reject(Object.assign(error, { reusedSocket: hangUp && request.reusedSocket }));
    });
    request.end(options.body);
  });
}

export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

/**
 * A client cookie signed by the server, as a browser gets one on its first API call (the server refuses
 * cookies it did not sign); null when the address has had its share of new identities for now.
 */
export async function issuedClientCookie(port: number): Promise<string | null> {
  const answer = await rawRequest(port, { method: "GET", path: "/api/cases" });
  const cookie = [answer.headers["set-cookie"] ?? []].flat().find((line) => line.startsWith("anamnesis_client="));
  return cookie ? cookie.split(";")[0]! : null;
}
