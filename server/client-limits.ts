import { HttpError } from "./http-error.ts";

/**
 * Per-client limits, so that one client can neither evict another's sessions nor starve its turns:
 * each client has its own session quota (its own least recently used session makes room, nobody
 * else's) and its own token buckets for session creation and turns.
 */

export interface ClientLimitOptions {
  /** Sessions one client may hold; beyond it, its own least recently used one is dropped (default 20). */
  readonly sessionsPerClient?: number;
  /** Turns per second per client, sustained (default 20) … */
  readonly turnsPerSecond?: number;
  /** … and in a burst (default 40). */
  readonly turnBurst?: number;
  /** Sessions a client may create per minute (default 60, also the burst). */
  readonly sessionsPerMinute?: number;
  /** Turns one client may have running at once (default 4). */
  readonly concurrentTurns?: number;
  /**
   * New client identities (signed cookies) handed out per minute to one remote address, sustained
   * (default 12) … Beyond it, cookie-less requests get no cookie and share their address's limits, so a
   * script that drops its cookie cannot buy itself a fresh quota; a browser keeps its cookie and never asks again.
   */
  readonly identitiesPerMinute?: number;
  /**
   * … and in a burst (default 60): a classroom of trainees opening the page at once behind one
   * address (a NAT, or the reverse proxy of a deployment on 127.0.0.1, where every visitor shares it).
   */
  readonly identityBurst?: number;
}

/** A token bucket: `capacity` tokens, refilled at `perSecond`. */
class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.last = now;
  }

  /** Takes a token; returns 0, or the seconds until one is available. */
  take(now: number): number {
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return (1 - this.tokens) / this.perSecond;
  }

  full(now: number): boolean {
    return this.tokens + ((now - this.last) / 1000) * this.perSecond >= this.capacity;
  }
}

interface ClientState {
  turns: TokenBucket;
  creations: TokenBucket;
  /** New identities handed out to this client (meaningful for remote addresses, which are the ones asking). */
  identities: TokenBucket;
  running: number;
}

/** Clients remembered at once; idle ones (full buckets, nothing running) are forgotten first. */
const MAX_TRACKED_CLIENTS = 10_000;

export class ClientLimits {
  readonly sessionsPerClient: number;
  private readonly turnsPerSecond: number;
  private readonly turnBurst: number;
  private readonly sessionsPerMinute: number;
  private readonly concurrentTurns: number;
  private readonly identitiesPerMinute: number;
  private readonly identityBurst: number;
  private readonly clients = new Map<string, ClientState>();

  constructor(
    options: ClientLimitOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.sessionsPerClient = options.sessionsPerClient ?? 20;
    this.turnsPerSecond = options.turnsPerSecond ?? 20;
    this.turnBurst = options.turnBurst ?? 40;
    this.sessionsPerMinute = options.sessionsPerMinute ?? 60;
    this.concurrentTurns = options.concurrentTurns ?? 4;
    this.identitiesPerMinute = options.identitiesPerMinute ?? 12;
    this.identityBurst = options.identityBurst ?? 60;
  }

  private state(client: string): ClientState {
    let state = this.clients.get(client);
    if (!state) {
      if (this.clients.size >= MAX_TRACKED_CLIENTS) this.forgetIdle();
      const now = this.now();
      state = {
        turns: new TokenBucket(this.turnBurst, this.turnsPerSecond, now),
        creations: new TokenBucket(this.sessionsPerMinute, this.sessionsPerMinute / 60, now),
        identities: new TokenBucket(this.identityBurst, this.identitiesPerMinute / 60, now),
        running: 0,
      };
      this.clients.set(client, state);
    }
    return state;
  }

  private forgetIdle(): void {
    const now = this.now();
    for (const [client, state] of this.clients)
      if (state.running === 0 && state.turns.full(now) && state.creations.full(now) && state.identities.full(now))
        this.clients.delete(client);
    // Still full: the oldest go (a forgotten client starts with full buckets, which only helps it).
    for (const client of this.clients.keys()) {
      if (this.clients.size < MAX_TRACKED_CLIENTS) break;
      if (this.clients.get(client)!.running === 0) this.clients.delete(client);
    }
  }

  /** Whether `address` (a client key) may be handed a new identity now; counts it if so. */
  mayIssueIdentity(address: string): boolean {
    return this.state(address).identities.take(this.now()) === 0;
  }

  /** Counts a session creation; throws 429 when the client creates too fast. */
  createSession(client: string): void {
    const wait = this.state(client).creations.take(this.now());
    if (wait > 0)
      throw new HttpError(
        429,
        "rate_limited",
        "too many new sessions from this client; wait a moment",
        Math.ceil(wait),
      );
  }

  /** Starts a turn; throws 429 when the client sends turns too fast or runs too many at once. Call the returned function when it ends. */
  startTurn(client: string): () => void {
    const state = this.state(client);
    if (state.running >= this.concurrentTurns)
      throw new HttpError(429, "rate_limited", `at most ${this.concurrentTurns} turns at once per client`, 1);
    const wait = state.turns.take(this.now());
    if (wait > 0)
      throw new HttpError(429, "rate_limited", "too many turns from this client; wait a moment", Math.ceil(wait));
    state.running += 1;
    let ended = false;
    return () => {
      if (!ended) state.running -= 1;
      ended = true;
    };
  }
}
