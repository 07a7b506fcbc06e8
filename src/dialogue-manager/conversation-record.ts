import type { Snapshot } from "xstate";
import type { TrackerEntries } from "../cmas/dialogue-state.ts";
import type { DialogueState, DoctorAction, NluFrame } from "../cmas/schemas.ts";
import type { DialogueTurn } from "../language/module-interfaces.ts";
import {
  dialogueMachine,
  LATER_CONTEXT_DEFAULTS,
  type DialogueContext,
  type FallbackTurn,
  type RecordedRedFlag,
} from "./dialogue-machine.ts";

/**
 * A conversation as the chat server stores it, plain JSON. Today's format (version 2) is xstate's own:
 * the dialogue machine's persisted snapshot (`actor.getPersistedSnapshot()`), restored with
 * `createActor(machine, { snapshot })`. Records written before it (no `version`, up to commit 8ee4bf2)
 * held the machine's context by hand; {@link readConversationRecord} turns one into today's format,
 * so sessions stored then keep resuming.
 */

/** The version of {@link ConversationRecord}: 2, the persisted snapshot (the hand-built record had none). */
export const CONVERSATION_RECORD_VERSION = 2;

/** Where a Retry of a turn the offline engine answered starts from: the machine before the turn, and what the patient said. */
export interface ReaskPoint {
  /** The machine's persisted snapshot before the turn. */
  readonly before: Snapshot<unknown>;
  readonly text: string;
}

/** Everything a conversation needs to resume exactly where it was: taken between turns (listening, failed or ended). */
export interface ConversationRecord {
  readonly version: typeof CONVERSATION_RECORD_VERSION;
  /** The dialogue machine's persisted snapshot. */
  readonly snapshot: Snapshot<unknown>;
  /** When the offline engine answered the last turn: where a Retry re-asks the backend from. */
  readonly reask?: ReaskPoint;
}

/** The hand-built record stored before version 2: the machine's context field by field, its state, and the profile as `tracker`. */
export interface LegacyConversationRecord {
  readonly stage: "listening" | "failed" | "ended";
  readonly history: DialogueTurn[];
  readonly state: DialogueState;
  readonly frames: NluFrame[] | null;
  readonly actions: DoctorAction[] | null;
  readonly pending: string | null;
  readonly error: string | null;
  readonly doctorTurns: number;
  readonly maxDoctorTurns: number;
  readonly tracker: TrackerEntries;
  readonly redFlags: RecordedRedFlag[];
  readonly escalation: RecordedRedFlag[];
  readonly afterEscalation: "continue" | "end";
  readonly presenting: string[];
  /** Absent in records written before fallbacks were recorded. */
  readonly fallbacks?: FallbackTurn[];
  readonly reaskBackend?: boolean;
  readonly reask?: { readonly before: LegacyConversationRecord; readonly text: string };
}

/** A record as found in storage: today's, or one written before it. */
export type StoredConversationRecord = ConversationRecord | LegacyConversationRecord;

/** The persisted snapshot the machine would have given for a legacy record's stage and context. */
function legacySnapshot(legacy: LegacyConversationRecord): Snapshot<unknown> {
  const { stage: _stage, reask: _reask, ...fields } = legacy;
  const context: DialogueContext = { ...LATER_CONTEXT_DEFAULTS, ...fields };
  // Between turns the machine has no children, so its stage and context are the whole of it.
  return dialogueMachine.getPersistedSnapshot(dialogueMachine.resolveState({ value: legacy.stage, context }));
}

/** A persisted snapshot whose context has every field today's machine keeps (a snapshot stored before a field was added lacks it). */
function completeSnapshot(snapshot: Snapshot<unknown>): Snapshot<unknown> {
  const stored = snapshot as Snapshot<unknown> & { readonly context?: object };
  if (!stored.context) return snapshot;
  return { ...stored, context: { ...LATER_CONTEXT_DEFAULTS, ...stored.context } } as unknown as Snapshot<unknown>;
}

/** A version-2 record with the fields added to the machine's context since it was stored. */
function withLaterFields(record: ConversationRecord): ConversationRecord {
  const snapshot = completeSnapshot(record.snapshot);
  if (!record.reask) return { ...record, snapshot };
  return { ...record, snapshot, reask: { ...record.reask, before: completeSnapshot(record.reask.before) } };
}

/** A stored record in today's format: as it is, or converted from the hand-built record of before. */
export function readConversationRecord(stored: StoredConversationRecord): ConversationRecord {
  if ("version" in stored) {
    // Stored JSON, perhaps from a later build: its version is whatever was written.
    const version: unknown = stored.version;
    if (version !== CONVERSATION_RECORD_VERSION)
      throw new Error(
        `a conversation record of version ${JSON.stringify(version)}: this build reads version ${CONVERSATION_RECORD_VERSION} and the unversioned records before it`,
      );
    return withLaterFields(stored);
  }
  const snapshot = legacySnapshot(stored);
  if (!stored.reask) return { version: CONVERSATION_RECORD_VERSION, snapshot };
  return {
    version: CONVERSATION_RECORD_VERSION,
    snapshot,
    reask: { before: legacySnapshot(stored.reask.before), text: stored.reask.text },
  };
}
