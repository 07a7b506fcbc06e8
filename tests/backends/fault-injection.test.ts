import { describe, expect, it } from "vitest";
import type { BackendOptions } from "../../src/backends/config.ts";
import { AnamnesisError } from "../../src/foundation/errors.ts";
import { scripted, type FakeServerOptions, type Reply } from "../../test-support/fake-llm-server.ts";
import { fakeServerBackendForTest } from "./helpers.ts";

/**
 * Fault injection through the real clients (LangChain's ChatOpenAI / ChatOllama and our retries) against
 * local servers that misbehave: 429 with Retry-After, 500, hangs, dropped connections, replies cut off
 * mid-stream, garbage with status 200, error objects where a string is expected, and bad embeddings
 * answers. Each either recovers (retryable faults) or fails with one clear message naming the backend
 * and endpoint — never a crash, an `[object Object]` or a "Cannot read properties of undefined".
 */

const USER = [{ role: "user", content: "I have had a cough for two days." }] as const;
const OK: Reply = { content: "Any fever?" };

for (const protocol of ["openai", "ollama"] as const) {
  describe(`${protocol} backend under faults`, () => {
    const id = protocol === "openai" ? "openai:gpt-test" : "ollama:llama3.1:8b";
    /** The backend on a fresh misbehaving server and cache, closed and removed when the test finishes. */
    const open = (serverOptions: FakeServerOptions, options: BackendOptions = {}) =>
      fakeServerBackendForTest(protocol, id, serverOptions, { retryBaseDelayMs: 5, timeoutMs: 2000, ...options });

    async function failure(promise: Promise<unknown>): Promise<AnamnesisError> {
      const error = await promise.then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(AnamnesisError);
      const message = (error as Error).message;
      expect(message).not.toMatch(/\[object Object\]|Cannot read properties|undefined is not|is not a function/);
      expect(message).toMatch(/^backend /);
      return error as AnamnesisError;
    }

    it("waits out a 429 for its Retry-After, then succeeds", async () => {
      const { server, backend } = await open({
        respond: scripted({ status: 429, headers: { "retry-after": "1" } }, OK),
      });
      const started = performance.now();
      expect((await backend.generate(USER, { noCache: true })).text).toBe("Any fever?");
      expect(performance.now() - started).toBeGreaterThanOrEqual(950);
      expect(server.calls).toHaveLength(2);
    });

    it("retries a 500 and a dropped connection", async () => {
      const { server, backend } = await open({ respond: scripted({ status: 500 }, { destroy: true }, OK) });
      expect((await backend.generate(USER, { noCache: true })).text).toBe("Any fever?");
      expect(server.calls).toHaveLength(3);
    });

    it("times out a hanging request and retries it", async () => {
      const { server, backend } = await open({ respond: scripted({ hang: true }, OK) }, { timeoutMs: 300 });
      expect((await backend.generate(USER, { noCache: true })).text).toBe("Any fever?");
      expect(server.calls).toHaveLength(2);
    });

    it("recovers from a reply cut off mid-stream, or names the failure", async () => {
      const { backend } = await open({ respond: scripted({ cut: true }, OK) });
      const answer = await backend.generate(USER, { noCache: true }).then(
        (result) => result.text,
        (error: Error) => error.message,
      );
      expect(answer).not.toMatch(/\[object Object\]|Cannot read properties/);
      expect(answer === "Any fever?" || /^backend /.test(answer)).toBe(true);
    });

    it("gives up after the retries with one line naming the backend, the endpoint and the last status", async () => {
      const { server, backend } = await open({ respond: () => ({ status: 503 }) }, { maxRetries: 2 });
      const error = await failure(backend.generate(USER, { noCache: true }));
      expect(error.message).toContain(server.url);
      expect(error.message).toMatch(/503/);
      expect(error.message.split("\n")).toHaveLength(1);
      expect(server.calls).toHaveLength(3);
    });

    it("reports garbage with status 200 (an HTML page) as a clear error", async () => {
      const { backend } = await open(
        { respond: () => ({ garbage: "<html><body>502 Bad Gateway</body></html>", contentType: "text/html" }) },
        { maxRetries: 0 },
      );
      await failure(backend.generate(USER, { noCache: true }));
    });

    it("reads an error object where the protocol has a string, instead of printing [object Object]", async () => {
      const body = { error: { message: "model 'llama3.1:8b' not found, try pulling it first", type: "not_found" } };
      const { backend } = await open({ respond: () => ({ status: 404, body }) }, { maxRetries: 0 });
      const error = await failure(backend.generate(USER, { noCache: true }));
      expect(error.message).toMatch(/model 'llama3\.1:8b' not found/);
    });

    it("reports a bad embeddings answer with a real message", async () => {
      for (const bad of [
        { garbage: "{}" },
        { garbage: '{"data": null, "embeddings": null}' },
        { garbage: '{"data": [{"embedding": "x"}], "embeddings": [1]}' },
        { status: 500, body: { error: { message: "embedding model crashed" } } },
      ] as Reply[]) {
        const { backend } = await open({ embedFault: () => bad }, { maxRetries: 0 });
        const error = await failure(backend.embed!(["a cough"], { noCache: true }));
        expect(error.message).toMatch(/embedding/i);
      }
    });
  });
}
