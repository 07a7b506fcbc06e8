import type { DialogueModules } from "./types.ts";

/**
 * For a person in a chat: when a stage of the primary modules fails (a dead or timing-out backend),
 * the fallback modules (the embedded engine) answer that stage instead of leaving the turn
 * unanswered, and the failure is logged so the chat can say so. After a failure the primary is not
 * tried again for a while (`cooldownMs`), so a dead backend costs one wait, not one per turn.
 * Cancellation (an aborted signal) is never answered by the fallback.
 */

export interface FailureLog {
  /** The failures since the last call, as `stage: message` lines, oldest first. */
  take(): string[];
}

export interface FailureFallbackOptions {
  /** How long the primary is left alone after a failure (default 30 s). */
  readonly cooldownMs?: number;
  readonly now?: () => number;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function answerFailuresWith(primary: DialogueModules, fallback: DialogueModules, options: FailureFallbackOptions = {}): { modules: DialogueModules; failures: FailureLog } {
  const cooldownMs = options.cooldownMs ?? 30_000;
  const now = options.now ?? (() => performance.now());
  let failedAt = Number.NEGATIVE_INFINITY;
  let lastError = "";
  let pending: string[] = [];

  /** Runs a stage on the primary, or on the fallback when the primary fails or is cooling down. */
  const run = async <T>(stage: string, first: () => Promise<T>, second: () => Promise<T>, signal?: AbortSignal): Promise<T> => {
    if (now() - failedAt < cooldownMs) {
      pending.push(`${stage}: skipped, the backend failed ${Math.round((now() - failedAt) / 1000)} s ago (${lastError})`);
      return second();
    }
    try {
      return await first();
    } catch (error) {
      if (signal?.aborted) throw error;
      failedAt = now();
      lastError = describe(error);
      pending.push(`${stage}: ${lastError}`);
      return second();
    }
  };

  const modules: DialogueModules = {
    nlu: { id: primary.nlu.id, understand: (input, call) => run("nlu", () => primary.nlu.understand(input, call), () => fallback.nlu.understand(input, call), call?.signal) },
    policy: { id: primary.policy.id, nextActions: (input, call) => run("policy", () => primary.policy.nextActions(input, call), () => fallback.policy.nextActions(input, call), call?.signal) },
    nlg: { id: primary.nlg.id, realise: (input, call) => run("nlg", () => primary.nlg.realise(input, call), () => fallback.nlg.realise(input, call), call?.signal) },
  };
  const failures: FailureLog = {
    take() {
      const taken = pending;
      pending = [];
      return taken;
    },
  };
  return { modules, failures };
}
