import { assign } from "xstate";
import { enforceClosingScope } from "../clinical/closing-scope.ts";
import type { RedFlag, RedFlagRules } from "../clinical/red-flags.ts";
import { asksToRepeat } from "../language/repeat-requests.ts";
import type { DialogueContext, DialogueImplementations } from "./dialogue-machine.ts";

/** Flags that fire on the state now and have not fired before. */
function newRedFlags(context: DialogueContext, rules: RedFlagRules): RedFlag[] {
  const known = new Set(context.redFlags.map((flag) => flag.id));
  return rules.evaluate(context.state).filter((flag) => !known.has(flag.id));
}

/** Whether the history's last turn is the patient's, asking to repeat or explain what the doctor said. */
function lastTurnAsksToRepeat(context: DialogueContext): boolean {
  const said = context.history.at(-1);
  return said?.speaker === "patient" && asksToRepeat(said.text);
}

/**
 * The clinical rules the dialogue machine holds every turn to, whatever backend answered, as its
 * guards and actions for `dialogueMachine.provide()`: red flags (`redFlags`; null turns them off)
 * fire on the tracked state and are advised on at once; a patient asking to repeat or explain right
 * after the advice hears it again; a plan names no disease or test the tracked state does not support
 * (the closing scope).
 */
export function clinicalRules(redFlags: RedFlagRules | null): Pick<DialogueImplementations, "guards" | "actions"> {
  return {
    guards: {
      asksToRepeat: ({ context }) => lastTurnAsksToRepeat(context),
      ...(redFlags ? { redFlagFired: ({ context }) => newRedFlags(context, redFlags).length > 0 } : {}),
    },
    actions: {
      keepToClosingScope: assign({
        actions: ({ context }) => (context.actions ? enforceClosingScope(context.actions, context.state) : null),
      }),
      // The advice is a doctor turn of its own, so the next question stays the last turn the patient answers.
      ...(redFlags
        ? {
            escalate: assign(({ context }) => {
              const fired = newRedFlags(context, redFlags);
              const recorded = fired.map((flag) => ({ ...flag, turn: context.history.length - 1 }));
              return {
                redFlags: [...context.redFlags, ...recorded],
                escalation: recorded,
                history: [...context.history, { speaker: "doctor" as const, text: redFlags.escalationText(fired) }],
              };
            }),
          }
        : {}),
    },
  };
}
