import { describe, expect, it } from "vitest";
import { createChatBackend } from "../../src/backends/chat-backend.ts";
import type { ResolvedSettings } from "../../src/backends/settings.ts";
import { UsageRecorder } from "../../src/backends/run-record.ts";
import { tempDirForTest } from "./helpers.ts";
import { httpFailure, scriptedDriver, type Step } from "./scripted-driver.ts";

/**
 * The order of createChatBackend's layers (records, repair, cache, retries, concurrency limit, attempt
 * timeout), pinned by what it does: a cache hit takes no permit, each retry queues for a permit again
 * and none is held while backing off, and queueing never counts against an attempt's timeout.
 */

const USER = [{ role: "user", content: "cough" }] as const;

function backendOf(
  steps: Step[],
  settings: Partial<ResolvedSettings> = {},
  driverOverrides: Parameters<typeof scriptedDriver>[1] = {},
) {
  const driver = scriptedDriver(steps, driverOverrides);
  const recorder = new UsageRecorder();
  const backend = createChatBackend(driver, {
    cacheDir: tempDirForTest(),
    env: {},
    recorder,
    retryBaseDelayMs: 1,
    ...settings,
  });
  return { driver, recorder, backend };
}

describe("createChatBackend's layers", () => {
  it("answer a cache hit without waiting for a permit", { timeout: 5_000 }, async () => {
    const { driver, backend } = backendOf([{ text: "cached" }, { hang: true }], { concurrency: 1 });
    await backend.generate(USER, { seed: 1 });
    const controller = new AbortController();
    const holding = backend.generate(USER, { seed: 2, signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(driver.inFlight).toBe(1);
    expect(await backend.generate(USER, { seed: 1 })).toMatchObject({ text: "cached", cached: true });
    controller.abort(new Error("done"));
    await expect(holding).rejects.toThrow("done");
  });

  it("queue each retry for a permit again, and hold none while backing off", async () => {
    const { driver, recorder, backend } = backendOf(
      [{ fail: httpFailure(503, { "retry-after-ms": "60" }) }, { text: "other", delayMs: 10 }, { text: "retried" }],
      { concurrency: 1, noCache: true },
    );
    const retried = backend.generate(USER, { seed: 1 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const other = backend.generate(USER, { seed: 2 });
    expect((await other).text).toBe("other");
    expect((await retried).text).toBe("retried");
    expect(driver.requests.map((request) => request.seed)).toEqual([1, 2, 1]);
    expect(driver.maxInFlight).toBe(1);
    expect(recorder.records.map(({ attempts }) => attempts)).toEqual([1, 2]);
  });

  it("start an attempt's clock once it holds its permit", async () => {
    const { backend } = backendOf(
      [
        { text: "first", delayMs: 120 },
        { text: "second", delayMs: 120 },
      ],
      { concurrency: 1, timeoutMs: 200, maxRetries: 0, noCache: true },
    );
    const replies = await Promise.all([backend.generate(USER), backend.generate(USER)]);
    expect(replies.map((reply) => reply.text)).toEqual(["first", "second"]);
  });

  it("retry a timed-out attempt even for a driver that calls its own errors final, and give up naming the timeout", async () => {
    const final = () => ({ retryable: false, description: "final" });
    const { driver, backend } = backendOf(
      [{ hang: true }, { text: "late but fine" }],
      { timeoutMs: 50, noCache: true },
      { classifyError: final },
    );
    expect((await backend.generate(USER)).text).toBe("late but fine");
    expect(driver.signals[0]!.aborted).toBe(true);

    const hanging = backendOf([{ hang: true }, { hang: true }], { timeoutMs: 50, maxRetries: 1, noCache: true });
    await expect(hanging.backend.generate(USER)).rejects.toThrow(
      "backend scripted:m at in-process: no response within 50 ms (timeout) (gave up after 2 attempts)",
    );
    expect(hanging.driver.signals.map((signal) => signal.aborted)).toEqual([true, true]);
  });

  it("record a cache hit with no attempts", async () => {
    const { recorder, backend } = backendOf([{ text: "hello" }]);
    await backend.generate(USER);
    await backend.generate(USER);
    expect(recorder.records.map(({ operation, cached, attempts }) => ({ operation, cached, attempts }))).toEqual([
      { operation: "generate", cached: false, attempts: 1 },
      { operation: "generate", cached: true, attempts: 0 },
    ]);
  });

  it("show the settings that shape outputs in parameters, after the driver's", () => {
    const { backend } = backendOf([], { temperature: 0, streaming: true, concurrency: 3 });
    expect(backend.parameters).toEqual({
      endpoint: "in-process",
      temperature: 0,
      structuredOutput: "jsonSchema",
      streaming: true,
      concurrency: 3,
      timeoutMs: 120_000,
      maxRetries: 4,
    });
    expect(Object.keys(backend.parameters)).toEqual([
      "endpoint",
      "temperature",
      "structuredOutput",
      "streaming",
      "concurrency",
      "timeoutMs",
      "maxRetries",
    ]);
  });
});
