import { describe, expect, it } from "vitest";
import { ApiCallError, MalformedAnswerError } from "../../src/backends/errors.ts";
import { apiCallError, readChatCompletion, readChatCompletionStream } from "../../src/backends/openai-chat-response.ts";
import { classifyFailure } from "../../src/backends/resilience.ts";
import { UsageRecorder } from "../../src/backends/run-record.ts";
import { AnamnesisError } from "../../src/foundation/errors.ts";
import { doctorActionsSchema, fakeServerBackendForTest } from "./helpers.ts";

const PATH = "/v1/chat/completions";
const read = (body: unknown, options: { toolCall?: boolean; logprobs?: boolean; contentType?: string } = {}) =>
  readChatCompletion(typeof body === "string" ? body : JSON.stringify(body), {
    path: PATH,
    contentType: options.contentType ?? "application/json",
    toolCall: options.toolCall ?? false,
    logprobs: options.logprobs ?? false,
  });

/** A readable stream of `pieces`, each encoded as UTF-8 bytes and split at `splitAt` bytes. */
function streamOf(text: string, splitAt = 5): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      for (let index = 0; index < bytes.length; index += splitAt)
        controller.enqueue(bytes.slice(index, index + splitAt));
      controller.close();
    },
  });
}

const event = (data: unknown) => `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

describe("reading a chat completion", () => {
  it("reads the first choice's text, the usage and the logprobs asked for", () => {
    const answer = {
      choices: [
        {
          message: { role: "assistant", content: "Any fever?" },
          logprobs: {
            content: [
              { token: "Any", logprob: -0.1, top_logprobs: [{ token: "Any", logprob: -0.1, bytes: [65] }] },
              { token: " fever?", logprob: -0.2, top_logprobs: [] },
            ],
          },
        },
        { message: { content: "second choice" } },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
    };
    expect(read(answer, { logprobs: true })).toEqual({
      text: "Any fever?",
      usage: { inputTokens: 12, outputTokens: 3 },
      logprobs: [
        { token: "Any", logprob: -0.1, top: [{ token: "Any", logprob: -0.1 }] },
        { token: " fever?", logprob: -0.2 },
      ],
    });
    expect(read(answer)).not.toHaveProperty("logprobs");
  });

  it("reads a null content and a missing usage as empty", () => {
    expect(read({ choices: [{ message: { content: null } }] })).toEqual({
      text: "",
      usage: { inputTokens: 0, outputTokens: 0 },
    });
  });

  it("reads a forced tool call's arguments as sent, an object's as JSON, and falls back to the text", () => {
    const call = (args: unknown) => ({
      choices: [
        { message: { content: "prose", tool_calls: [{ id: "c", function: { name: "act", arguments: args } }] } },
      ],
    });
    expect(read(call('{"a": 1}'), { toolCall: true }).text).toBe('{"a": 1}');
    expect(read(call({ a: 1 }), { toolCall: true }).text).toBe('{"a":1}');
    expect(read({ choices: [{ message: { content: '{"a":2}' } }] }, { toolCall: true }).text).toBe('{"a":2}');
    expect(read(call('{"a": 1}')).text).toBe("prose");
  });

  it("names a 200 answer that is not JSON, or not a chat completion, without retrying it", () => {
    const failure = (body: string, contentType?: string) => {
      try {
        read(body, contentType === undefined ? {} : { contentType });
      } catch (error) {
        expect(error).toBeInstanceOf(MalformedAnswerError);
        expect(classifyFailure(error).retryable).toBe(false);
        return (error as Error).message;
      }
      throw new Error("no error");
    };
    expect(failure("<html>Bad gateway</html>", "text/html")).toBe(
      `the server answered ${PATH} with status 200 but not JSON (text/html): "<html>Bad gateway</html>"`,
    );
    expect(failure('{"choices": [{"message": {"content": "cut off')).toMatch(/^the server answered .* but not JSON/);
    expect(failure('{"result": "hello"}')).toBe(
      `the server's chat completion from ${PATH} is not the protocol's: no 'choices' list in "{\\"result\\": \\"hello\\"}"`,
    );
    expect(failure('{"choices": []}')).toBe(
      `the server's chat completion from ${PATH} is not the protocol's: an empty 'choices' list in "{\\"choices\\": []}"`,
    );
    expect(failure('{"choices": [{"message": {"content": 42}}]}')).toMatch(
      /is not the protocol's: choices\.0\.message\.content: .*expected string/,
    );
  });
});

describe("reading a streamed chat completion", () => {
  it("joins the pieces across chunk boundaries (multi-byte characters too) and keeps the last usage", async () => {
    const text =
      ": a comment\n\n" +
      event({ choices: [{ index: 0, delta: { role: "assistant", content: "" } }] }) +
      event({ choices: [{ index: 0, delta: { content: "Ça fait mal " } }] }) +
      "event: message\r\n" +
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "ici — là?" } }] })}\r\n\r\n` +
      event({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }) +
      event({ choices: [], usage: { prompt_tokens: 9, completion_tokens: 4 } }) +
      event("[DONE]") +
      event({ choices: [{ index: 0, delta: { content: "after the end" } }] });
    for (const splitAt of [1, 3, 7, 1000]) {
      expect(await readChatCompletionStream(streamOf(text, splitAt), { path: PATH, toolCall: false })).toEqual({
        text: "Ça fait mal ici — là?",
        usage: { inputTokens: 9, outputTokens: 4 },
      });
    }
  });

  it("pieces together the first tool call's arguments, and reads a stream cut before [DONE]", async () => {
    const piece = (index: number, args: string) =>
      event({ choices: [{ delta: { tool_calls: [{ index, function: { arguments: args } }] } }] });
    const text = piece(0, '{"act') + piece(1, "other") + piece(0, 'ions": []}');
    expect(await readChatCompletionStream(streamOf(text), { path: PATH, toolCall: true })).toEqual({
      text: '{"actions": []}',
      usage: { inputTokens: 0, outputTokens: 0 },
    });
  });

  it("fails on an error event, and names a chunk that is not JSON", async () => {
    const error = event({ error: { message: "the model is overloaded" } });
    await expect(readChatCompletionStream(streamOf(error), { path: PATH, toolCall: false })).rejects.toThrow(
      "the model is overloaded",
    );
    await expect(
      readChatCompletionStream(streamOf(event("{not json")), { path: PATH, toolCall: false }),
    ).rejects.toThrow(MalformedAnswerError);
  });
});

describe("an error answer", () => {
  const headers = (init: Record<string, string> = {}) => new Headers(init);

  it("is worded as the OpenAI SDK worded it", () => {
    const message = (status: number, body: string) => apiCallError(status, headers(), body).message;
    expect(message(400, JSON.stringify({ error: { message: "bad request", type: "invalid_request_error" } }))).toBe(
      "400 bad request",
    );
    expect(message(400, JSON.stringify({ error: { message: { detail: "x" } } }))).toBe('400 {"detail":"x"}');
    expect(message(404, JSON.stringify({ error: "model 'x' not found" }))).toBe(`404 "model 'x' not found"`);
    expect(message(404, JSON.stringify({ detail: "Not Found" }))).toBe("404 status code (no body)");
    expect(message(401, "unauthorised")).toBe("401 unauthorised");
    expect(message(502, "")).toBe("502 status code (no body)");
  });

  it("keeps the status, headers and body; 408, 409, 429 and 5xx are retried, with the wait the server asks", () => {
    const error = apiCallError(429, headers({ "retry-after": "3" }), '{"error": {"message": "slow down"}}');
    expect(error).toBeInstanceOf(ApiCallError);
    expect(error).toMatchObject({ status: 429, responseBody: '{"error": {"message": "slow down"}}' });
    expect(classifyFailure(error)).toEqual({
      retryable: true,
      status: 429,
      description: "HTTP 429: 429 slow down",
      retryAfterMs: 3000,
    });
    const retried = [400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503].filter(
      (status) => classifyFailure(apiCallError(status, headers(), "")).retryable,
    );
    expect(retried).toEqual([408, 409, 429, 500, 502, 503]);
    expect(classifyFailure(apiCallError(503, headers({ "retry-after-ms": "250" }), "")).retryAfterMs).toBe(250);
  });
});

describe("openai backend and a server answering garbage", () => {
  it("ends a request whose answer is not JSON with one clear error, sent once", async () => {
    const { server, backend } = await fakeServerBackendForTest(
      "openai",
      "openai:gpt-test",
      { respond: () => ({ garbage: '{"choices": [{"message": {"content": "Any fe' }) },
      { retryBaseDelayMs: 1 },
    );
    const error = await backend.generate([{ role: "user", content: "hello" }]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AnamnesisError);
    expect((error as Error).message).toMatch(
      /^backend openai:gpt-test at .*: the server answered \/v1\/chat\/completions with status 200 but not JSON/,
    );
    expect(server.calls).toHaveLength(1);
  });

  it("counts a reply that is not JSON as a format error with its reason, not a crash", async () => {
    const recorder = new UsageRecorder();
    const { backend } = await fakeServerBackendForTest(
      "openai",
      "openai:gpt-test",
      { respond: () => ({ content: '{"actions": [{"action": "inquire"' }) },
      { recorder },
    );
    const result = await backend.generateObject([{ role: "user", content: "hello" }], doctorActionsSchema);
    expect(result.object).toBeNull();
    expect(result.formatError?.kind).toBe("invalid_json");
    expect(result.formatError?.message).toMatch(/^invalid JSON: /);
    expect(recorder.summary()).toMatchObject({ objects: 1, formatErrors: 1, requests: 2 });
  });
});
