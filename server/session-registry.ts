import { randomUUID } from "node:crypto";
import type { SemanticRedFlags } from "../src/clinical/red-flags-semantic.ts";
import { Conversation, type TurnOutcome } from "../src/dialogue-manager/conversation.ts";
import type { StoredConversationRecord } from "../src/dialogue-manager/conversation-record.ts";
import type { DialogueModules } from "../src/language/module-interfaces.ts";
import type { QuestionReader } from "../src/language/question-reader.ts";
import { PatientSimulator, type PatientCase } from "../src/simulator/patient-simulator.ts";
import { PracticeDialogue, type PracticeRecord } from "../src/simulator/practice.ts";
import { HttpError } from "./http-error.ts";
import type { SessionStore, StoredSession, StoredTurn } from "./session-store.ts";
import type { TranscriptWriter } from "./transcripts.ts";

/**
 * The chat server's sessions: live objects in memory, each one's every turn committed to the store
 * before it is answered, all of them resumed from the store after a restart. Sessions belong to the
 * client that created it for the quotas: a client over its quota loses its own least recently used
 * session, never another client's.
 */

interface SessionBase {
  readonly id: string;
  readonly client: string;
  readonly created: string;
  updated: string;
  /** Acknowledged turns. */
  turns: number;
  /** Turn requests run so far (failed ones included): the store's sequence numbers. */
  seq: number;
  busy: boolean;
}

export interface ConversationSession extends SessionBase {
  readonly kind: "conversation";
  readonly conversation: Conversation;
  readonly simulator?: PatientSimulator;
  /** The doctor actions of the last reply, for the simulated patient. */
  lastActions: TurnOutcome["actions"];
}

export interface PracticeSession extends SessionBase {
  readonly kind: "practice";
  readonly practice: PracticeDialogue;
}

export type LiveSession = ConversationSession | PracticeSession;

interface ConversationSessionRecord {
  /** Today's format when written; a session stored by an earlier version may hold the record of before. */
  readonly conversation: StoredConversationRecord;
  readonly lastActions: TurnOutcome["actions"];
}

export interface SessionRegistryOptions {
  readonly modules: DialogueModules;
  readonly cases: ReadonlyMap<string, PatientCase>;
  readonly questionReader?: QuestionReader;
  readonly maxDoctorTurns?: number;
  /** Sessions held in all (default 1,000); when full, a client with none of its own is refused. */
  readonly maxSessions: number;
  readonly sessionsPerClient: number;
  /** Sessions idle longer than this are deleted (default: a day). */
  readonly idleMs: number;
  readonly transcripts?: TranscriptWriter;
  /** The red flags' semantic signal, given to every conversation, new and resumed (none: the rules alone). */
  readonly semanticRedFlags?: SemanticRedFlags | null;
}

export class SessionRegistry {
  private readonly sessions = new Map<string, LiveSession>();

  constructor(
    private readonly store: SessionStore,
    private readonly options: SessionRegistryOptions,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /** Loads every stored session (after a restart) and re-exports their transcripts. */
  async resume(): Promise<{ resumed: number; skipped: string[] }> {
    const skipped: string[] = [];
    for (const stored of await this.store.all()) {
      const session = this.rebuild(stored);
      if (!session) {
        skipped.push(stored.id);
        continue;
      }
      this.sessions.set(session.id, session);
      this.export(session);
    }
    return { resumed: this.sessions.size, skipped };
  }

  private rebuild(stored: StoredSession): LiveSession | null {
    const patientCase = stored.caseId !== null ? this.options.cases.get(stored.caseId) : undefined;
    if (stored.caseId !== null && !patientCase) return null;
    const base = {
      id: stored.id,
      client: stored.client,
      created: stored.created,
      updated: stored.updated,
      turns: stored.turns,
      seq: stored.seq,
      busy: false,
    };
    if (stored.kind === "practice") {
      if (!this.options.questionReader) return null;
      return {
        ...base,
        kind: "practice",
        practice: new PracticeDialogue(patientCase!, this.options.questionReader, stored.record as PracticeRecord),
      };
    }
    const record = stored.record as ConversationSessionRecord;
    return {
      ...base,
      kind: "conversation",
      conversation: Conversation.resume(this.options.modules, record.conversation, {
        semanticRedFlags: this.options.semanticRedFlags ?? null,
      }),
      ...(patientCase ? { simulator: new PatientSimulator(patientCase) } : {}),
      lastActions: record.lastActions,
    };
  }

  /** A session by id; using it makes it the most recently used. */
  get(id: string): LiveSession {
    const session = this.sessions.get(id);
    if (!session) throw new HttpError(404, "unknown_session", `no session ${id}`);
    this.sessions.delete(id);
    this.sessions.set(id, session);
    return session;
  }

  /** Creates a session for `client`, making room among its own sessions if it is over its quota. */
  async create(client: string, role: "patient" | "doctor", patientCase: PatientCase | undefined): Promise<LiveSession> {
    await this.makeRoomFor(client);
    const now = new Date().toISOString();
    const base = { id: randomUUID(), client, created: now, updated: now, turns: 0, seq: 0, busy: false };
    const session: LiveSession =
      role === "doctor"
        ? { ...base, kind: "practice", practice: new PracticeDialogue(patientCase!, this.options.questionReader!) }
        : {
            ...base,
            kind: "conversation",
            conversation: new Conversation(this.options.modules, {
              ...(this.options.maxDoctorTurns ? { maxDoctorTurns: this.options.maxDoctorTurns } : {}),
              semanticRedFlags: this.options.semanticRedFlags ?? null,
            }),
            ...(patientCase ? { simulator: new PatientSimulator(patientCase) } : {}),
            lastActions: null,
          };
    await this.store.create(this.stored(session));
    this.sessions.set(session.id, session);
    this.export(session);
    return session;
  }

  private async makeRoomFor(client: string): Promise<void> {
    const own = [...this.sessions.values()].filter((session) => session.client === client && !session.busy);
    const mustFree = Math.max(
      own.length + 1 - this.options.sessionsPerClient,
      this.sessions.size + 1 - this.options.maxSessions,
    );
    if (mustFree > own.length)
      throw new HttpError(429, "server_full", "the server holds as many sessions as it may; try again later", 60);
    for (const session of own.slice(0, Math.max(0, mustFree))) await this.delete(session.id);
  }

  private async reload(id: string): Promise<void> {
    this.sessions.delete(id);
    const stored = (await this.store.all()).find((candidate) => candidate.id === id);
    const session = stored ? this.rebuild(stored) : null;
    if (session) this.sessions.set(id, session);
  }

  /** Deletes a session and its stored turns. */
  async delete(id: string): Promise<void> {
    this.sessions.delete(id);
    await this.store.delete(id);
  }

  /** Deletes the sessions idle longer than the idle limit. */
  async expireIdle(now = Date.now()): Promise<string[]> {
    const ids = await this.store.expire(new Date(now - this.options.idleMs).toISOString());
    for (const id of ids) this.sessions.delete(id);
    return ids;
  }

  private stored(session: LiveSession): StoredSession {
    const record: PracticeRecord | ConversationSessionRecord =
      session.kind === "practice"
        ? session.practice.record()
        : { conversation: session.conversation.record(), lastActions: session.lastActions };
    const caseId =
      session.kind === "practice" ? session.practice.patientCase.id : (session.simulator?.patientCase.id ?? null);
    const { id, kind, client, created, updated, turns, seq } = session;
    return { id, kind, caseId, client, created, updated, turns, seq, record };
  }

  /**
   * Commits the turn just run on `session` (its new state and the turn row, in one transaction), then
   * exports its transcript. Only then may the turn be answered.
   */
  async commit(session: LiveSession, turn: Omit<StoredTurn, "seq" | "at">): Promise<void> {
    session.seq += 1;
    session.updated = new Date().toISOString();
    try {
      await this.store.commitTurn(this.stored(session), { ...turn, seq: session.seq, at: session.updated });
    } catch (error) {
      // Not stored, so not answered: the session goes back to its stored state.
      await this.reload(session.id);
      throw new HttpError(
        503,
        "storage_failed",
        `the turn could not be saved (${(error as Error).message}); try again`,
      );
    }
    this.export(session);
  }

  /** What the client sees of a session (and what its transcript holds). */
  view(session: LiveSession) {
    if (session.kind === "practice") {
      const { practice } = session;
      return {
        id: session.id,
        role: "doctor" as const,
        case: practice.patientCase.id,
        title: practice.patientCase.title,
        history: practice.history,
        coverage: practice.coverage(),
        ended: false,
        error: null,
        turns: session.turns,
      };
    }
    const snapshot = session.conversation.snapshot();
    return {
      id: session.id,
      case: session.simulator?.patientCase.id ?? null,
      history: snapshot.history,
      state: snapshot.state,
      ended: snapshot.ended,
      error: snapshot.error,
      failed: snapshot.failed,
      retryable: snapshot.retryable,
      turns: session.turns,
      redFlags: snapshot.redFlags,
      // Turns the offline engine answered because the configured backend failed (the page marks them).
      fallbacks: snapshot.fallbacks,
      presenting: snapshot.presenting,
      // What the note is written from besides the state, so that a saved transcript writes the same note.
      informant: snapshot.informant,
      medicines: snapshot.medicines,
      patientRequests: snapshot.patientRequests,
    };
  }

  private export(session: LiveSession): void {
    this.options.transcripts?.write(session.id, {
      created: session.created,
      updated: session.updated,
      ...this.view(session),
    });
  }
}
