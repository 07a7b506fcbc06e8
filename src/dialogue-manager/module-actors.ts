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
 * aborted) when the machine leaves the stage.
 */
export function moduleActors(modules: DialogueModules): NonNullable<DialogueImplementations["actors"]> {
  return {
    understand: fromPromise<NluResult, StageRequest<NluInput>>(({ input, signal }) =>
      modules.nlu.understand(input.request, callOptions(signal, input.reaskBackend)),
    ),
    plan: fromPromise<PolicyResult, StageRequest<PolicyInput>>(({ input, signal }) =>
      modules.policy.nextActions(input.request, callOptions(signal, input.reaskBackend)),
    ),
    realise: fromPromise<NlgResult, StageRequest<NlgInput>>(({ input, signal }) =>
      modules.nlg.realise(input.request, callOptions(signal, input.reaskBackend)),
    ),
  };
}
