/**
 * What the resilience layers (with-retries.ts, with-concurrency-limit.ts, with-attempt-timeout.ts) are
 * made of: the semaphore, the retry policy, `Retry-After` parsing, the classification of failures
 * (retryable or not, and how to name them), and cancellable waiting. LangChain's own retries are
 * switched off (`maxRetries: 0`); these replace them.
 */
import { AnamnesisError } from "../foundation/errors.ts";
import type { FailureInfo } from "./spec.ts";

/** A request waiting for a permit: woken with one, or rejected when its signal aborts. */
interface Waiter {
  readonly wake: () => void;
  readonly reject: (reason: unknown) => void;
  readonly signal: AbortSignal | undefined;
}

/**
 * Counting semaphore. `acquire` resolves with a release function; waiting can be cancelled. A released
 * permit is handed straight to the longest waiter, so a newcomer can never slip in between.
 *
 * Waiters that share a signal (a run's many requests under one cancel) share one abort listener on it:
 * a listener per waiter made Node warn of a leak ("11 abort listeners added to [AbortSignal]") once
 * more than ten requests of a run waited at once, which a run at `--concurrency 16` with four cases
 * open per request always did.
 */
export class Semaphore {
  readonly limit: number;
  #inFlight = 0;
  readonly #waiters: Waiter[] = [];
  /** For each signal some waiter waits under: its one abort listener and how many wait under it. */
  readonly #listening = new Map<AbortSignal, { readonly onAbort: () => void; count: number }>();

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new AnamnesisError("INVALID_ARGUMENT", `concurrency must be a positive integer, got ${limit}`);
    }
    this.limit = limit;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  async acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.#inFlight < this.limit) this.#inFlight++;
    else
      await new Promise<void>((resolve, reject) => {
        this.#waiters.push({ wake: resolve, reject, signal });
        if (signal) this.#listen(signal);
      });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiters.shift();
      if (!next) {
        this.#inFlight--;
        return;
      }
      if (next.signal) this.#unlisten(next.signal);
      next.wake();
    };
  }

  /** Counts one more waiter under `signal`, adding its abort listener for the first. */
  #listen(signal: AbortSignal): void {
    const entry = this.#listening.get(signal);
    if (entry) {
      entry.count++;
      return;
    }
    const onAbort = () => this.#abortWaiters(signal);
    this.#listening.set(signal, { onAbort, count: 1 });
    signal.addEventListener("abort", onAbort, { once: true });
  }

  /** Counts one waiter fewer under `signal`, removing its abort listener after the last. */
  #unlisten(signal: AbortSignal): void {
    const entry = this.#listening.get(signal);
    if (!entry || --entry.count > 0) return;
    this.#listening.delete(signal);
    signal.removeEventListener("abort", entry.onAbort);
  }

  /** Rejects, with the signal's reason, every waiter waiting under an aborted signal. */
  #abortWaiters(signal: AbortSignal): void {
    this.#listening.delete(signal);
    const aborted = this.#waiters.filter((waiter) => waiter.signal === signal);
    for (const waiter of aborted) this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
    for (const waiter of aborted) waiter.reject(signal.reason);
  }
}

/** How often and how long to retry a failed request. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  /** First backoff ceiling; the n-th retry waits a uniform random time in [0, min(max, base·2^(n-1))]. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A `Retry-After` longer than this ends the request instead of waiting. */
  readonly maxRetryAfterMs: number;
}

/** Four retries, backing off from 0.5 s up to 20 s; a `Retry-After` of more than two minutes ends the request. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 4,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 120_000,
};

/** Parses `Retry-After` (delta-seconds or an HTTP date) into milliseconds from `now`. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value == null || value.trim() === "") return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function header(headers: unknown, name: string): string | undefined {
  if (headers == null || typeof headers !== "object") return undefined;
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name && typeof value === "string") return value;
  }
  return undefined;
}

/** Server-requested wait from response headers: `retry-after-ms` (OpenAI) or `Retry-After`. */
export function retryAfterFromHeaders(headers: unknown): number | undefined {
  const ms = header(headers, "retry-after-ms");
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms));
  return parseRetryAfter(header(headers, "retry-after"));
}

const RETRYABLE_SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CLOSED",
]);

const SOCKET_CODE_WORDS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host not found",
  ETIMEDOUT: "connection timed out",
};

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current = error;
  while (current != null && typeof current === "object" && chain.length < 8 && !chain.includes(current)) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

function field(value: unknown, key: string): unknown {
  return value != null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
}

function shortMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split("\n")[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/**
 * Generic classification: HTTP status codes (OpenAI SDK `status`, ollama `status_code`), `Retry-After`
 * headers, socket error codes anywhere in the `cause` chain, and timeouts.
 */
export function classifyFailure(error: unknown): FailureInfo {
  for (const link of causeChain(error)) {
    const status = field(link, "status") ?? field(link, "status_code") ?? field(field(link, "response"), "status");
    if (typeof status === "number" && status >= 400) {
      const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
      const retryAfterMs = retryAfterFromHeaders(field(link, "headers") ?? field(field(link, "response"), "headers"));
      return {
        retryable,
        status,
        description: `HTTP ${status}: ${shortMessage(link)}`,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      };
    }
  }
  for (const link of causeChain(error)) {
    const code = field(link, "code");
    if (typeof code === "string" && (RETRYABLE_SOCKET_CODES.has(code) || code === "ENOTFOUND")) {
      return {
        retryable: code !== "ENOTFOUND",
        description: `${SOCKET_CODE_WORDS[code] ?? "connection error"} (${code})`,
      };
    }
  }
  const name = error instanceof Error ? `${error.name} ${error.constructor.name}` : "";
  if (/Timeout/.test(name)) return { retryable: true, description: `timed out: ${shortMessage(error)}` };
  if (/APIConnectionError/.test(name) || /fetch failed|Connection error|socket hang up/i.test(shortMessage(error))) {
    return { retryable: true, description: `connection error: ${shortMessage(error)}` };
  }
  return { retryable: false, description: shortMessage(error) };
}

/** Rejects with the signal's reason as soon as it aborts, even if `promise` ignores the signal. */
export function raceWithSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
