import type {
  BackendFailure,
  CallOptions,
  DialogueModules,
  DialogueStage,
  ModuleCallInfo,
} from "../../language/module-interfaces.ts";

/**
 * For a person in a chat (web page or terminal): when a stage of the primary modules fails (a dead,
 * hanging or garbling backend), the fallback modules (the embedded engine) answer that stage instead
 * of leaving the turn unanswered, and the answer says so in `backendFailure` (which backend, which
 * stage, why), so the dialogue manager can mark the turn. After a failure the primary is not tried
 * again for a while (`cooldownMs`), so a dead backend costs one wait, not one per stage; a call with
 * `reaskBackend` (the person pressed Retry) asks it anyway, and a success ends the wait.
 * Cancellation (an aborted signal) is never answered by the fallback.
 */

export interface FailureFallbackOptions {
  /** The configured backend's id, in the failure notes (default: the primary NLU's id). */
  readonly backendId?: string;
  /** How long the primary is left alone after a failure (default 30 s). */
  readonly cooldownMs?: number;
  readonly now?: () => number;
}

/** The longest failure description kept: a backend may answer with a whole HTML page. */
const MAX_REASON_LENGTH = 300;

/** An error as one line of at most {@link MAX_REASON_LENGTH} characters. */
export function oneLineReason(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").trim() || "unknown error";
  return text.length > MAX_REASON_LENGTH ? `${text.slice(0, MAX_REASON_LENGTH - 1)}…` : text;
}

/** Which of the two answers a stage: the primary, unless it failed less than `cooldownMs` ago or fails now. */
class FailureGate {
  private failedAt = Number.NEGATIVE_INFINITY;
  private lastError = "";

  constructor(
    private readonly backend: string,
    private readonly cooldownMs: number,
    private readonly now: () => number,
  ) {}

  /** Runs a stage on the primary (`ask`), or on the fallback (`answer`) when the primary fails or is left alone. */
  async run<T extends ModuleCallInfo>(
    stage: DialogueStage,
    call: CallOptions | undefined,
    ask: (call: CallOptions) => Promise<T>,
    answer: (call: CallOptions) => Promise<T>,
  ): Promise<T> {
    const { reaskBackend, ...rest } = call ?? {};
    const since = this.now() - this.failedAt;
    if (!reaskBackend && since < this.cooldownMs) {
      const reason = `not asked: it failed ${Math.round(since / 1000)} s ago (${this.lastError})`;
      return this.offline(stage, reason, () => answer(rest));
    }
    try {
      const result = await ask(reaskBackend ? { ...rest, noCache: true } : rest);
      this.failedAt = Number.NEGATIVE_INFINITY;
      return result;
    } catch (error) {
      if (rest.signal?.aborted) throw error;
      this.failedAt = this.now();
      this.lastError = oneLineReason(error);
      return this.offline(stage, this.lastError, () => answer(rest));
    }
  }

  private async offline<T extends ModuleCallInfo>(
    stage: DialogueStage,
    reason: string,
    answer: () => Promise<T>,
  ): Promise<T> {
    const backendFailure: BackendFailure = { backend: this.backend, stage, reason };
    return { ...(await answer()), backendFailure };
  }
}

/** The primary modules, with each stage answered by `fallback` when the primary fails (see the top of this file). */
export function answerFailuresWith(
  primary: DialogueModules,
  fallback: DialogueModules,
  options: FailureFallbackOptions = {},
): DialogueModules {
  const gate = new FailureGate(
    options.backendId ?? primary.nlu.id,
    options.cooldownMs ?? 30_000,
    options.now ?? (() => performance.now()),
  );
  return {
    nlu: {
      id: primary.nlu.id,
      understand: (input, call) =>
        gate.run(
          "nlu",
          call,
          (options) => primary.nlu.understand(input, options),
          (options) => fallback.nlu.understand(input, options),
        ),
    },
    policy: {
      id: primary.policy.id,
      nextActions: (input, call) =>
        gate.run(
          "policy",
          call,
          (options) => primary.policy.nextActions(input, options),
          (options) => fallback.policy.nextActions(input, options),
        ),
    },
    nlg: {
      id: primary.nlg.id,
      realise: (input, call) =>
        gate.run(
          "nlg",
          call,
          (options) => primary.nlg.realise(input, options),
          (options) => fallback.nlg.realise(input, options),
        ),
    },
  };
}
