import { describe, expect, it, vi } from "vitest";
import { Semaphore, classifyFailure, parseRetryAfter, retryAfterFromHeaders } from "../../src/backends/resilience.ts";

// The retry loop, its backoff and the attempt timeout are tested as layers: with-retries.test.ts,
// with-attempt-timeout.test.ts and chat-backend-layers.test.ts.

describe("Semaphore", () => {
  it("admits at most `limit` holders and hands permits over in order", async () => {
    const semaphore = new Semaphore(2);
    const order: number[] = [];
    let peak = 0;
    await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const release = await semaphore.acquire();
        peak = Math.max(peak, semaphore.inFlight);
        order.push(i);
        await new Promise((resolve) => setTimeout(resolve, 5));
        release();
        release(); // a second release is a no-op
      }),
    );
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect(semaphore.inFlight).toBe(0);
  });

  it("hands a released permit to the waiter, not to a newcomer", async () => {
    const semaphore = new Semaphore(1);
    const release = await semaphore.acquire();
    const waiter = semaphore.acquire();
    release();
    const newcomer = semaphore.acquire(); // asks before the waiter's continuation runs
    await waiter;
    expect(semaphore.inFlight).toBe(1);
    let newcomerIn = false;
    void newcomer.then(() => (newcomerIn = true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(newcomerIn).toBe(false);
  });

  it("stops waiting when the signal aborts", async () => {
    const semaphore = new Semaphore(1);
    const release = await semaphore.acquire();
    const controller = new AbortController();
    const waiting = semaphore.acquire(controller.signal);
    controller.abort(new Error("cancelled"));
    await expect(waiting).rejects.toThrow("cancelled");
    release();
    expect(semaphore.inFlight).toBe(0);
  });

  it("gives waiters that share a signal one abort listener, removed after the last, and rejects them all on abort (negative control: a waiter under another signal stays)", async () => {
    const semaphore = new Semaphore(1);
    const holder = await semaphore.acquire();
    const shared = new AbortController();
    const other = new AbortController();
    const added = vi.spyOn(shared.signal, "addEventListener");
    const removed = vi.spyOn(shared.signal, "removeEventListener");
    const waiting = Array.from({ length: 20 }, () => semaphore.acquire(shared.signal));
    const elsewhere = semaphore.acquire(other.signal);
    expect(added).toHaveBeenCalledTimes(1);
    shared.abort(new Error("run cancelled"));
    for (const waiter of waiting) await expect(waiter).rejects.toThrow("run cancelled");
    holder();
    const release = await elsewhere;
    release();
    expect(semaphore.inFlight).toBe(0);

    const again = new AbortController();
    const first = await semaphore.acquire(again.signal);
    const queued = semaphore.acquire(again.signal);
    const removedAgain = vi.spyOn(again.signal, "removeEventListener");
    first();
    (await queued)();
    expect(removedAgain).toHaveBeenCalledTimes(1);
    expect(removed).not.toHaveBeenCalled();
  });

  it("rejects a non-positive limit", () => {
    expect(() => new Semaphore(0)).toThrow(/positive integer/);
  });
});

describe("Retry-After", () => {
  it("parses delta-seconds and HTTP dates", () => {
    const now = Date.parse("2024-05-01T12:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter("0.5", now)).toBe(500);
    expect(parseRetryAfter("Wed, 01 May 2024 12:00:07 GMT", now)).toBe(7000);
    expect(parseRetryAfter("Wed, 01 May 2024 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it("prefers retry-after-ms and reads Headers or plain objects", () => {
    expect(retryAfterFromHeaders(new Headers({ "retry-after-ms": "250", "retry-after": "9" }))).toBe(250);
    expect(retryAfterFromHeaders({ "Retry-After": "2" })).toBe(2000);
    expect(retryAfterFromHeaders(undefined)).toBeUndefined();
  });
});

describe("classifyFailure", () => {
  it("retries 408/409/429/5xx, not other 4xx", () => {
    for (const status of [408, 409, 429, 500, 502, 503, 504]) expect(classifyFailure({ status }).retryable).toBe(true);
    for (const status of [400, 401, 403, 404, 422]) expect(classifyFailure({ status }).retryable).toBe(false);
    expect(classifyFailure({ status_code: 503 })).toMatchObject({ retryable: true, status: 503 });
  });

  it("finds socket error codes in the cause chain", () => {
    const error = new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }),
    });
    expect(classifyFailure(error)).toEqual({ retryable: true, description: "connection refused (ECONNREFUSED)" });
    expect(classifyFailure(Object.assign(new Error("dns"), { code: "ENOTFOUND" })).retryable).toBe(false);
  });

  it("treats timeouts as retryable and anything else as final", () => {
    expect(classifyFailure(Object.assign(new Error("Request timed out."), { name: "TimeoutError" })).retryable).toBe(
      true,
    );
    expect(classifyFailure(new Error("model exploded"))).toEqual({ retryable: false, description: "model exploded" });
  });
});
