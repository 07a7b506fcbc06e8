import { describe, expect, it } from "vitest";
import { AttemptTimeoutError, withAttemptTimeout } from "../../src/backends/with-attempt-timeout.ts";
import { wrapChatBackend } from "../../src/backends/wrap-chat-backend.ts";
import { scriptedDriver } from "./scripted-driver.ts";

/** The attempt-timeout layer alone around a scripted driver. */

const USER = [{ role: "user", content: "cough" }] as const;

describe("withAttemptTimeout", () => {
  it("ends an attempt that does not answer in time and aborts its signal", async () => {
    const driver = scriptedDriver([{ hang: true }]);
    const backend = wrapChatBackend({ driver, middleware: [withAttemptTimeout(50)] });
    const error = await backend.generate(USER).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AttemptTimeoutError);
    expect((error as Error).message).toBe("no response within 50 ms (timeout)");
    expect(driver.signals[0]!.aborted).toBe(true);
  });

  it("lets a call's own timeout win, and lets a prompt answer through", async () => {
    const driver = scriptedDriver([
      { text: "slow", delayMs: 80 },
      { text: "slow", delayMs: 80 },
    ]);
    const backend = wrapChatBackend({ driver, middleware: [withAttemptTimeout(50)] });
    expect((await backend.generate(USER, { timeoutMs: 1000 })).text).toBe("slow");
    await expect(backend.generate(USER)).rejects.toThrow("no response within 50 ms (timeout)");
    expect((await backend.generate(USER)).text).toBe("ok");
  });

  it("has no clock at 0", async () => {
    const driver = scriptedDriver([{ text: "late", delayMs: 30 }]);
    expect(
      (await wrapChatBackend({ driver, middleware: [withAttemptTimeout(0)] }).generate(USER, { timeoutMs: 0 })).text,
    ).toBe("late");
  });

  it("ends the attempt with the caller's reason when the caller aborts, before or during it", async () => {
    const driver = scriptedDriver([{ hang: true }]);
    const backend = wrapChatBackend({ driver, middleware: [withAttemptTimeout(10_000)] });
    const controller = new AbortController();
    const pending = backend.generate(USER, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("user stop")), 10);
    await expect(pending).rejects.toThrow("user stop");
    expect(driver.signals[0]!.aborted).toBe(true);
    await expect(backend.generate(USER, { signal: controller.signal })).rejects.toThrow("user stop");
    expect(driver.requests).toHaveLength(1);
  });
});
