import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAIServer, type FakeServer } from "../../test-support/fake-llm-server.ts";
import { tempDirForFile } from "../temp-dirs.ts";
import { startCli } from "./helpers.ts";

/**
 * `anamnesis chat` (the web server, as a user starts it) with an OpenAI-protocol backend that answers
 * 500: by default the offline engine answers the turn and says so; `--no-fallback` fails the turn.
 */

const scratch = tempDirForFile("anamnesis-chat-fallback-");
const config = join(scratch, "config.json");
let llm: FakeServer;

beforeAll(async () => {
  llm = await startFakeOpenAIServer({ respond: () => ({ status: 500 }) });
  // No retries, so a failed turn is one request.
  writeFileSync(config, JSON.stringify({ defaults: { maxRetries: 0 } }));
});
afterAll(async () => {
  await llm.close();
});

/** Starts `anamnesis chat` on a free port, runs one turn, and stops it. */
async function oneTurn(extra: readonly string[]): Promise<{ banner: string; turn: any }> {
  let printed = "";
  let announce: (url: string) => void = () => {};
  const listening = new Promise<string>((resolve) => (announce = resolve));
  const env = {
    ANAMNESIS_CONFIG: config,
    ANAMNESIS_CACHE_DIR: join(scratch, "cache"),
    OPENAI_API_KEY: "",
    OPENAI_BASE_URL: "",
  };
  const child = startCli(
    [
      "chat",
      "--backend",
      "openai:gpt-test",
      "--base-url",
      llm.baseUrl,
      "--port",
      "0",
      "--db",
      ":memory:",
      "--timeout-ms",
      "2000",
      ...extra,
    ],
    {
      env,
      onStdout: (chunk) => {
        printed += chunk;
        const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(printed);
        if (url) announce(url[1]!);
      },
    },
  );
  try {
    const url = await Promise.race([
      listening,
      child.done.then((result) => Promise.reject(new Error(`chat exited: ${result.stderr}`))),
    ]);
    const post = async (path: string, body: unknown) =>
      (
        await fetch(`${url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).json() as Promise<any>;
    const session = await post("/api/sessions", {});
    return {
      banner: printed,
      turn: await post(`/api/sessions/${session.id}/turns`, { text: "I've had a cough for two weeks." }),
    };
  } finally {
    child.kill();
    await child.done;
  }
}

describe("anamnesis chat (web) when the backend fails", () => {
  it("answers the turn with the offline engine and marks it", async () => {
    const { banner, turn } = await oneTurn([]);
    expect(banner).toMatch(
      /^Anamnesis chat \(openai:gpt-test; the offline engine answers a turn the backend fails\) at http:\/\/127\.0\.0\.1:\d+/,
    );
    expect(turn.outcome.doctor).toMatch(/\S/);
    expect(turn.outcome.fallback).toMatchObject({
      turn: 1,
      backend: "openai:gpt-test",
      stages: ["nlu", "policy", "nlg"],
    });
    expect(turn.outcome.fallback.reason).toMatch(/^openai:gpt-test failed at nlu: backend openai:gpt-test at .*500/);
    expect(turn).toMatchObject({ turns: 1, retryable: true, failed: false });
  });

  it("with --no-fallback fails the turn and leaves it to Retry, as before", async () => {
    const { banner, turn } = await oneTurn(["--no-fallback"]);
    expect(banner).toMatch(/^Anamnesis chat \(openai:gpt-test; no offline fallback\)/);
    expect(turn.outcome).toMatchObject({ doctor: null, fallback: null });
    expect(turn.outcome.error).toMatch(/^backend openai:gpt-test at .*500/);
    expect(turn).toMatchObject({ turns: 0, retryable: true, failed: true, fallbacks: [] });
  });
});
