import { createActor, waitFor, type Actor, type Snapshot } from "xstate";
import type { DialogueState, DoctorAction, NluFrame } from "../cmas/schemas.ts";
import type { DialogueModules, DialogueTurn } from "../language/module-interfaces.ts";
import type { Informant } from "../language/informant.ts";
import type { NamedMedicine } from "../language/medicines.ts";
import type { RecordedPatientRequest } from "../language/patient-requests.ts";
import { loadRedFlags, type RedFlagRules } from "../clinical/red-flags.ts";
import type { SemanticRedFlags } from "../clinical/red-flags-semantic.ts";
import { clinicalRules } from "./clinical-rules.ts";
import {
  CONVERSATION_RECORD_VERSION,
  readConversationRecord,
  type ConversationRecord,
  type ReaskPoint,
  type StoredConversationRecord,
} from "./conversation-record.ts";
import { dialogueMachine, type DialogueInput, type FallbackTurn, type RecordedRedFlag } from "./dialogue-machine.ts";
import { moduleActors } from "./module-actors.ts";

/** What one patient utterance led to. */
export interface TurnOutcome {
  /** The doctor's reply (an urgent-care advice first, when a red flag fired); null when a stage failed. */
  readonly doctor: string | null;
  /** Red flags that first fired on this turn (the advice is the reply's first paragraph). */
  readonly escalation: readonly RecordedRedFlag[];
  readonly frames: NluFrame[] | null;
  readonly actions: DoctorAction[] | null;
  readonly state: DialogueState;
  readonly ended: boolean;
  readonly error: string | null;
  /** Set when the offline engine answered this turn (wholly or in part) because the configured backend failed. */
  readonly fallback: FallbackTurn | null;
  readonly elapsedMs: number;
}

/** A conversation's state at a moment: history, dialogue state, stage. */
export interface ConversationSnapshot {
  readonly history: readonly DialogueTurn[];
  readonly state: DialogueState;
  readonly ended: boolean;
  readonly error: string | null;
  /** The last turn failed and can be retried. */
  readonly failed: boolean;
  /** The last turn can be retried: it failed, or the offline engine answered it (a retry re-asks the configured backend). */
  readonly retryable: boolean;
  /** Every turn the offline engine answered because the configured backend failed. */
  readonly fallbacks: readonly FallbackTurn[];
  /** Every red flag fired so far, with the turn it fired on. */
  readonly redFlags: readonly RecordedRedFlag[];
  /** The presenting complaint: the positive symptoms of the first patient turn that named any. */
  readonly presenting: readonly string[];
  /** Who the history is about (null: the patient, or not told). */
  readonly informant: Informant | null;
  /** Each medicine the patient named, with its dose and frequency as said. */
  readonly medicines: readonly NamedMedicine[];
  /** Every request the patient made (questions, a wish to stop, prescriptions…), with its turn. */
  readonly patientRequests: readonly RecordedPatientRequest[];
}

/** How a new conversation runs: the machine's input, and its red-flag rules. */
export interface ConversationOptions extends DialogueInput {
  /** Red-flag rules (default: the bundled ones); null turns escalation off. */
  readonly redFlags?: RedFlagRules | null;
  /** The red flags' semantic signal (default none): each patient turn is encoded while the NLU reads it, and the screening waits for both. */
  readonly semanticRedFlags?: SemanticRedFlags | null;
}

/** What the patient said, turn by turn. */
function patientTexts(history: readonly DialogueTurn[]): string[] {
  return history.filter((turn) => turn.speaker === "patient").map((turn) => turn.text);
}

/** The doctor turns since the last patient turn, as one reply. */
function lastReply(history: readonly DialogueTurn[]): string | null {
  const lastPatient = history.findLastIndex((turn) => turn.speaker === "patient");
  const said = history.slice(lastPatient + 1).map((turn) => turn.text);
  return said.length > 0 ? said.join("\n\n") : null;
}

/** One history-taking conversation: a promise-based face of {@link dialogueMachine}, given its modules and the clinical rules. */
export class Conversation {
  private readonly machine: typeof dialogueMachine;
  private readonly input: DialogueInput;
  private readonly semantic: SemanticRedFlags | null;
  /** The semantic signal encoding the turn being answered (it waits at most its own limit). */
  private encoding: Promise<void> = Promise.resolve();
  private actor: Actor<typeof dialogueMachine>;
  /** Set while the last turn was answered by the offline engine: {@link retry} re-asks the backend from here. */
  private reask: ReaskPoint | null;

  constructor(modules: DialogueModules, options: ConversationOptions = {}, resumeFrom?: StoredConversationRecord) {
    // The modules and the rules are code, not data: a resumed conversation is given them again.
    const { redFlags = loadRedFlags(), semanticRedFlags = null, ...input } = options;
    this.semantic = redFlags ? semanticRedFlags : null;
    this.machine = dialogueMachine.provide({
      actors: moduleActors(modules, this.semantic ? () => this.encoding : undefined),
      ...clinicalRules(redFlags, this.semantic),
    });
    this.input = input;
    const record = resumeFrom ? readConversationRecord(resumeFrom) : undefined;
    this.actor = this.startActor(record?.snapshot);
    // A resumed conversation's turns are encoded in the background: the next screening reads them.
    if (record && this.semantic) void this.semantic.prepare(patientTexts(this.actor.getSnapshot().context.history));
    this.reask = record?.reask ?? null;
  }

  /** A started actor: at a persisted snapshot, or new from the input (xstate reads the input only when there is no snapshot). */
  private startActor(snapshot?: Snapshot<unknown>): Actor<typeof dialogueMachine> {
    const actor = createActor(this.machine, { input: this.input, ...(snapshot ? { snapshot } : {}) });
    actor.start();
    return actor;
  }

  /** A conversation that continues from a {@link record} (after a restart, with the same modules), of today's format or of before. */
  static resume(
    modules: DialogueModules,
    record: StoredConversationRecord,
    options: Pick<ConversationOptions, "redFlags" | "semanticRedFlags"> = {},
  ): Conversation {
    return new Conversation(modules, options, record);
  }

  /** The conversation as plain JSON, to be stored and {@link resume}d; only between turns. Serialise it before the next turn. */
  record(): ConversationRecord {
    const snapshot = this.persisted();
    return this.reask
      ? { version: CONVERSATION_RECORD_VERSION, snapshot, reask: this.reask }
      : { version: CONVERSATION_RECORD_VERSION, snapshot };
  }

  /**
   * The machine's persisted snapshot; only between turns (a turn's running stage would be in it). No
   * deep copy: the machine's context values are replaced on every change, never mutated, and the chat
   * server serialises a record at once.
   */
  private persisted(): Snapshot<unknown> {
    const snapshot = this.actor.getSnapshot();
    const between = snapshot.status === "done" || snapshot.matches("failed") || snapshot.matches("listening");
    if (!between) throw new Error("a conversation is recorded between turns, not during one");
    return this.actor.getPersistedSnapshot();
  }

  /** The doctor's opening line. */
  get opening(): string {
    return this.actor.getSnapshot().context.history[0]!.text;
  }

  /** The conversation now: history, dialogue state, and whether it ended, failed or can be retried. */
  snapshot(): ConversationSnapshot {
    const snapshot = this.actor.getSnapshot();
    const { context } = snapshot;
    const failed = snapshot.matches("failed");
    return {
      history: context.history,
      state: context.state,
      ended: snapshot.status === "done",
      error: context.error,
      failed,
      retryable: failed || this.reask !== null,
      fallbacks: context.fallbacks,
      redFlags: context.redFlags,
      presenting: context.presenting,
      informant: context.informant,
      medicines: context.medicines,
      patientRequests: context.patientRequests,
    };
  }

  private async settle(started: number): Promise<TurnOutcome> {
    const snapshot = await waitFor(
      this.actor,
      (current) => current.matches("listening") || current.matches("failed") || current.status === "done",
    );
    const { context } = snapshot;
    const failed = snapshot.matches("failed");
    const last = context.fallbacks.at(-1);
    return {
      doctor: failed ? null : lastReply(context.history),
      escalation: context.escalation,
      frames: context.frames,
      actions: failed ? null : context.actions,
      state: context.state,
      ended: snapshot.status === "done",
      error: failed ? context.error : null,
      fallback:
        !failed &&
        last !== undefined &&
        last.turn === context.history.findLastIndex((turn) => turn.speaker === "patient")
          ? last
          : null,
      elapsedMs: performance.now() - started,
    };
  }

  /** The patient says `text`; resolves with the doctor's reply (or the failure). */
  async say(text: string): Promise<TurnOutcome> {
    if (this.actor.getSnapshot().status === "done") throw new Error("the conversation has ended");
    if (text.trim() === "") throw new Error("the patient said nothing");
    return this.answer(text.trim(), false);
  }

  /** Runs a patient turn; keeps where to re-ask the backend from when the offline engine answered it. */
  private async answer(text: string, reaskBackend: boolean): Promise<TurnOutcome> {
    const started = performance.now();
    const before = this.persisted();
    // Encoded while the NLU reads the turn; the screening after it waits for both.
    if (this.semantic) this.encoding = this.semantic.prepare([text]);
    this.actor.send({ type: "PATIENT_SAID", text, ...(reaskBackend ? { reaskBackend } : {}) });
    const outcome = await this.settle(started);
    this.reask = outcome.fallback ? { before, text } : null;
    return outcome;
  }

  /**
   * Retries the last turn with the configured backend: a failed turn from the stage that failed; a
   * turn the offline engine answered from its start, replacing that answer (if the backend fails
   * again, the offline engine answers again and says why). Throws when there is nothing to retry.
   */
  async retry(): Promise<TurnOutcome> {
    const started = performance.now();
    if (this.actor.getSnapshot().matches("failed")) {
      this.actor.send({ type: "RETRY" });
      return this.settle(started);
    }
    if (!this.reask) throw new Error("the last turn did not fail and was not answered by the offline engine");
    const { before, text } = this.reask;
    this.actor.stop();
    this.actor = this.startActor(before);
    return this.answer(text, true);
  }

  /** The patient ends the history (nothing is left to retry). */
  end(): void {
    this.reask = null;
    this.actor.send({ type: "END" });
  }
}
