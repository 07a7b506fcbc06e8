import { assign } from "xstate";
import { enforceClosingScope } from "../clinical/closing-scope.ts";
import { RedFlagScreen } from "../clinical/red-flag-screen.ts";
import type { RedFlag, RedFlagRules } from "../clinical/red-flags.ts";
import type { SemanticRedFlags } from "../clinical/red-flags-semantic.ts";
import { asksToRepeat } from "../language/repeat-requests.ts";
import type { DialogueContext, DialogueImplementations } from "./dialogue-machine.ts";

/**
 * Flags that fire now and have not fired before: on the tracked state, on the signs in the patient's
 * own words (all their turns, each read once by the conversation's screen), or on the semantic signal
 * (a paraphrase the rules lack), each once with all its evidence.
 */
function newRedFlags(context: DialogueContext, screen: RedFlagScreen): RedFlag[] {
  const known = new Set(context.redFlags.map((flag) => flag.id));
  const patientTurns = context.history.filter((turn) => turn.speaker === "patient").map((turn) => turn.text);
  return screen.flags(context.state, patientTurns).filter((flag) => !known.has(flag.id));
}

/** Whether the history's last turn is the patient's, asking to repeat or explain what the doctor said. */
function lastTurnAsksToRepeat(context: DialogueContext): boolean {
  const said = context.history.at(-1);
  return said?.speaker === "patient" && asksToRepeat(said.text);
}

/**
 * The clinical rules the dialogue machine holds every turn to, whatever backend answered, as its
 * guards and actions for `dialogueMachine.provide()`: red flags (`redFlags`; null turns them off)
 * fire on the tracked state, on the patient's own words, or on the semantic signal (`semantic`, when
 * given), and are advised on at once; a patient asking to repeat or explain right
 * after the advice hears it again; a flag that ends the history (`endsHistory`: a patient who cannot
 * answer) is its last turn; a plan names no disease or test the tracked state does not support
 * (the closing scope).
 *
 * Call it once per conversation: its red-flag screen follows one conversation's turns, reading each
 * new turn once (given to several, it reads each conversation's turns again whenever they alternate).
 */
export function clinicalRules(
  redFlags: RedFlagRules | null,
  semantic: SemanticRedFlags | null = null,
): Pick<DialogueImplementations, "guards" | "actions"> {
  const screen = redFlags ? new RedFlagScreen(redFlags, semantic) : null;
  const endingFlags = new Set(redFlags?.flags.filter((flag) => flag.endsHistory).map((flag) => flag.id));
  const endsHistory = (setting: DialogueContext["afterEscalation"], fired: readonly RedFlag[]): boolean =>
    setting === "end" || fired.some((flag) => endingFlags.has(flag.id));
  // The guard and the escalation read the same context: screened once.
  const screened = new WeakMap<DialogueContext, RedFlag[]>();
  const newFlags = (context: DialogueContext): RedFlag[] => {
    let flags = screened.get(context);
    if (!flags) screened.set(context, (flags = newRedFlags(context, screen!)));
    return flags;
  };
  return {
    guards: {
      asksToRepeat: ({ context }) => lastTurnAsksToRepeat(context),
      endsAfterEscalation: ({ context }) => endsHistory(context.afterEscalation, context.escalation),
      ...(redFlags ? { redFlagFired: ({ context }) => newFlags(context).length > 0 } : {}),
    },
    actions: {
      keepToClosingScope: assign({
        actions: ({ context }) => (context.actions ? enforceClosingScope(context.actions, context.state) : null),
      }),
      // The advice is a doctor turn of its own, so the next question stays the last turn the patient answers.
      ...(redFlags
        ? {
            escalate: assign(({ context }) => {
              const fired = newFlags(context);
              const recorded = fired.map((flag) => ({ ...flag, turn: context.history.length - 1 }));
              return {
                redFlags: [...context.redFlags, ...recorded],
                escalation: recorded,
                history: [
                  ...context.history,
                  {
                    speaker: "doctor" as const,
                    text: redFlags.escalationText(fired, { endsHistory: endsHistory(context.afterEscalation, fired) }),
                  },
                ],
              };
            }),
          }
        : {}),
    },
  };
}
