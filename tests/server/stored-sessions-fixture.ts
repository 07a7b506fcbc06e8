/**
 * The shape of a stored-sessions fixture (`tests/fixtures/capture-stored-sessions.ts` writes one):
 * rows of the chat server's SQLite database as some revision wrote them, and what a restarted server
 * answered when it continued those sessions.
 */

/** The simulated patient's case in the fixture's sessions. */
export const STORED_SESSION_CASE = "317";

/** One API call that continues a stored session, and what the server answered (measurements blanked). */
export interface ContinuationStep {
  /** The session's name in the fixture (`red-flag`, `simulated`, `fallback`, `failed`, `ended`; later fixtures also `note-sources`). */
  readonly session: string;
  /** The configured backend's health during the call. */
  readonly health: "up" | "down" | "all-down";
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly status: number;
  readonly answer: unknown;
}

/** A fixture: the rows (with `record` and `outcome` as JSON, not text) and the continuation. */
export interface StoredSessionsFixture {
  readonly sessions: ReadonlyArray<Record<string, unknown> & { readonly record: unknown }>;
  readonly turns: ReadonlyArray<Record<string, unknown> & { readonly outcome: unknown }>;
  readonly continuation: readonly ContinuationStep[];
}

/** A JSON answer with every `elapsedMs` (a measurement, not behaviour) set to 0. */
export function blankElapsed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(blankElapsed);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, key === "elapsedMs" ? 0 : blankElapsed(inner)]),
  );
}
