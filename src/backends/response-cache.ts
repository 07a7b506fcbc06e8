/**
 * On-disk response cache: a re-run of the same requests sends nothing to the server.
 *
 * **Directory:** `ANAMNESIS_CACHE_DIR`, else `$XDG_CACHE_HOME/anamnesis`, else `~/.cache/anamnesis`.
 * Entries live in `responses-v1/<first two hex digits>/<key>.json`.
 *
 * **Key:** the SHA-256 (hex) of the canonical JSON ({@link canonicalJson}: object keys sorted, `undefined`
 * dropped, no whitespace) of
 * ```
 * { v: 1,
 *   operation,   // "complete" | "logprobs" | "embed" | "loglikelihood"
 *   provider, model,
 *   endpoint,    // base URL without user/password/secret query values, or the model file path
 *   parameters,  // the backend's non-secret settings (e.g. structured-output method, streaming)
 *   request }    // complete/logprobs: { messages (full list), temperature, maxTokens, seed, stop,
 *                //   structured: { method, name, jsonSchema } if any, logprobs: { top } if any }
 *                // embed: { texts }
 *                // loglikelihood: { text, scoring } (scoring: the driver's loglikelihoodParameters, if any)
 * ```
 * API keys are never part of the key or the entry.
 *
 * **Entries** keep the original latency and usage, so a cached run reports the same numbers as the run
 * that filled the cache. Only successful responses are written; failures are never cached. Writes are
 * atomic (temporary file + rename), so a crash never leaves a half-written entry; a corrupt or
 * unreadable entry counts as a miss, and a failed write is ignored (the cache only saves time).
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { TokenUsage } from "./spec.ts";

/** JSON with object keys sorted at every level and `undefined` members dropped. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item === null || typeof item !== "object" || Array.isArray(item)) return item;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(item).sort()) sorted[key] = (item as Record<string, unknown>)[key];
    return sorted;
  });
}

export interface CacheKeyParts {
  readonly operation: "complete" | "logprobs" | "embed" | "loglikelihood";
  readonly provider: string;
  readonly model: string;
  readonly endpoint: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly request: unknown;
}

export function cacheKey(parts: CacheKeyParts): string {
  return createHash("sha256")
    .update(canonicalJson({ v: 1, ...parts }))
    .digest("hex");
}

export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ANAMNESIS_CACHE_DIR) return env.ANAMNESIS_CACHE_DIR;
  const base = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "anamnesis");
}

export interface CacheEntry<T> {
  readonly key: string;
  readonly createdAt: string;
  readonly latencyMs: number;
  readonly usage: TokenUsage;
  readonly value: T;
}

export class ResponseCache {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  private path(key: string): string {
    return join(this.dir, "responses-v1", key.slice(0, 2), `${key}.json`);
  }

  async get<T>(key: string): Promise<CacheEntry<T> | undefined> {
    let text: string;
    try {
      text = await readFile(this.path(key), "utf8");
    } catch {
      return undefined;
    }
    try {
      const entry = JSON.parse(text) as CacheEntry<T>;
      const valid =
        entry?.key === key &&
        typeof entry.latencyMs === "number" &&
        typeof entry.usage?.inputTokens === "number" &&
        typeof entry.usage?.outputTokens === "number" &&
        entry.value !== undefined;
      return valid ? entry : undefined;
    } catch {
      return undefined;
    }
  }

  async set<T>(key: string, entry: Omit<CacheEntry<T>, "key" | "createdAt">): Promise<void> {
    const path = this.path(key);
    const temporary = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    const full: CacheEntry<T> = { key, createdAt: new Date().toISOString(), ...entry };
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(temporary, JSON.stringify(full));
      await rename(temporary, path);
    } catch {
      await unlink(temporary).catch(() => undefined);
    }
  }
}
