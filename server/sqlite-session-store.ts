import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { SessionStore, StoredSession, StoredTurn } from "./session-store.ts";

/**
 * Sessions in an embedded SQLite database (better-sqlite3): write-ahead logging, `synchronous = FULL`
 * (a commit survives a power cut, not only a killed process), one transaction per turn. `:memory:` keeps
 * everything in this process only, for throwaway demos and tests.
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
`;

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
  const dataHome = env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith("/") ? env.XDG_DATA_HOME : join(homedir(), ".local", "share");
  return join(dataHome, "anamnesis", "sessions.db");
}

export class SqliteSessionStore implements SessionStore {
  private readonly db: Database.Database;
  private readonly statements;

  /** Opens (creating if needed) the database at `path`, or an in-memory one for `:memory:`. */
  constructor(readonly path: string) {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    if (path !== ":memory:") this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = FULL");
    this.db.pragma("foreign_keys = ON");
    this.db.pragma("busy_timeout = 5000");
    this.db.exec(SCHEMA);
    this.statements = {
      insert: this.db.prepare(
        "INSERT INTO sessions (id, kind, case_id, client, created, updated, turns, seq, record) VALUES (@id, @kind, @case_id, @client, @created, @updated, @turns, @seq, @record)",
      ),
      update: this.db.prepare("UPDATE sessions SET updated = @updated, turns = @turns, seq = @seq, record = @record WHERE id = @id"),
      insertTurn: this.db.prepare("INSERT INTO turns (session_id, seq, at, kind, input, outcome) VALUES (?, ?, ?, ?, ?, ?)"),
      all: this.db.prepare("SELECT * FROM sessions ORDER BY created, id"),
      turns: this.db.prepare("SELECT seq, at, kind, input, outcome FROM turns WHERE session_id = ? ORDER BY seq"),
      delete: this.db.prepare("DELETE FROM sessions WHERE id = ?"),
      idle: this.db.prepare("SELECT id FROM sessions WHERE updated < ?"),
    };
  }

  private row(session: StoredSession): SessionRow {
    const { caseId, record, ...rest } = session;
    return { ...rest, case_id: caseId, record: JSON.stringify(record) };
  }

  async create(session: StoredSession): Promise<void> {
    this.statements.insert.run(this.row(session));
  }

  async commitTurn(session: StoredSession, turn: StoredTurn): Promise<void> {
    const row = this.row(session);
    this.db.transaction(() => {
      const changed = this.statements.update.run(row).changes;
      if (changed !== 1) throw new Error(`no stored session ${session.id}`);
      this.statements.insertTurn.run(session.id, turn.seq, turn.at, turn.kind, turn.input, JSON.stringify(turn.outcome));
    })();
  }

  async all(): Promise<StoredSession[]> {
    return (this.statements.all.all() as SessionRow[]).map(({ case_id, record, ...rest }) => ({ ...rest, caseId: case_id, record: JSON.parse(record) as unknown }));
  }

  async turns(id: string): Promise<StoredTurn[]> {
    return (this.statements.turns.all(id) as Array<Omit<StoredTurn, "outcome"> & { outcome: string }>).map((turn) => ({ ...turn, outcome: JSON.parse(turn.outcome) as unknown }));
  }

  async delete(id: string): Promise<boolean> {
    return this.statements.delete.run(id).changes === 1;
  }

  async expire(before: string): Promise<string[]> {
    return this.db.transaction(() => {
      const ids = (this.statements.idle.all(before) as Array<{ id: string }>).map((row) => row.id);
      for (const id of ids) this.statements.delete.run(id);
      return ids;
    })();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
