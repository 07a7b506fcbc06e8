import { fork } from "node:child_process";
import type { FakeServer } from "../test-support/fake-llm-server.ts";

/**
 * The benchmarks' fake OpenAI-protocol server in a child process of its own, so that its replies are not
 * delayed by the work of the process being measured. The benchmark script forks itself with `--serve`
 * (its child calls {@link serveToParent}); the parent talks to it with {@link forkFakeServer}.
 */

/** The parent's handle on the child's server: its URL, its statistics on demand, and a stop. */
export interface FakeServerProcess {
  readonly baseUrl: string;
  stats<T>(): Promise<T>;
  stop(): void;
}

/** In the child: reports the server's base URL, answers `stats` with `stats()`, closes on `stop`. */
export function serveToParent(server: FakeServer, stats: () => unknown): void {
  if (!process.send) throw new Error("--serve is for the benchmark's own child process");
  process.on("disconnect", () => process.exit(0));
  process.send({ baseUrl: server.baseUrl });
  process.on("message", (message: { type: string }) => {
    if (message.type === "stats") process.send?.(stats());
    if (message.type === "stop") void server.close().then(() => process.exit(0));
  });
}

/** In the parent: forks this script with `args` (which include `--serve`) and waits for its server's URL. */
export async function forkFakeServer(args: readonly string[]): Promise<FakeServerProcess> {
  const child = fork(process.argv[1]!, [...args], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const ask = <T>(message?: unknown) =>
    new Promise<T>((resolve) => {
      child.once("message", (reply) => resolve(reply as T));
      if (message) child.send(message);
    });
  const { baseUrl } = await ask<{ baseUrl: string }>();
  return { baseUrl, stats: () => ask({ type: "stats" }), stop: () => child.send({ type: "stop" }) };
}
