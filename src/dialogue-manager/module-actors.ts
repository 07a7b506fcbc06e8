import { fromPromise } from "xstate";
import type {
  CallOptions,
  DialogueModules,
  NlgInput,
  NlgResult,
  NluInput,
  NluResult,
  PolicyInput,
  PolicyResult,
} from "../language/module-interfaces.ts";
import type { DialogueImplementations, StageRequest } from "./dialogue-machine.ts";

/** What the modules get besides the input: the cancellation signal, and a Retry's re-ask. */
function callOptions(signal: AbortSignal, reaskBackend: boolean): CallOptions {
  return reaskBackend ? { signal, reaskBackend } : { signal };
}

/**
 * The modules as the dialogue machine's stage actors, for `dialogueMachine.provide({ actors })`: the
 * NLU understands, the policy plans, the NLG realises, each a promise actor cancelled (its signal
 * aborted) when the machine leaves the stage. `screeningReady`, when given, is what the screening
 * after the NLU reads besides the state (the red flags' semantic signal encoding the turn): the
 * understanding stage ends when both are done, so that work runs beside the NLU's, not after it.
 */
export function moduleActors(
  modules: DialogueModules,
  screeningReady?: () => Promise<unknown>,
): NonNullable<DialogueImplementations["actors"]> {
  return {
    understand: fromPromise<NluResult, StageRequest<NluInput>>(async ({ input, signal }) => {
      const understood = await modules.nlu.understand(input.request, callOptions(signal, input.reaskBackend));
      await screeningReady?.();
      return understood;
    }),
    plan: fromPromise<PolicyResult, StageRequest<PolicyInput>>(({ input, signal }) =>
      modules.policy.nextActions(input.request, callOptions(signal, input.reaskBackend)),
    ),
    realise: fromPromise<NlgResult, StageRequest<NlgInput>>(({ input, signal }) =>
      modules.nlg.realise(input.request, callOptions(signal, input.reaskBackend)),
    ),
  };
}
