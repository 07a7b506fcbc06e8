/**
 * Client CPU per request, layer by layer: `npx tsx bench/http-transport.ts [--requests 4000]`.
 *
 * Why: at concurrency 32 against a 50 ms server (bench/backends.ts) the client's one event loop sets
 * the pace, so what a request costs the client in CPU is what decides throughput. Each line sends
 * small chat completions at concurrency 32 to the local OpenAI-protocol server (in a child process,
 * no latency) and prints the client's CPU time per request: `node:http` alone, the global fetch, our
 * keep-alive fetch (src/backends/keep-alive-fetch.ts), the OpenAI SDK over each, and our whole backend
 * (LangChain, semaphore, retries, answer checks). Two rounds; the second is printed.
 */
import { scriptArgs } from "./script-args.ts";
import { fork } from "node:child_process";
import { request as httpRequest, Agent } from "node:http";
import { availableParallelism, loadavg } from "node:os";
import OpenAI from "openai";
import { keepAliveFetch } from "../src/backends/keep-alive-fetch.ts";
import { createBackend } from "../src/backends/registry.ts";

const { values } = scriptArgs({ options: { requests: { type: "string", default: "4000" } } });
const total = Number(values.requests);
const CONCURRENCY = 32;

const server = fork(new URL("./backends.ts", import.meta.url).pathname, ["--serve", "--latency", "0"], {
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
const { baseUrl } = await new Promise<{ baseUrl: string }>((resolve) =>
  server.once("message", (message) => resolve(message as { baseUrl: string })),
);
const endpoint = new URL(`${baseUrl}/chat/completions`);
const payload = () =>
  JSON.stringify({ model: "m", messages: [{ role: "user", content: "hello there" }], temperature: 0, max_tokens: 200 });
const post = { method: "POST", headers: { "content-type": "application/json" } };

const agent = new Agent({ keepAlive: true });
const viaNodeHttp = () =>
  new Promise<unknown>((resolve, reject) => {
    const outgoing = httpRequest(endpoint, { ...post, agent }, (answer) => {
      let text = "";
      answer.setEncoding("utf8");
      answer.on("data", (chunk: string) => (text += chunk));
      answer.on("end", () => resolve(JSON.parse(text)));
    });
    outgoing.on("error", reject);
    outgoing.end(payload());
  });
const sdk = (fetchImpl: typeof fetch) => new OpenAI({ baseURL: baseUrl, apiKey: "x", maxRetries: 0, fetch: fetchImpl });
const [sdkGlobal, sdkKeepAlive] = [sdk(fetch), sdk(keepAliveFetch)];
const sdkCall = (client: OpenAI) => () =>
  client.chat.completions.create({
    model: "m",
    messages: [{ role: "user", content: "hello there" }],
    temperature: 0,
    max_tokens: 200,
  });
const backend = await createBackend("openai:m", {
  baseUrl,
  concurrency: CONCURRENCY,
  noCache: true,
  maxRetries: 0,
  env: {},
  config: {},
});

const layers: Array<[string, () => Promise<unknown>]> = [
  ["node:http request", viaNodeHttp],
  ["global fetch", async () => (await fetch(endpoint, { ...post, body: payload() })).json()],
  ["keep-alive fetch", async () => (await keepAliveFetch(endpoint, { ...post, body: payload() })).json()],
  ["OpenAI SDK, global fetch", sdkCall(sdkGlobal)],
  ["OpenAI SDK, keep-alive fetch", sdkCall(sdkKeepAlive)],
  [
    "backend.generate (openai:)",
    () => backend.generate([{ role: "user", content: "hello there" }], { temperature: 0, maxTokens: 200 }),
  ],
  ["backend.embed (openai:)", () => backend.embed!(["hello there"])],
];

/** Client CPU ms per request over `total` requests at concurrency 32. */
async function cpuPerRequest(send: () => Promise<unknown>): Promise<number> {
  let next = 0;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < total) await send();
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / total;
}

console.log(
  `machine: ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(2)}; ${total} requests per line at concurrency ${CONCURRENCY}, server in a child process`,
);
console.log("layer                           client CPU ms/request");
for (const round of [1, 2]) {
  for (const [name, send] of layers) {
    const perRequest = await cpuPerRequest(send);
    if (round === 2) console.log(`${name.padEnd(32)}${perRequest.toFixed(3).padStart(10)}`);
  }
}
agent.destroy();
server.send({ type: "stop" });
