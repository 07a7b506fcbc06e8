import type { DialogueModules, DialogueStage, ModuleCallInfo } from "../../language/module-interfaces.ts";

/**
 * Modules that fall back to other modules (typically the embedded engine) when the primary output is
 * a format error, so a conversation or a run always has a usable answer. The primary's raw text and
 * format error are kept, `fallback` names the module that answered instead, and `backendFailure`
 * says why (for a chat's turn marker).
 */
export type FallbackInfo = ModuleCallInfo & { readonly fallback?: string };

export function withFallback(
  primary: DialogueModules,
  fallback: DialogueModules,
  options: { readonly backendId?: string } = {},
): DialogueModules {
  const backend = options.backendId ?? primary.nlu.id;
  const merge = (stage: DialogueStage, first: ModuleCallInfo, second: ModuleCallInfo, by: string): FallbackInfo => ({
    ...first,
    latencyMs: first.latencyMs + second.latencyMs,
    fallback: by,
    backendFailure: { backend, stage, reason: `format error: ${first.formatError ?? "an empty reply"}` },
  });
  return {
    nlu: {
      id: `${primary.nlu.id}|${fallback.nlu.id}`,
      async understand(input, options) {
        const result = await primary.nlu.understand(input, options);
        if (result.frames !== null) return result;
        const backup = await fallback.nlu.understand(input, options);
        return { ...merge("nlu", result, backup, fallback.nlu.id), frames: backup.frames };
      },
    },
    policy: {
      id: `${primary.policy.id}|${fallback.policy.id}`,
      async nextActions(input, options) {
        const result = await primary.policy.nextActions(input, options);
        if (result.actions !== null) return result;
        const backup = await fallback.policy.nextActions(input, options);
        return { ...merge("policy", result, backup, fallback.policy.id), actions: backup.actions };
      },
    },
    nlg: {
      id: `${primary.nlg.id}|${fallback.nlg.id}`,
      async realise(input, options) {
        const result = await primary.nlg.realise(input, options);
        if (result.formatError === undefined && result.text.trim() !== "") return result;
        const backup = await fallback.nlg.realise(input, options);
        return { ...merge("nlg", result, backup, fallback.nlg.id), text: backup.text };
      },
    },
  };
}
