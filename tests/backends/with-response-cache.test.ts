import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ResponseCache, cacheKey } from "../../src/backends/response-cache.ts";
import { withResponseCache } from "../../src/backends/with-response-cache.ts";
import { wrapChatBackend } from "../../src/backends/wrap-chat-backend.ts";
import { tempDirForTest } from "./helpers.ts";
import { scriptedDriver, type Step } from "./scripted-driver.ts";

/** The response-cache layer alone around a scripted driver. */

const USER = [{ role: "user", content: "cough" }] as const;

/** A scripted driver playing `steps` behind the cache layer, with the cache's folder (removed after the test). */
function cachedBackend(...steps: Step[]) {
  const dir = tempDirForTest();
  const driver = scriptedDriver(steps, { parameters: { structuredOutput: "jsonSchema" } });
  return { dir, driver, backend: wrapChatBackend({ driver, middleware: [withResponseCache(new ResponseCache(dir))] }) };
}

describe("withResponseCache", () => {
  it("answers a repeated request from disk with the original usage and latency", async () => {
    const { driver, backend } = cachedBackend({ text: "first answer" }, { text: "second answer" });
    const first = await backend.generate(USER, { temperature: 0 });
    const again = await backend.generate(USER, { temperature: 0 });
    expect(first).toMatchObject({ text: "first answer", cached: false });
    expect(again).toEqual({ ...first, cached: true });
    expect(driver.requests).toHaveLength(1);
    expect((await backend.generate(USER, { temperature: 1 })).text).toBe("second answer");
  });

  it("stores an entry under the documented key: operation `complete` for generate, object and repair alike", async () => {
    const { dir, driver, backend } = cachedBackend({ text: '{"ok": true}' });
    await backend.generateObject(USER, z.object({ ok: z.boolean() }));
    const key = cacheKey({
      operation: "complete",
      provider: "scripted",
      model: "m",
      endpoint: "in-process",
      parameters: { structuredOutput: "jsonSchema" },
      request: driver.requests[0],
    });
    const entry = JSON.parse(readFileSync(join(dir, "responses-v1", key.slice(0, 2), `${key}.json`), "utf8"));
    expect(Object.keys(entry)).toEqual(["key", "createdAt", "value", "usage", "latencyMs"]);
    expect(entry).toMatchObject({ key, value: { text: '{"ok": true}' }, usage: { inputTokens: 1, outputTokens: 12 } });
  });

  it("neither reads nor writes for a call with noCache", async () => {
    const { dir, driver, backend } = cachedBackend({ text: "one" }, { text: "two" }, { text: "three" });
    await backend.generate(USER);
    expect((await backend.generate(USER, { noCache: true })).text).toBe("two");
    expect((await backend.generate(USER)).text).toBe("one");
    expect(driver.requests).toHaveLength(2);
    const key = cacheKey({
      operation: "complete",
      provider: "scripted",
      model: "m",
      endpoint: "in-process",
      parameters: { structuredOutput: "jsonSchema" },
      request: { messages: [{ role: "user", content: "cough" }], seed: 3 },
    });
    await backend.generate(USER, { seed: 3, noCache: true });
    expect(existsSync(join(dir, "responses-v1", key.slice(0, 2), `${key}.json`))).toBe(false);
  });

  it("never stores a failure", async () => {
    const { driver, backend } = cachedBackend({ fail: new Error("server down") });
    await expect(backend.generate(USER)).rejects.toThrow("server down");
    expect((await backend.generate(USER)).cached).toBe(false);
    expect(driver.requests).toHaveLength(2);
  });
});
