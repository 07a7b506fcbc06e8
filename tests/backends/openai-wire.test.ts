import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { recordOpenAIWire, type WireRecord, type WireRequest } from "./openai-wire-scenarios.ts";

/**
 * What the `openai:` driver sends and returns, scenario by scenario, against what LangChain's
 * `ChatOpenAI` over the OpenAI SDK sent and returned for the same calls (fixtures/openai-wire.json,
 * recorded before the driver was rewritten on `fetch`): the same bodies byte for byte, the same
 * headers in the same order except the SDK's own (`x-stainless-*`, and `user-agent`, which names the
 * client), and the same results and error messages.
 */
const RECORDED = JSON.parse(
  readFileSync(new URL("./fixtures/openai-wire.json", import.meta.url), "utf8"),
) as WireRecord[];

/** Headers that name the client library rather than the request. */
const CLIENT_HEADERS = /^(x-stainless-|user-agent$)/i;

function withoutClientHeaders(request: WireRequest): WireRequest {
  return { ...request, headers: request.headers.filter(([name]) => !CLIENT_HEADERS.test(name)) };
}

describe("openai driver on the wire", () => {
  let played: WireRecord[];
  beforeAll(async () => {
    played = await recordOpenAIWire();
  });

  it("sends what LangChain's ChatOpenAI sent and returns what it returned, in every scenario", () => {
    expect(played.map((record) => record.scenario)).toEqual(RECORDED.map((record) => record.scenario));
    for (const [index, record] of played.entries()) {
      const before = RECORDED[index]!;
      expect(record.requests.map(withoutClientHeaders), record.scenario).toEqual(
        before.requests.map(withoutClientHeaders),
      );
      expect(record.outcome, record.scenario).toEqual(before.outcome);
    }
  });

  it("names itself in user-agent and sends no SDK telemetry headers", () => {
    const chat = played.flatMap((record) => record.requests).filter((request) => request.path.endsWith("/completions"));
    for (const request of chat) {
      const names = request.headers.map(([name]) => name);
      expect(names.filter((name) => CLIENT_HEADERS.test(name))).toEqual(["user-agent"]);
    }
  });
});
