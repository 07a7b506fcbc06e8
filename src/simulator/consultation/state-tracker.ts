import { DialogueStateTracker } from "../../cmas/dialogue-state.ts";
import type { DialogueTurn, NluModule } from "../../language/module-interfaces.ts";
import type { ConsultTurn, StateTracker } from "./consult-roles.ts";

/**
 * The CMAS state of a consultation whose doctor tracks none (an LLM doctor, the controls): an NLU
 * module (the embedded one, handed down from the layer that builds it) reads each patient turn with
 * the conversation before it, and the dialogue-state tracker applies its frames, as the dialogue
 * manager would.
 */

/** The turns as the NLU reads them: doctor and patient turns (the examination room's are the doctor's to read). */
function historyOf(turns: readonly ConsultTurn[]): DialogueTurn[] {
  return turns.flatMap((turn) => (turn.speaker === "measurement" ? [] : [{ speaker: turn.speaker, text: turn.text }]));
}

/** A state tracker over an NLU module. */
export function nluStateTracker(nlu: NluModule): StateTracker {
  return {
    start: () => {
      const tracker = new DialogueStateTracker();
      return {
        track: async (turns, utterance, options) => {
          const { frames } = await nlu.understand({ history: historyOf(turns), utterance }, options);
          return tracker.update(frames ?? []);
        },
      };
    },
  };
}
