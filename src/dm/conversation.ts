import { createActor, waitFor, type Actor } from "xstate";
import type { DialogueState, DoctorAction, NluFrame } from "../cmas/schemas.ts";
import type { DialogueModules, DialogueTurn } from "../modules/types.ts";
import { dialogueMachine, type DialogueInput, type RecordedRedFlag } from "./dialogue-machine.ts";

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

export interface ConversationSnapshot {
  readonly history: readonly DialogueTurn[];
  readonly state: DialogueState;
  readonly ended: boolean;
  readonly error: string | null;
  /** Every red flag fired so far, with the turn it fired on. */
  readonly redFlags: readonly RecordedRedFlag[];
  /** The presenting complaint: the positive symptoms of the first patient turn that named any. */
  readonly presenting: readonly string[];
}

/** The doctor turns since the last patient turn, as one reply. */
function lastReply(history: readonly DialogueTurn[]): string | null {
  const lastPatient = history.findLastIndex((turn) => turn.speaker === "patient");
  const said = history.slice(lastPatient + 1).map((turn) => turn.text);
  return said.length > 0 ? said.join("\n\n") : null;
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
    const { context } = snapshot;
    return { history: context.history, state: context.state, ended: snapshot.status === "done", error: context.error, redFlags: context.redFlags, presenting: context.presenting };
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
