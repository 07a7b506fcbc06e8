import { describe, expect, it } from "vitest";
import { AnamnesisError } from "../../src/foundation/errors.ts";
import { DEFAULT_RETRY_POLICY } from "../../src/backends/resilience.ts";
import { withRetries } from "../../src/backends/with-retries.ts";
import { wrapChatBackend } from "../../src/backends/wrap-chat-backend.ts";
import { httpFailure, scriptedDriver } from "./scripted-driver.ts";

/** The retries layer alone around a scripted driver. */

const USER = [{ role: "user", content: "cough" }] as const;
const policy = { ...DEFAULT_RETRY_POLICY, maxRetries: 3, baseDelayMs: 100, maxDelayMs: 250 };

describe("withRetries", () => {
  it("backs off with full jitter: uniform in [0, min(max, base·2^(n-1))]", async () => {
    const delays: number[] = [];
    const driver = scriptedDriver([
      { fail: httpFailure(503) },
      { fail: httpFailure(503) },
      { fail: httpFailure(503) },
      { text: "done" },
    ]);
    const backend = wrapChatBackend({
      driver,
      middleware: [withRetries({ policy, random: () => 0.01, onRetry: ({ delayMs }) => delays.push(delayMs) })],
    });
    expect((await backend.generate(USER)).text).toBe("done");
    expect(driver.requests).toHaveLength(4);
    expect(delays).toEqual([1, 2, 3]); // 1% of 100, 200, 250 (capped)
  });

  it("waits exactly what Retry-After asks", async () => {
    const delays: number[] = [];
    const driver = scriptedDriver([{ fail: httpFailure(429, { "retry-after-ms": "30" }) }]);
    const backend = wrapChatBackend({
      driver,
      middleware: [withRetries({ policy, onRetry: ({ delayMs }) => delays.push(delayMs) })],
    });
    await backend.generate(USER);
    expect(delays).toEqual([30]);
  });

  it("gives up after maxRetries, and at once on a final error or an excessive Retry-After", async () => {
    const failing = scriptedDriver(Array.from({ length: 4 }, () => ({ fail: httpFailure(500) })));
    const retrying = wrapChatBackend({
      driver: failing,
      middleware: [withRetries({ policy: { ...policy, baseDelayMs: 1 } })],
    });
    await expect(retrying.generate(USER)).rejects.toThrow("HTTP 500: status 500 (gave up after 4 attempts)");
    expect(failing.requests).toHaveLength(4);

    const refused = scriptedDriver([{ fail: httpFailure(401) }]);
    const error = await wrapChatBackend({ driver: refused, middleware: [withRetries({ policy })] })
      .generate(USER)
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toBe("backend scripted:m at in-process: HTTP 401: status 401");
    expect(refused.requests).toHaveLength(1);

    const patient = scriptedDriver([{ fail: httpFailure(429, { "retry-after": "3600" }) }]);
    await expect(
      wrapChatBackend({ driver: patient, middleware: [withRetries({ policy })] }).generate(USER),
    ).rejects.toThrow("server asked to wait 3600 s");
    expect(patient.requests).toHaveLength(1);
  });

  it("fails for good with one BACKEND_ERROR naming the backend and endpoint, the secret blanked and a cause holding it dropped", async () => {
    const secret = "sk-secret-1234";
    const driver = scriptedDriver([{ fail: httpFailure(401, {}, `Incorrect API key provided: ${secret}`) }]);
    const backend = wrapChatBackend({ driver, middleware: [withRetries({ policy, secrets: [secret] })] });
    const error = (await backend.generate(USER).catch((caught: unknown) => caught)) as AnamnesisError;
    expect(error).toBeInstanceOf(AnamnesisError);
    expect(error.code).toBe("BACKEND_ERROR");
    expect(error.message).toBe("backend scripted:m at in-process: HTTP 401: Incorrect API key provided: ***");
    expect(error.cause).toBeUndefined();

    const plain = scriptedDriver([{ fail: httpFailure(400, {}, "bad request") }]);
    const kept = (await wrapChatBackend({ driver: plain, middleware: [withRetries({ policy, secrets: [secret] })] })
      .generate(USER)
      .catch((caught: unknown) => caught)) as Error;
    expect((kept.cause as Error).message).toBe("bad request");
  });

  it("asks the driver first how to read its errors", async () => {
    const driver = scriptedDriver([{ fail: new Error("model exploded") }, { text: "fine" }], {
      classifyError: () => ({ retryable: true, description: "the driver says: try again" }),
    });
    const backend = wrapChatBackend({ driver, middleware: [withRetries({ policy: { ...policy, baseDelayMs: 1 } })] });
    expect((await backend.generate(USER)).text).toBe("fine");
    expect(driver.requests).toHaveLength(2);
  });

  it("cancels during backoff with the caller's reason", async () => {
    const controller = new AbortController();
    const driver = scriptedDriver([{ fail: httpFailure(503, { "retry-after": "10" }) }]);
    const pending = wrapChatBackend({ driver, middleware: [withRetries({ policy })] }).generate(USER, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error("user stop")), 20);
    await expect(pending).rejects.toThrow("user stop");
    expect(driver.requests).toHaveLength(1);
  });
});
