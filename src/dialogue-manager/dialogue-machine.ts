import { assign, fromPromise, setup } from "xstate";
import { EMPTY_PROFILE, profileState, trackFrames, type TrackedProfile } from "../cmas/dialogue-state.ts";
import type { DialogueState, DoctorAction, NluFrame } from "../cmas/schemas.ts";
import { ontology } from "../cmas/ontology.ts";
import type { BackendFailure, CallOptions, DialogueModules, DialogueStage, DialogueTurn, NlgResult, NluResult, PolicyResult } from "../language/module-interfaces.ts";
import { loadRedFlags, type RedFlag, type RedFlagRules } from "../clinical/red-flags.ts";
import { enforceClosingScope } from "../clinical/closing-scope.ts";
import { asksToRepeat } from "../language/repeat-requests.ts";

/**
 * The dialogue manager: an xstate machine that runs one history-taking turn per patient utterance —
 * NLU → state update → policy → NLG — and keeps the conversation, the CMAS patient profile and what
 * each stage produced. A failing stage (a dead backend) puts the machine in `failed`, from which the
 * same utterance can be retried or a new one said; nothing said so far is lost.
 *
 * Red flags (`ontology/red-flags.json`) are read from the tracked state after every patient turn, so
 * they fire whatever backend understood the patient. When a flag first fires the machine passes
 * through `escalating`: it records the flag with the turn it fired on, and the doctor advises urgent
 * care in plain words as a turn of its own, before the policy's next question; then the history goes
 * on (or ends, with `afterEscalation: "end"`). The patient can end it at any turn (`END`). A patient
 * who asks to repeat or explain right after the advice hears the advice again, word for word, before
 * the policy's reply (which asks its question again).
 *
 * When the modules answer a stage with the offline engine because the configured backend failed
 * (`failure-fallback.ts`), the turn goes through the same states — red flags, closing scope — and
 * is recorded in `fallbacks`: which turn, which backend, which stages, why.
 */

/** A red flag as recorded in the conversation: when it fired. */
export interface RecordedRedFlag extends RedFlag {
  /** Index in the history of the patient turn after which it fired. */
  readonly turn: number;
}

/** A turn the offline engine answered, wholly or in part, because the configured backend failed. */
export interface FallbackTurn {
  /** Index in the history of the patient turn whose reply it gave. */
  readonly turn: number;
  /** The configured backend that failed. */
  readonly backend: string;
  /** The stages the offline engine answered, in order. */
  readonly stages: DialogueStage[];
  /** One line: the backend, the first stage it failed at, and why (`openai:m failed at nlu: …`). */
  readonly reason: string;
}

/** What the dialogue machine keeps between events: the conversation, the profile, what each stage produced and the red flags. */
export interface DialogueContext {
  readonly modules: DialogueModules;
  readonly history: DialogueTurn[];
  readonly state: DialogueState;
  /** Frames of the last patient utterance (null after a format error). */
  readonly frames: NluFrame[] | null;
  readonly actions: DoctorAction[] | null;
  /** The patient utterance being processed. */
  readonly pending: string | null;
  readonly error: string | null;
  /** Doctor turns after the opening one. */
  readonly doctorTurns: number;
  readonly maxDoctorTurns: number;
  /** The tracked profile `state` is derived from (it keeps first-mention order across statuses). */
  readonly profile: TrackedProfile;
  readonly redFlagRules: RedFlagRules | null;
  /** Every red flag fired so far, in firing order, each once. */
  readonly redFlags: RecordedRedFlag[];
  /** Flags that first fired on the turn being processed (empty otherwise). */
  readonly escalation: RecordedRedFlag[];
  readonly afterEscalation: "continue" | "end";
  /** The positive symptoms of the first patient turn that named any: the presenting complaint, for the note. */
  readonly presenting: string[];
  /** Every turn the offline engine answered for a failed backend, in order. */
  readonly fallbacks: FallbackTurn[];
  /** The turn being processed re-asks the configured backend (a Retry): passed to the modules. */
  readonly reaskBackend: boolean;
}

/** Events the dialogue machine takes: a patient utterance, a retry of a failed turn, the end. */
export type DialogueEvent = { type: "PATIENT_SAID"; text: string; reaskBackend?: boolean } | { type: "RETRY" } | { type: "END" };

/** What the dialogue machine starts from: the modules and limits. */
export interface DialogueInput {
  readonly modules: DialogueModules;
  /** The conversation ends after this many doctor turns (default 120). */
  readonly maxDoctorTurns?: number;
  /** The doctor's opening line (default: the ontology's). */
  readonly opening?: string;
  /** Red-flag rules (default: the bundled ones); null turns escalation off. */
  readonly redFlags?: RedFlagRules | null;
  /** After advising urgent care: go on with the history (default) or end it there. */
  readonly afterEscalation?: "continue" | "end";
}

/** Positive symptom values in a turn's frames. */
function positiveSymptoms(frames: readonly NluFrame[] | null): string[] {
  const values = (frames ?? []).flatMap((frame) => frame.slots?.positive_symptom ?? []).map((entry) => entry.value);
  return [...new Set(values.filter((value): value is string => typeof value === "string"))];
}

/**
 * The conversation as the modules see it: without the urgent-care advice, which the dialogue manager
 * said, not the policy (its words would read as questions asked, and move the plan). The advice
 * follows the patient turn its flags fired on.
 */
function moduleHistory(context: DialogueContext): DialogueTurn[] {
  if (context.redFlags.length === 0) return context.history;
  return context.history.filter((turn, index) => !isAdvice(context, turn, index));
}

/** Whether a turn is urgent-care advice: said when its flags fired, or said again word for word when the patient asked. */
function isAdvice(context: DialogueContext, turn: DialogueTurn, index: number): boolean {
  if (turn.speaker !== "doctor") return false;
  return context.redFlags.some((flag) => flag.turn + 1 === index || context.history[flag.turn + 1]?.text === turn.text);
}

/**
 * The advice the doctor gave in its last reply, when the patient's turn just heard asks to repeat or
 * explain: said again, so the request never loses it. Empty otherwise.
 */
function adviceToRepeat(context: DialogueContext): string[] {
  const asked = context.history.at(-1);
  if (context.redFlags.length === 0 || asked?.speaker !== "patient" || !asksToRepeat(asked.text)) return [];
  const before = context.history.findLastIndex((turn, index) => turn.speaker === "patient" && index < context.history.length - 1);
  const reply = context.history.slice(before + 1, -1).map((turn, offset) => ({ turn, index: before + 1 + offset }));
  return [...new Set(reply.filter(({ turn, index }) => isAdvice(context, turn, index)).map(({ turn }) => turn.text))];
}

/** Flags that fire on the state now and have not fired before. */
function newRedFlags(context: DialogueContext): RedFlag[] {
  if (!context.redFlagRules) return [];
  const known = new Set(context.redFlags.map((flag) => flag.id));
  return context.redFlagRules.evaluate(context.state).filter((flag) => !known.has(flag.id));
}

/** A turn whose actions close the history: a diagnosis, or a goodbye after questions have been asked. */
function isClosing(actions: readonly DoctorAction[] | null, doctorTurns: number, maxDoctorTurns: number): boolean {
  if (doctorTurns >= maxDoctorTurns) return true;
  return (actions ?? []).some((action) => action.action === "diagnosis");
}

/** The fallbacks with a stage's failure added to the turn's entry (`turn`: its patient turn's index). */
function noteFailure(fallbacks: FallbackTurn[], failure: BackendFailure | undefined, turn: number): FallbackTurn[] {
  if (!failure) return fallbacks;
  const last = fallbacks.at(-1);
  if (last?.turn === turn) return [...fallbacks.slice(0, -1), { ...last, stages: [...last.stages, failure.stage] }];
  return [...fallbacks, { turn, backend: failure.backend, stages: [failure.stage], reason: `${failure.backend} failed at ${failure.stage}: ${failure.reason}` }];
}

/** A Retry asks the backend once per turn: after it failed again, the turn's later stages leave it alone. */
function stillReasking(context: DialogueContext, output: { readonly backendFailure?: BackendFailure }): boolean {
  return context.reaskBackend && output.backendFailure === undefined;
}

/** The index of the patient turn being answered. */
function patientTurn(history: readonly DialogueTurn[]): number {
  return history.findLastIndex((turn) => turn.speaker === "patient");
}

/** What the modules get besides the input: the cancellation signal, and a Retry's re-ask. */
function callOptions(signal: AbortSignal, reaskBackend: boolean): CallOptions {
  return reaskBackend ? { signal, reaskBackend } : { signal };
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The xstate v5 dialogue manager: listening → understanding → planning → realising → listening, ending after a diagnosis or a turn limit; a failing stage goes to `failed`, from which the turn is retried. */
export const dialogueMachine = setup({
  types: {
    context: {} as DialogueContext,
    events: {} as DialogueEvent,
    input: {} as DialogueInput,
  },
  actors: {
    understand: fromPromise<NluResult, { modules: DialogueModules; history: DialogueTurn[]; text: string; reaskBackend: boolean }>(({ input, signal }) =>
      input.modules.nlu.understand({ history: input.history, utterance: input.text }, callOptions(signal, input.reaskBackend)),
    ),
    plan: fromPromise<PolicyResult, { modules: DialogueModules; history: DialogueTurn[]; state: DialogueState; reaskBackend: boolean }>(({ input, signal }) =>
      input.modules.policy.nextActions({ history: input.history, state: input.state }, callOptions(signal, input.reaskBackend)),
    ),
    realise: fromPromise<NlgResult, { modules: DialogueModules; history: DialogueTurn[]; actions: DoctorAction[]; reaskBackend: boolean }>(({ input, signal }) =>
      input.modules.nlg.realise({ history: input.history, actions: input.actions }, callOptions(signal, input.reaskBackend)),
    ),
  },
  guards: {
    hasText: ({ event }) => event.type === "PATIENT_SAID" && event.text.trim().length > 0,
    hasPending: ({ context }) => context.pending !== null,
    redFlagFired: ({ context }) => newRedFlags(context).length > 0,
    asksToHearAdvice: ({ context }) => adviceToRepeat(context).length > 0,
    endsAfterEscalation: ({ context }) => context.afterEscalation === "end",
  },
  actions: {
    // Invoked actors' error events carry `error`; it is not in DialogueEvent, hence the cast.
    rememberError: assign({ error: ({ event }) => describeError((event as unknown as { error: unknown }).error) }),
    // A retry starts the failed stage afresh: the old error must not outlive it (else a later retry
    // would look possible and count the same turn again). It asks the configured backend again.
    clearError: assign({ error: null, reaskBackend: true }),
    startTurn: assign({
      pending: ({ event }) => (event.type === "PATIENT_SAID" ? event.text.trim() : null),
      error: null,
      escalation: [],
      reaskBackend: ({ event }) => event.type === "PATIENT_SAID" && event.reaskBackend === true,
    }),
    // The realised reply closes the turn: it joins the history, and the offline engine's part is noted.
    sayReply: assign(({ context, event }) => {
      const output = (event as unknown as { output: NlgResult }).output;
      return {
        history: [...context.history, { speaker: "doctor" as const, text: output.text }],
        doctorTurns: context.doctorTurns + 1,
        fallbacks: noteFailure(context.fallbacks, output.backendFailure, patientTurn(context.history)),
      };
    }),
    // The advice is a doctor turn of its own, so the next question stays the last turn the patient answers.
    // The advice said again is a doctor turn of its own too; the modules do not see it (`moduleHistory`).
    repeatAdvice: assign({
      history: ({ context }) => [...context.history, ...adviceToRepeat(context).map((text) => ({ speaker: "doctor" as const, text }))],
    }),
    escalate: assign(({ context }) => {
      const fired = newRedFlags(context);
      const turn = context.history.length - 1;
      const recorded = fired.map((flag) => ({ ...flag, turn }));
      return {
        redFlags: [...context.redFlags, ...recorded],
        escalation: recorded,
        history: [...context.history, { speaker: "doctor" as const, text: context.redFlagRules!.escalationText(fired) }],
      };
    }),
  },
}).createMachine({
  id: "history-taking",
  context: ({ input }) => ({
    modules: input.modules,
    history: [{ speaker: "doctor", text: input.opening ?? ontology.questions.opening ?? "What brings you in today?" }],
    state: {},
    frames: null,
    actions: null,
    pending: null,
    error: null,
    doctorTurns: 0,
    maxDoctorTurns: input.maxDoctorTurns ?? 120,
    profile: EMPTY_PROFILE,
    redFlagRules: input.redFlags === undefined ? loadRedFlags() : input.redFlags,
    redFlags: [],
    escalation: [],
    afterEscalation: input.afterEscalation ?? "continue",
    presenting: [],
    fallbacks: [],
    reaskBackend: false,
  }),
  initial: "listening",
  states: {
    listening: {
      on: {
        PATIENT_SAID: { guard: "hasText", target: "understanding", actions: "startTurn" },
        END: "ended",
      },
    },
    understanding: {
      invoke: {
        src: "understand",
        input: ({ context }) => ({ modules: context.modules, history: moduleHistory(context), text: context.pending!, reaskBackend: context.reaskBackend }),
        onDone: {
          target: "screening",
          actions: assign(({ context, event }) => {
            // A format error leaves the profile as it was: the turn still enters the history.
            const profile = event.output.frames ? trackFrames(context.profile, event.output.frames) : context.profile;
            return {
              frames: event.output.frames,
              profile,
              state: profile === context.profile ? context.state : profileState(profile),
              history: [...context.history, { speaker: "patient" as const, text: context.pending! }],
              pending: null,
              presenting: context.presenting.length > 0 ? context.presenting : positiveSymptoms(event.output.frames),
              fallbacks: noteFailure(context.fallbacks, event.output.backendFailure, context.history.length),
              reaskBackend: stillReasking(context, event.output),
            };
          }),
        },
        onError: { target: "failed", actions: "rememberError" },
      },
    },
    // Red flags are read from the state the turn produced, whatever backend produced it.
    screening: {
      always: [{ guard: "redFlagFired", target: "escalating" }, { guard: "asksToHearAdvice", target: "planning", actions: "repeatAdvice" }, { target: "planning" }],
    },
    escalating: {
      entry: "escalate",
      always: [{ guard: "endsAfterEscalation", target: "ended" }, { target: "planning" }],
    },
    planning: {
      invoke: {
        src: "plan",
        input: ({ context }) => ({ modules: context.modules, history: moduleHistory(context), state: context.state, reaskBackend: context.reaskBackend }),
        // The closing rules hold whatever backend planned, the offline engine too: no disease or test the tracked state does not support.
        onDone: {
          target: "realising",
          actions: assign({
            actions: ({ context, event }) => (event.output.actions ? enforceClosingScope(event.output.actions, context.state) : null),
            fallbacks: ({ context, event }) => noteFailure(context.fallbacks, event.output.backendFailure, patientTurn(context.history)),
            reaskBackend: ({ context, event }) => stillReasking(context, event.output),
          }),
        },
        onError: { target: "failed", actions: "rememberError" },
      },
    },
    realising: {
      invoke: {
        src: "realise",
        input: ({ context }) => ({ modules: context.modules, history: moduleHistory(context), actions: context.actions ?? [], reaskBackend: context.reaskBackend }),
        onDone: [
          { guard: ({ context }) => isClosing(context.actions, context.doctorTurns + 1, context.maxDoctorTurns), target: "ended", actions: "sayReply" },
          { target: "listening", actions: "sayReply" },
        ],
        onError: { target: "failed", actions: "rememberError" },
      },
    },
    failed: {
      on: {
        // Retry resumes where it failed: the patient turn if it was not understood, else the doctor's.
        RETRY: [
          { guard: "hasPending", target: "understanding", actions: "clearError" },
          { target: "planning", actions: "clearError" },
        ],
        PATIENT_SAID: { guard: "hasText", target: "understanding", actions: "startTurn" },
        END: "ended",
      },
    },
    ended: { type: "final" },
  },
});
