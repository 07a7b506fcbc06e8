import { createActor, waitFor, type Actor } from "xstate";
import type { DialogueState, DoctorAction, NluFrame } from "../cmas/schemas.ts";
import type { DialogueModules, DialogueTurn } from "../modules/types.ts";
import { dialogueMachine, type DialogueInput } from "./dialogue-machine.ts";

/** What one patient utterance led to. */
export interface TurnOutcome {
  /** The doctor's reply; null when a stage failed. */
  readonly doctor: string | null;
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
}

/** One history-taking conversation: a promise-based face of {@link dialogueMachine}. */
export class Conversation {
  private readonly actor: Actor<typeof dialogueMachine>;

  constructor(modules: DialogueModules, options: Omit<DialogueInput, "modules"> = {}) {
    this.actor = createActor(dialogueMachine, { input: { modules, ...options } });
    this.actor.start();
  }

  /** The doctor's opening line. */
  get opening(): string {
    return this.actor.getSnapshot().context.history[0]!.text;
  }

  snapshot(): ConversationSnapshot {
    const snapshot = this.actor.getSnapshot();
    return { history: snapshot.context.history, state: snapshot.context.state, ended: snapshot.status === "done", error: snapshot.context.error };
  }

  private async settle(started: number): Promise<TurnOutcome> {
    const snapshot = await waitFor(this.actor, (current) => current.matches("listening") || current.matches("failed") || current.status === "done");
    const { context } = snapshot;
    const failed = snapshot.matches("failed");
    return {
      doctor: failed ? null : (context.history.at(-1)?.text ?? null),
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

  /** Runs the failed stage again. */
  async retry(): Promise<TurnOutcome> {
    const started = performance.now();
    this.actor.send({ type: "RETRY" });
    return this.settle(started);
  }

  end(): void {
    this.actor.send({ type: "END" });
  }
}
