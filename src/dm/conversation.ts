import { createActor, waitFor, type Actor } from "xstate";
import { restoreProfile, saveProfile, type TrackerEntries } from "../cmas/dialogue-state.ts";
import type { DialogueState, DoctorAction, NluFrame } from "../cmas/schemas.ts";
import type { DialogueModules, DialogueTurn } from "../modules/types.ts";
import { loadRedFlags } from "../clinical/red-flags.ts";
import { dialogueMachine, type DialogueContext, type DialogueInput, type RecordedRedFlag } from "./dialogue-machine.ts";

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
  /** Every red flag fired so far, with the turn it fired on. */
  readonly redFlags: readonly RecordedRedFlag[];
  /** The presenting complaint: the positive symptoms of the first patient turn that named any. */
  readonly presenting: readonly string[];
}

/**
 * Everything a conversation needs to resume exactly where it was, as plain JSON: taken between turns
 * (listening, failed or ended), stored by the chat server after every turn.
 */
export type ConversationRecord = Omit<DialogueContext, "modules" | "redFlagRules" | "profile"> & {
  readonly stage: "listening" | "failed" | "ended";
  /** The tracked profile as saved entries (`saveProfile`). */
  readonly tracker: TrackerEntries;
};

/** The doctor turns since the last patient turn, as one reply. */
function lastReply(history: readonly DialogueTurn[]): string | null {
  const lastPatient = history.findLastIndex((turn) => turn.speaker === "patient");
  const said = history.slice(lastPatient + 1).map((turn) => turn.text);
  return said.length > 0 ? said.join("\n\n") : null;
}

/** One history-taking conversation: a promise-based face of {@link dialogueMachine}. */
export class Conversation {
  private readonly actor: Actor<typeof dialogueMachine>;

  constructor(modules: DialogueModules, options: Omit<DialogueInput, "modules"> = {}, resumeFrom?: ConversationRecord) {
    const input = { modules, ...options };
    if (resumeFrom) {
      const { stage, tracker, ...rest } = resumeFrom;
      // The red-flag rules are code, not data: they come from the options again, as for a new conversation.
      const redFlagRules = options.redFlags === undefined ? loadRedFlags() : options.redFlags;
      const snapshot = dialogueMachine.resolveState({ value: stage, context: { ...rest, modules, redFlagRules, profile: restoreProfile(tracker) } });
      this.actor = createActor(dialogueMachine, { input, snapshot });
    } else {
      this.actor = createActor(dialogueMachine, { input });
    }
    this.actor.start();
  }

  /** A conversation that continues from a {@link record} (after a restart, with the same modules). */
  static resume(modules: DialogueModules, record: ConversationRecord): Conversation {
    return new Conversation(modules, {}, record);
  }

  /** The conversation as plain JSON, to be stored and {@link resume}d; only between turns. Serialise it before the next turn. */
  record(): ConversationRecord {
    const snapshot = this.actor.getSnapshot();
    const stage = snapshot.status === "done" ? "ended" : snapshot.matches("failed") ? "failed" : snapshot.matches("listening") ? "listening" : null;
    if (stage === null) throw new Error("a conversation is recorded between turns, not during one");
    const { modules: _modules, redFlagRules: _rules, profile, ...rest } = snapshot.context;
    // No deep copy: the machine's context values are replaced on every change, never mutated (the
    // profile too), and saveProfile copies the entries; the chat server serialises a record at once.
    return { ...rest, history: [...rest.history], stage, tracker: saveProfile(profile) };
  }

  /** The doctor's opening line. */
  get opening(): string {
    return this.actor.getSnapshot().context.history[0]!.text;
  }

  snapshot(): ConversationSnapshot {
    const snapshot = this.actor.getSnapshot();
    const { context } = snapshot;
    return { history: context.history, state: context.state, ended: snapshot.status === "done", error: context.error, failed: snapshot.matches("failed"), redFlags: context.redFlags, presenting: context.presenting };
  }

  private async settle(started: number): Promise<TurnOutcome> {
    const snapshot = await waitFor(this.actor, (current) => current.matches("listening") || current.matches("failed") || current.status === "done");
    const { context } = snapshot;
    const failed = snapshot.matches("failed");
    return {
      doctor: failed ? null : lastReply(context.history),
      escalation: context.escalation,
      frames: context.frames,
      actions: failed ? null : context.actions,
      state: context.state,
      ended: snapshot.status === "done",
      error: failed ? context.error : null,
      elapsedMs: performance.now() - started,
    };
  }

  /** The patient says `text`; resolves with the doctor's reply (or the failure). */
  async say(text: string): Promise<TurnOutcome> {
    const started = performance.now();
    if (this.actor.getSnapshot().status === "done") throw new Error("the conversation has ended");
    if (text.trim() === "") throw new Error("the patient said nothing");
    this.actor.send({ type: "PATIENT_SAID", text });
    return this.settle(started);
  }

  /** Runs the failed stage again; throws when the last turn did not fail (nothing to retry). */
  async retry(): Promise<TurnOutcome> {
    const started = performance.now();
    if (!this.actor.getSnapshot().matches("failed")) throw new Error("the last turn did not fail");
    this.actor.send({ type: "RETRY" });
    return this.settle(started);
  }

  end(): void {
    this.actor.send({ type: "END" });
  }
}
