import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ResponseCache,
  cacheKey,
  canonicalJson,
  defaultCacheDir,
  type CacheKeyParts,
} from "../../src/backends/response-cache.ts";
import { tempDir } from "./helpers.ts";

const parts: CacheKeyParts = {
  operation: "complete",
  provider: "openai",
  model: "gpt-4o-mini",
  endpoint: "http://127.0.0.1:8000/v1",
  parameters: { streaming: false },
  request: { messages: [{ role: "user", content: "hi" }], temperature: 0 },
};

describe("cache key", () => {
  it("is canonical: key order and undefined members do not matter", () => {
    expect(canonicalJson({ b: 1, a: { d: undefined, c: [2, { z: 1, y: 2 }] } })).toBe(
      '{"a":{"c":[2,{"y":2,"z":1}]},"b":1}',
    );
    const reordered = { ...parts, request: { temperature: 0, messages: [{ content: "hi", role: "user" }] } };
    expect(cacheKey(reordered)).toBe(cacheKey(parts));
    expect(cacheKey(parts)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("changes with the model, endpoint, parameters, messages, generation settings and schema", () => {
    const variants: CacheKeyParts[] = [
      { ...parts, model: "gpt-4o" },
      { ...parts, endpoint: "http://127.0.0.1:8001/v1" },
      { ...parts, parameters: { streaming: true } },
      { ...parts, request: { messages: [{ role: "user", content: "hi!" }], temperature: 0 } },
      { ...parts, request: { messages: [{ role: "user", content: "hi" }], temperature: 0.7 } },
      {
        ...parts,
        request: {
          messages: [{ role: "user", content: "hi" }],
          temperature: 0,
          structured: { method: "jsonSchema", jsonSchema: {} },
        },
      },
      { ...parts, operation: "logprobs" },
    ];
    const keys = new Set([parts, ...variants].map(cacheKey));
    expect(keys.size).toBe(variants.length + 1);
  });

  it("lives in ANAMNESIS_CACHE_DIR, else XDG_CACHE_HOME/anamnesis, else ~/.cache/anamnesis", () => {
    expect(defaultCacheDir({ ANAMNESIS_CACHE_DIR: "/x/cache" })).toBe("/x/cache");
    expect(defaultCacheDir({ XDG_CACHE_HOME: "/xdg" })).toBe("/xdg/anamnesis");
    expect(defaultCacheDir({})).toMatch(/\.cache\/anamnesis$/);
  });
});

describe("ResponseCache", () => {
  let dir: { path: string; remove: () => void };
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.remove());

  const entry = { value: { text: "hello" }, usage: { inputTokens: 3, outputTokens: 2 }, latencyMs: 812.5 };

  it("round-trips an entry with its original latency and usage, leaving no temp files", async () => {
    const cache = new ResponseCache(dir.path);
    const key = cacheKey(parts);
    expect(await cache.get(key)).toBeUndefined();
    await cache.set(key, entry);
    expect(await cache.get(key)).toMatchObject({ key, ...entry });
    const files = readdirSync(dir.path, { recursive: true, encoding: "utf8" });
    expect(files.some((name) => name.endsWith(".tmp"))).toBe(false);
    expect(files).toContain(join("responses-v1", key.slice(0, 2), `${key}.json`));
  });

  it("ignores a corrupt or mismatched entry", async () => {
    const cache = new ResponseCache(dir.path);
    const key = cacheKey(parts);
    await cache.set(key, entry);
    const file = join(dir.path, "responses-v1", key.slice(0, 2), `${key}.json`);
    writeFileSync(file, '{"key": "trunc');
    expect(await cache.get(key)).toBeUndefined();
    writeFileSync(file, JSON.stringify({ ...entry, key: "another" }));
    expect(await cache.get(key)).toBeUndefined();
    await cache.set(key, entry);
    expect(await cache.get(key)).toMatchObject(entry);
  });

  it("survives concurrent writers of the same key", async () => {
    const cache = new ResponseCache(dir.path);
    const key = cacheKey(parts);
    await Promise.all(Array.from({ length: 20 }, (_, i) => cache.set(key, { ...entry, latencyMs: i })));
    const stored = await cache.get<{ text: string }>(key);
    expect(stored?.value.text).toBe("hello");
  });

  it("does not fail when the directory cannot be written", async () => {
    const blocker = join(dir.path, "file");
    writeFileSync(blocker, "");
    const cache = new ResponseCache(join(blocker, "cache"));
    await expect(cache.set(cacheKey(parts), entry)).resolves.toBeUndefined();
    expect(await cache.get(cacheKey(parts))).toBeUndefined();
  });
});
