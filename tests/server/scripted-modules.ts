import type { DoctorAction, NluFrame } from "../../src/cmas/schemas.ts";
import type { DialogueModules } from "../../src/language/module-interfaces.ts";

/** What scripted modules do every turn: read the patient's utterance as `frames`, then take `actions` and say `reply`. */
export interface DialogueScript {
  readonly frames: (utterance: string) => NluFrame[];
  readonly actions: DoctorAction[];
  readonly reply: string;
}

/** Deterministic dialogue modules (id "scripted"), for tests of the page or the server rather than the engine. */
export function scriptedModules({ frames, actions, reply }: DialogueScript): DialogueModules {
  return {
    nlu: { id: "scripted", understand: async ({ utterance }) => ({ frames: frames(utterance), latencyMs: 0 }) },
    // A fresh copy each turn, as a real policy gives: what the dialogue manager does with one turn's actions never reaches the next.
    policy: { id: "scripted", nextActions: async () => ({ actions: structuredClone(actions), latencyMs: 0 }) },
    nlg: { id: "scripted", realise: async () => ({ text: reply, latencyMs: 0 }) },
  };
}
