import { DialogueStateTracker } from "../../cmas/dialogue-state.ts";
import type { DialogueState } from "../../cmas/schemas.ts";
import type { DialogueTurn, NluModule } from "../../language/module-interfaces.ts";
import type { ConsultTurn, StateTracker } from "./consult-roles.ts";

/**
 * The CMAS state of a consultation whose doctor tracks none (an LLM doctor, the controls): an NLU
 * module (the embedded one, handed down from the layer that builds it) reads each patient turn with
 * the conversation before it, and the dialogue-state tracker applies its frames, as the dialogue
 * manager would. The turns are read one after another in the order they were given, so that a
 * consultation need not wait for one turn's state before it goes on (`tracking-worker.ts` does the
 * same on a worker thread).
 */

/** The turns as the NLU reads them: doctor and patient turns (the examination room's are the doctor's to read). */
export function historyOf(turns: readonly ConsultTurn[]): DialogueTurn[] {
  return turns.flatMap((turn) => (turn.speaker === "measurement" ? [] : [{ speaker: turn.speaker, text: turn.text }]));
}

/** A state tracker over an NLU module, on this thread. */
export function nluStateTracker(nlu: NluModule): StateTracker {
  return {
    start: () => {
      const tracker = new DialogueStateTracker(undefined, "value-and-site");
      // The previous turn's reading: the next one starts when it is done, failed or not.
      let previous: Promise<unknown> = Promise.resolve();
      return {
        track: (turns, utterance, options) => {
          const history = historyOf(turns);
          const state = previous.then(async (): Promise<DialogueState> => {
            const { frames } = await nlu.understand({ history, utterance }, options);
            return tracker.update(frames ?? []);
          });
          previous = state.catch(() => undefined);
          return state;
        },
      };
    },
  };
}
