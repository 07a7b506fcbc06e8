import { describe, expect, it } from "vitest";
import { withConcurrencyLimit } from "../../src/backends/with-concurrency-limit.ts";
import { wrapChatBackend } from "../../src/backends/wrap-chat-backend.ts";
import { scriptedDriver } from "./scripted-driver.ts";

/** The concurrency-limit layer alone around a scripted driver. */

const USER = [{ role: "user", content: "cough" }] as const;

describe("withConcurrencyLimit", () => {
  it("keeps at most `limit` attempts in flight and lets every call through in turn", async () => {
    const driver = scriptedDriver(Array.from({ length: 6 }, (_, index) => ({ text: `reply ${index}`, delayMs: 20 })));
    const backend = wrapChatBackend({ driver, middleware: [withConcurrencyLimit(2)] });
    const replies = await Promise.all(Array.from({ length: 6 }, () => backend.generate(USER)));
    expect(replies.map((reply) => reply.text)).toEqual([
      "reply 0",
      "reply 1",
      "reply 2",
      "reply 3",
      "reply 4",
      "reply 5",
    ]);
    expect(driver.maxInFlight).toBe(2);
  });

  it("stops a queued call with the caller's reason, and gives its turn to the next", async () => {
    const driver = scriptedDriver([{ text: "first", delayMs: 40 }]);
    const backend = wrapChatBackend({ driver, middleware: [withConcurrencyLimit(1)] });
    const first = backend.generate(USER);
    const controller = new AbortController();
    const queued = backend.generate(USER, { signal: controller.signal });
    controller.abort(new Error("user stop"));
    await expect(queued).rejects.toThrow("user stop");
    expect((await first).text).toBe("first");
    expect((await backend.generate(USER)).text).toBe("ok");
    expect(driver.requests).toHaveLength(2);
  });

  it("gives the permit back when the attempt fails", async () => {
    const driver = scriptedDriver([{ fail: new Error("broken") }]);
    const backend = wrapChatBackend({ driver, middleware: [withConcurrencyLimit(1)] });
    await expect(backend.generate(USER)).rejects.toThrow("broken");
    expect((await backend.generate(USER)).text).toBe("ok");
  });

  it("refuses a limit that is not a positive integer", () => {
    expect(() => withConcurrencyLimit(0)).toThrow(/concurrency must be a positive integer/);
  });
});
