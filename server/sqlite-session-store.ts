import Database from "better-sqlite3";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { SessionStore, StoredSession, StoredTurn } from "./session-store.ts";

/**
 * Sessions in an embedded SQLite database (better-sqlite3): write-ahead logging, `synchronous = FULL`
 * (a commit survives a power cut, not only a killed process). A turn's row and its session's new record
 * are written in one transaction; writes that arrive together share it (group commit), since an fsync
 * costs milliseconds (3.2 ms measured here, which alone would cap one connection near 300 commits/s)
 * and every waiting turn is answered only after the shared commit. `:memory:` keeps everything in this
 * process only, for throwaway demos and tests.
 */

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  case_id TEXT,
  client TEXT NOT NULL,
  created TEXT NOT NULL,
  updated TEXT NOT NULL,
  turns INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  record TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS sessions_by_update ON sessions (updated);
CREATE TABLE IF NOT EXISTS turns (
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  at TEXT NOT NULL,
  kind TEXT NOT NULL,
  input TEXT,
  outcome TEXT NOT NULL,
  PRIMARY KEY (session_id, seq)
) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value BLOB NOT NULL
) STRICT, WITHOUT ROWID;
`;

/** Bytes of the client-cookie secret (HMAC-SHA256 keys gain nothing beyond the hash's 32). */
const CLIENT_SECRET_BYTES = 32;

interface SessionRow {
  id: string;
  kind: StoredSession["kind"];
  case_id: string | null;
  client: string;
  created: string;
  updated: string;
  turns: number;
  seq: number;
  record: string;
}

/** The default database file: under `$XDG_DATA_HOME` (else `~/.local/share`), `anamnesis/sessions.db`. */
export function defaultDatabasePath(env: NodeJS.ProcessEnv = process.env): string {
  const dataHome =
    env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith("/") ? env.XDG_DATA_HOME : join(homedir(), ".local", "share");
  return join(dataHome, "anamnesis", "sessions.db");
}

/** A write waiting for the next shared commit; each is answered only once that commit is on disk. */
interface PendingWrite {
  readonly write: () => void;
  resolve(): void;
  reject(error: Error): void;
}

export class SqliteSessionStore implements SessionStore {
  private readonly db: Database.Database;
  private readonly statements;
  private pending: PendingWrite[] = [];
  private flushing: NodeJS.Immediate | null = null;

  /**
   * Opens (creating if needed) the database at `path`, or an in-memory one for `:memory:`.
   * `synchronous`: "full" (default) fsyncs every commit, so an answered turn survives a power cut;
   * "normal" fsyncs only at checkpoints: an answered turn survives the process being killed, not the
   * machine losing power, and commits no longer wait for the disk.
   */
  constructor(
    readonly path: string,
    options: { synchronous?: "full" | "normal" } = {},
  ) {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    if (path !== ":memory:") this.db.pragma("journal_mode = WAL");
    this.db.pragma(`synchronous = ${options.synchronous === "normal" ? "NORMAL" : "FULL"}`);
    this.db.pragma("foreign_keys = ON");
    this.db.pragma("busy_timeout = 5000");
    this.db.exec(SCHEMA);
    this.statements = {
      insert: this.db.prepare(
        "INSERT INTO sessions (id, kind, case_id, client, created, updated, turns, seq, record) VALUES (@id, @kind, @case_id, @client, @created, @updated, @turns, @seq, @record)",
      ),
      update: this.db.prepare(
        "UPDATE sessions SET updated = @updated, turns = @turns, seq = @seq, record = @record WHERE id = @id",
      ),
      insertTurn: this.db.prepare(
        "INSERT INTO turns (session_id, seq, at, kind, input, outcome) VALUES (?, ?, ?, ?, ?, ?)",
      ),
      all: this.db.prepare("SELECT * FROM sessions ORDER BY created, id"),
      turns: this.db.prepare("SELECT seq, at, kind, input, outcome FROM turns WHERE session_id = ? ORDER BY seq"),
      delete: this.db.prepare("DELETE FROM sessions WHERE id = ?"),
      idle: this.db.prepare("SELECT id FROM sessions WHERE updated < ?"),
      // INSERT OR IGNORE: the first server to ask makes the secret; another process on the same file keeps it.
      offerMeta: this.db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)"),
      meta: this.db.prepare("SELECT value FROM meta WHERE key = ?").pluck(),
    };
  }

  private row(session: StoredSession): SessionRow {
    const { caseId, record, ...rest } = session;
    return { ...rest, case_id: caseId, record: JSON.stringify(record) };
  }

  /** Queues a write for the next shared commit (in order: a session's creation before its turns). */
  private enqueue(write: () => void): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ write, resolve, reject });
      this.flushing ??= setImmediate(() => this.flush());
    });
  }

  create(session: StoredSession): Promise<void> {
    const row = this.row(session);
    return this.enqueue(() => this.statements.insert.run(row));
  }

  commitTurn(session: StoredSession, turn: StoredTurn): Promise<void> {
    // Serialised now: the record shares values with the live session, which the next turn changes.
    const row = this.row(session);
    const outcome = JSON.stringify(turn.outcome);
    return this.enqueue(() => {
      const changed = this.statements.update.run(row).changes;
      if (changed !== 1) throw new Error(`no stored session ${session.id}`);
      this.statements.insertTurn.run(session.id, turn.seq, turn.at, turn.kind, turn.input, outcome);
    });
  }

  /** Commits every waiting write in one transaction; if that fails, each alone, so one bad write fails only itself. */
  private flush(): void {
    this.flushing = null;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    try {
      this.db.transaction(() => batch.forEach((item) => item.write()))();
      for (const item of batch) item.resolve();
      return;
    } catch {
      // Fall through: one at a time.
    }
    for (const item of batch) {
      try {
        this.db.transaction(() => item.write())();
        item.resolve();
      } catch (error) {
        item.reject(error as Error);
      }
    }
  }

  async all(): Promise<StoredSession[]> {
    this.flushNow();
    return (this.statements.all.all() as SessionRow[]).map(({ case_id, record, ...rest }) => ({
      ...rest,
      caseId: case_id,
      record: JSON.parse(record) as unknown,
    }));
  }

  async turns(id: string): Promise<StoredTurn[]> {
    this.flushNow();
    return (this.statements.turns.all(id) as Array<Omit<StoredTurn, "outcome"> & { outcome: string }>).map((turn) => ({
      ...turn,
      outcome: JSON.parse(turn.outcome) as unknown,
    }));
  }

  async delete(id: string): Promise<boolean> {
    let deleted = false;
    await this.enqueue(() => {
      deleted = this.statements.delete.run(id).changes === 1;
    });
    return deleted;
  }

  async expire(before: string): Promise<string[]> {
    this.flushNow();
    return this.db.transaction(() => {
      const ids = (this.statements.idle.all(before) as Array<{ id: string }>).map((row) => row.id);
      for (const id of ids) this.statements.delete.run(id);
      return ids;
    })();
  }

  async clientSecret(): Promise<Buffer> {
    this.statements.offerMeta.run("client_secret", randomBytes(CLIENT_SECRET_BYTES));
    return this.statements.meta.get("client_secret") as Buffer;
  }

  /** Reads see every write queued before them. */
  private flushNow(): void {
    if (!this.flushing) return;
    clearImmediate(this.flushing);
    this.flush();
  }

  async close(): Promise<void> {
    if (this.flushing) clearImmediate(this.flushing);
    if (this.db.open) this.flush();
    if (this.db.open) this.db.close();
  }
}
