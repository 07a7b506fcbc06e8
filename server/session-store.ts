/**
 * Where chat and practice sessions live between requests and across restarts. One small interface, so
 * that a server deployment can put PostgreSQL behind it later; the chat server ships the embedded SQLite
 * store (`sqlite-session-store.ts`). Every method resolves only once its write is durable: the server
 * answers a turn after `commitTurn` resolves, never before.
 */

/** A session as stored: what the server needs to rebuild it exactly where it was. */
export interface StoredSession {
  readonly id: string;
  readonly kind: "conversation" | "practice";
  /** The simulated patient's case, if any. */
  readonly caseId: string | null;
  /** Who created it (the per-client limits' key). */
  readonly client: string;
  /** ISO times. */
  readonly created: string;
  readonly updated: string;
  /** Acknowledged turns. */
  readonly turns: number;
  /** Turn requests run (failed ones included): the last turn row's sequence number. */
  readonly seq: number;
  /** The conversation's or practice dialogue's record (plain JSON). */
  readonly record: unknown;
}

/** One request that ran a turn, in the order they ran (failed attempts included). */
export interface StoredTurn {
  readonly seq: number;
  readonly at: string;
  readonly kind: "say" | "simulate" | "retry" | "ask" | "end";
  /** What was said (null for a retry). */
  readonly input: string | null;
  /** What came of it: the doctor's reply or the patient's answer, the error if any. */
  readonly outcome: unknown;
}

export interface SessionStore {
  /** Stores a new session. */
  create(session: StoredSession): Promise<void>;
  /** Appends a turn and the session's new state in one transaction. */
  commitTurn(session: StoredSession, turn: StoredTurn): Promise<void>;
  /** Every stored session, oldest first (to resume them after a restart). */
  all(): Promise<StoredSession[]>;
  /** A session's turns in order. */
  turns(id: string): Promise<StoredTurn[]>;
  /** Deletes a session and its turns; false if there was none. */
  delete(id: string): Promise<boolean>;
  /** Deletes the sessions last updated before `before` (ISO time) with their turns; returns their ids. */
  expire(before: string): Promise<string[]>;
  /**
   * The server's secret for signing client cookies: random, made on the first call and the same ever
   * after for this store (so browsers keep their identity across restarts); one per process for a
   * store that keeps nothing.
   */
  clientSecret(): Promise<Buffer>;
  close(): Promise<void>;
}
