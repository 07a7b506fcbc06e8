import type { DialogueState, DoctorAction } from "../../cmas/schemas.ts";
import { Conversation } from "../../dialogue-manager/conversation.ts";
import type { DialogueModules } from "../../language/module-interfaces.ts";
import type { ConsultCase } from "./consult-case.ts";
import type { ConsultTurn, DoctorMove, DoctorRole, DoctorSession, TurnContext } from "./consult-roles.ts";
import { lastTrackedState, offlineAnswer } from "./offline-answer.ts";

/**
 * The embedded doctor: our dialogue manager over the modules it is given (the embedded engine, handed
 * down by the layer that builds it), the same conversation the chat holds. It asks what its plan asks;
 * when the plan closes (or when it must answer) it answers offline from what the patient said
 * (`offline-answer.ts`). Its tracked CMAS state is the one the transcript records.
 */

/** The disease a closing names, if the doctor's actions close the history. */
function closingOf(actions: readonly DoctorAction[] | null): { named: string | null } | undefined {
  const diagnosis = (actions ?? []).find((action) => action.action === "diagnosis");
  if (!diagnosis) return undefined;
  const disease = Array.isArray(diagnosis.disease) ? diagnosis.disease[0]?.value : undefined;
  return { named: typeof disease === "string" ? disease : null };
}

/** One consultation of the embedded doctor. */
class EmbeddedDoctorSession implements DoctorSession {
  private readonly conversation: Conversation;
  /** Patient turns of the transcript the conversation has heard. */
  private heard = 0;
  private named: string | null = null;

  constructor(
    modules: DialogueModules,
    private readonly patientCase: ConsultCase,
  ) {
    // The consultation's limit is the loop's; the dialogue manager's own must not end it first.
    this.conversation = new Conversation(modules, { maxDoctorTurns: 10_000 });
  }

  /** Says the patient turns the conversation has not heard yet; the doctor's reply to the last one. */
  private async catchUp(turns: readonly ConsultTurn[]) {
    const patientTurns = turns.filter((turn) => turn.speaker === "patient");
    let outcome;
    for (const turn of patientTurns.slice(this.heard)) {
      if (this.conversation.snapshot().ended) break;
      outcome = await this.conversation.say(turn.text);
      if (outcome.error !== null) throw new Error(`the embedded doctor failed: ${outcome.error}`);
      const closing = closingOf(outcome.actions);
      if (closing) this.named = closing.named;
    }
    this.heard = patientTurns.length;
    return outcome;
  }

  async next(turns: readonly ConsultTurn[], context: TurnContext): Promise<DoctorMove> {
    if (context.final) return this.decide(turns);
    if (turns.length === 0) return { kind: "question", text: this.conversation.opening };
    const outcome = await this.catchUp(turns);
    if (!outcome || outcome.ended || closingOf(outcome.actions)) {
      const answer = offlineAnswer(this.patientCase, turns, this.named, this.trackedState());
      return { kind: "answer", text: outcome?.doctor ?? "", answer };
    }
    return { kind: "question", text: outcome.doctor ?? "" };
  }

  async decide(turns: readonly ConsultTurn[]): Promise<DoctorMove> {
    // A doctor that never spoke (the controls' answerer) reads the state the consultation tracked.
    const spoke = this.heard > 0;
    if (spoke) await this.catchUp(turns);
    const state = spoke ? this.conversation.snapshot().state : lastTrackedState(turns);
    const answer = offlineAnswer(this.patientCase, turns, this.named, state);
    return { kind: "answer", text: answerWords(this.patientCase, answer), answer };
  }

  trackedState(): DialogueState | null {
    return this.heard > 0 ? this.conversation.snapshot().state : null;
  }
}

/** How the embedded doctor words an answer it gives when it must. */
function answerWords(patientCase: ConsultCase, answer: string | null): string {
  if (patientCase.ending.kind === "choice") return `ANSWER: ${answer}`;
  return `DIAGNOSIS: ${answer ?? "none"}`;
}

/** The embedded doctor over the given modules (the embedded engine, built by the layer above). */
export function embeddedDoctor(modules: DialogueModules): DoctorRole {
  return { id: "embedded", start: (patientCase) => new EmbeddedDoctorSession(modules, patientCase) };
}
