import { describe, expect, it } from "vitest";
import { z } from "zod";
import { UsageRecorder } from "../../src/backends/run-record.ts";
import { withUsageRecords } from "../../src/backends/with-usage-records.ts";
import { wrapChatBackend } from "../../src/backends/wrap-chat-backend.ts";
import { scriptedDriver } from "./scripted-driver.ts";

/** The usage-records layer alone around a scripted driver. */

const USER = [{ role: "user", content: "cough" }] as const;

describe("withUsageRecords", () => {
  it("records every request that comes back, with its operation, usage, latency and attempts", async () => {
    const recorder = new UsageRecorder();
    const driver = scriptedDriver([{ text: "Any fever?", delayMs: 5 }]);
    const backend = wrapChatBackend({ driver, middleware: [withUsageRecords(recorder)] });
    const result = await backend.generate(USER);
    expect(recorder.records).toEqual([
      {
        backendId: "scripted:m",
        operation: "generate",
        inputTokens: 1,
        outputTokens: 10,
        latencyMs: result.latencyMs,
        cached: false,
        attempts: 1,
      },
    ]);
    expect(Object.keys(recorder.records[0]!)).toEqual([
      "backendId",
      "operation",
      "inputTokens",
      "outputTokens",
      "latencyMs",
      "cached",
      "attempts",
    ]);
    expect(result.latencyMs).toBeGreaterThan(0);
  });

  it("counts objects, and those that ended in a format error", async () => {
    const recorder = new UsageRecorder();
    const driver = scriptedDriver([{ text: '{"ok": true}' }, { text: "not json" }]);
    const backend = wrapChatBackend({ driver, middleware: [withUsageRecords(recorder)] });
    const schema = z.object({ ok: z.boolean() });
    await backend.generateObject(USER, schema);
    await backend.generateObject(USER, schema);
    expect(recorder.records.map((record) => record.operation)).toEqual(["object", "object"]);
    expect(recorder.summary()).toMatchObject({
      requests: 2,
      objects: 2,
      repaired: 0,
      formatErrors: 1,
      formatErrorRate: 0.5,
    });
  });

  it("records nothing for a request that fails", async () => {
    const recorder = new UsageRecorder();
    const driver = scriptedDriver([{ fail: new Error("server down") }]);
    await expect(wrapChatBackend({ driver, middleware: [withUsageRecords(recorder)] }).generate(USER)).rejects.toThrow(
      "server down",
    );
    expect(recorder.records).toEqual([]);
  });
});
