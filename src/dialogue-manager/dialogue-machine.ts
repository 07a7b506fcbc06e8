import { and, assign, fromPromise, setup } from "xstate";
import { profileState, restoreProfile, saveProfile, trackFrames, type TrackerEntries } from "../cmas/dialogue-state.ts";
import type { DialogueState, DoctorAction, NluFrame } from "../cmas/schemas.ts";
import { ontology } from "../cmas/ontology.ts";
import type {
  BackendFailure,
  DialogueStage,
  DialogueTurn,
  NlgInput,
  NlgResult,
  NluInput,
  NluResult,
  PolicyInput,
  PolicyResult,
} from "../language/module-interfaces.ts";
import type { RedFlag } from "../clinical/red-flags.ts";
import { updateInformant, type Informant } from "../language/informant.ts";
import { updateMedicines, type NamedMedicine } from "../language/medicines.ts";
import type { PatientRequest, RecordedPatientRequest } from "../language/patient-requests.ts";

/**
 * The dialogue manager: an xstate machine that runs one history-taking turn per patient utterance —
 * NLU → state update → policy → NLG — and keeps the conversation, the CMAS patient profile and what
 * each stage produced. A failing stage (a dead backend) puts the machine in `failed`, from which the
 * same utterance can be retried or a new one said; nothing said so far is lost.
 *
 * The machine is the flow alone. What it runs is given to it with `machine.provide()`: the NLU, policy
 * and NLG modules as its `understand`, `plan` and `realise` actors (`module-actors.ts`), and the
 * clinical rules as guards and actions (`clinical-rules.ts`). Its context is plain JSON, so a
 * conversation is stored as xstate's own persisted snapshot (`actor.getPersistedSnapshot()`).
 *
 * Red flags are read from the tracked state after every patient turn, so they fire whatever backend
 * understood the patient. When a flag first fires the machine passes through `escalating`: it records
 * the flag with the turn it fired on, and the doctor advises urgent care in plain words as a turn of its
 * own, before the policy's next question; then the history goes on (or ends, with
 * `afterEscalation: "end"`). The patient can end it at any turn (`END`). A patient who asks to repeat
 * or explain right after the advice hears the advice again, word for word, before the policy's reply
 * (which asks its question again).
 *
 * When the modules answer a stage with the offline engine because the configured backend failed
 * (`backend-failure-fallback.ts`), the turn goes through the same states — red flags, closing scope —
 * and is recorded in `fallbacks`: which turn, which backend, which stages, why.
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

/**
 * What the dialogue machine keeps between events: the conversation, the profile, what each stage
 * produced and the red flags. Plain JSON (the modules and rules are the machine's, not the context's),
 * so that xstate persists it as it is.
 */
export interface DialogueContext {
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
  /** The tracked profile `state` is derived from, as saved entries (it keeps first-mention order across statuses). */
  readonly tracker: TrackerEntries;
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
  /** Who the history is about, as the NLU last told it (null: the patient, or not told). */
  readonly informant: Informant | null;
  /** Each medicine the patient named, with its dose and frequency (beside the CMAS medication slot). */
  readonly medicines: NamedMedicine[];
  /** Every request the patient made (a question, a wish to stop, a prescription…), with its turn, in order. */
  readonly patientRequests: RecordedPatientRequest[];
  /** The requests of the turn being processed (empty otherwise). */
  readonly requests: PatientRequest[];
}

/** The context fields added after conversations were first stored, with the value a conversation without them has. */
export const LATER_CONTEXT_DEFAULTS: Readonly<
  Pick<DialogueContext, "fallbacks" | "reaskBackend" | "informant" | "medicines" | "patientRequests" | "requests">
> = { fallbacks: [], reaskBackend: false, informant: null, medicines: [], patientRequests: [], requests: [] };

/** Events the dialogue machine takes: a patient utterance, a retry of a failed turn, the end. */
export type DialogueEvent =
  { type: "PATIENT_SAID"; text: string; reaskBackend?: boolean } | { type: "RETRY" } | { type: "END" };

/** What the dialogue machine starts from: its limits and opening (its modules and rules are provided, not input). */
export interface DialogueInput {
  /** The conversation ends after this many doctor turns (default 120). */
  readonly maxDoctorTurns?: number;
  /** The doctor's opening line (default: the ontology's). */
  readonly opening?: string;
  /** After advising urgent care: go on with the history (default) or end it there. */
  readonly afterEscalation?: "continue" | "end";
}

/** What a stage's actor is given: its module's input, and whether the turn re-asks the configured backend (a Retry). */
export interface StageRequest<Input> {
  readonly request: Input;
  readonly reaskBackend: boolean;
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

/** The urgent-care advice in the doctor's reply before the patient's last turn (each text once); empty if none. */
function adviceInLastReply(context: DialogueContext): string[] {
  if (context.redFlags.length === 0 || context.history.at(-1)?.speaker !== "patient") return [];
  const before = context.history.findLastIndex(
    (turn, index) => turn.speaker === "patient" && index < context.history.length - 1,
  );
  const reply = context.history.slice(before + 1, -1).map((turn, offset) => ({ turn, index: before + 1 + offset }));
  return [...new Set(reply.filter(({ turn, index }) => isAdvice(context, turn, index)).map(({ turn }) => turn.text))];
}

/** A turn whose actions close the history: a diagnosis, or the turn limit reached. */
function isClosing(actions: readonly DoctorAction[] | null, doctorTurns: number, maxDoctorTurns: number): boolean {
  if (doctorTurns >= maxDoctorTurns) return true;
  return (actions ?? []).some((action) => action.action === "diagnosis");
}

/** The fallbacks with a stage's failure added to the turn's entry (`turn`: its patient turn's index). */
function noteFailure(fallbacks: FallbackTurn[], failure: BackendFailure | undefined, turn: number): FallbackTurn[] {
  if (!failure) return fallbacks;
  const last = fallbacks.at(-1);
  if (last?.turn === turn) return [...fallbacks.slice(0, -1), { ...last, stages: [...last.stages, failure.stage] }];
  return [
    ...fallbacks,
    {
      turn,
      backend: failure.backend,
      stages: [failure.stage],
      reason: `${failure.backend} failed at ${failure.stage}: ${failure.reason}`,
    },
  ];
}

/** A Retry asks the backend once per turn: after it failed again, the turn's later stages leave it alone. */
function stillReasking(context: DialogueContext, output: { readonly backendFailure?: BackendFailure }): boolean {
  return context.reaskBackend && output.backendFailure === undefined;
}

/** The index of the patient turn being answered. */
function patientTurn(history: readonly DialogueTurn[]): number {
  return history.findLastIndex((turn) => turn.speaker === "patient");
}

/** The context after the patient's utterance was understood: the profile tracked, the turn in the history. */
function heardPatient(context: DialogueContext, understood: NluResult): Partial<DialogueContext> {
  // A format error leaves the profile as it was: the turn still enters the history.
  const profile = understood.frames
    ? trackFrames(restoreProfile(context.tracker), understood.frames, "value-and-site")
    : null;
  const requests = [...(understood.requests ?? [])];
  return {
    informant: updateInformant(context.informant, understood.informant),
    medicines: updateMedicines(context.medicines, understood.medicines),
    requests,
    patientRequests: [
      ...context.patientRequests,
      ...requests.map((request) => ({ ...request, turn: context.history.length })),
    ],
    frames: understood.frames,
    tracker: profile ? saveProfile(profile) : context.tracker,
    state: profile ? profileState(profile) : context.state,
    history: [...context.history, { speaker: "patient" as const, text: context.pending! }],
    pending: null,
    presenting: context.presenting.length > 0 ? context.presenting : positiveSymptoms(understood.frames),
    fallbacks: noteFailure(context.fallbacks, understood.backendFailure, context.history.length),
    reaskBackend: stillReasking(context, understood),
  };
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What the policy is given: the conversation, the profile, who it is about and what the patient asked. */
function policyRequest(context: DialogueContext): PolicyInput {
  return {
    history: moduleHistory(context),
    state: context.state,
    ...(context.informant ? { informant: context.informant } : {}),
    requests: context.requests,
    patientQuestions: context.patientRequests.filter((request) => request.kind === "question"),
  };
}

/** An actor for a stage whose module was not provided: the stage fails (the machine's `failed` state) saying so. */
function unprovidedStage<Input, Output>(module: string) {
  return fromPromise<Output, StageRequest<Input>>(() =>
    Promise.reject(
      new Error(`the dialogue machine was given no ${module} module (provide one with machine.provide())`),
    ),
  );
}

/**
 * The dialogue machine's setup: its types, and the named actors, guards and actions its states use.
 * The stages' actors fail until modules are provided; the clinical rules' guards and actions do nothing
 * until provided (no flag fires, no request to repeat is heard, no plan is scoped).
 */
const dialogueSetup = setup({
  types: {
    context: {} as DialogueContext,
    events: {} as DialogueEvent,
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- xstate infers the input's type from this value: without the assertion it would be {}.
    input: {} as DialogueInput,
  },
  actors: {
    understand: unprovidedStage<NluInput, NluResult>("NLU"),
    plan: unprovidedStage<PolicyInput, PolicyResult>("policy"),
    realise: unprovidedStage<NlgInput, NlgResult>("NLG"),
  },
  guards: {
    hasText: ({ event }) => event.type === "PATIENT_SAID" && event.text.trim().length > 0,
    hasPending: ({ context }) => context.pending !== null,
    endsAfterEscalation: ({ context }) => context.afterEscalation === "end",
    adviceInLastReply: ({ context }) => adviceInLastReply(context).length > 0,
    // Clinical rules (clinical-rules.ts): a red flag fires on the tracked state; the patient's last turn asks to repeat or explain.
    redFlagFired: () => false,
    asksToRepeat: () => false,
  },
  actions: {
    rememberError: assign((_, params: { error: unknown }) => ({ error: describeError(params.error) })),
    // A retry starts the failed stage afresh: the old error must not outlive it (else a later retry
    // would look possible and count the same turn again). It asks the configured backend again.
    clearError: assign({ error: null, reaskBackend: true }),
    startTurn: assign({
      pending: ({ event }) => (event.type === "PATIENT_SAID" ? event.text.trim() : null),
      error: null,
      escalation: [],
      requests: [],
      reaskBackend: ({ event }) => event.type === "PATIENT_SAID" && event.reaskBackend === true,
    }),
    hearPatient: assign(({ context }, params: { understood: NluResult }) => heardPatient(context, params.understood)),
    takePlan: assign(({ context }, params: { planned: PolicyResult }) => ({
      actions: params.planned.actions ?? null,
      fallbacks: noteFailure(context.fallbacks, params.planned.backendFailure, patientTurn(context.history)),
      reaskBackend: stillReasking(context, params.planned),
    })),
    // The realised reply closes the turn: it joins the history, and the offline engine's part is noted.
    sayReply: assign(({ context }, params: { reply: NlgResult }) => ({
      history: [...context.history, { speaker: "doctor" as const, text: params.reply.text }],
      doctorTurns: context.doctorTurns + 1,
      fallbacks: noteFailure(context.fallbacks, params.reply.backendFailure, patientTurn(context.history)),
    })),
    // The advice said again is a doctor turn of its own, so the next question stays the last turn the
    // patient answers; the modules do not see it (`moduleHistory`).
    repeatAdvice: assign({
      history: ({ context }) => [
        ...context.history,
        ...adviceInLastReply(context).map((text) => ({ speaker: "doctor" as const, text })),
      ],
    }),
    // Clinical rules (clinical-rules.ts): advise urgent care for the flags that fired; keep the plan to the closing scope.
    escalate: () => {},
    keepToClosingScope: () => {},
  },
});

/**
 * What `dialogueMachine.provide()` takes: the stages' actors, and the guards and actions of the
 * clinical rules.
 */
export type DialogueImplementations = Parameters<typeof dialogueMachine.provide>[0];

/**
 * The xstate v5 dialogue manager: listening → understanding → screening → planning → realising →
 * listening, ending after a diagnosis or a turn limit; a failing stage goes to `failed`, from which the
 * turn is retried. Give it its modules and rules with `provide()` (see the top of this file).
 */
export const dialogueMachine = dialogueSetup.createMachine({
  id: "history-taking",
  context: ({ input }) => ({
    history: [{ speaker: "doctor", text: input.opening ?? ontology.questions.opening ?? "What brings you in today?" }],
    state: {},
    frames: null,
    actions: null,
    pending: null,
    error: null,
    doctorTurns: 0,
    maxDoctorTurns: input.maxDoctorTurns ?? 120,
    tracker: [],
    redFlags: [],
    escalation: [],
    afterEscalation: input.afterEscalation ?? "continue",
    presenting: [],
    ...LATER_CONTEXT_DEFAULTS,
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
        input: ({ context }) => ({
          request: { history: moduleHistory(context), utterance: context.pending! },
          reaskBackend: context.reaskBackend,
        }),
        onDone: {
          target: "screening",
          actions: { type: "hearPatient", params: ({ event }) => ({ understood: event.output }) },
        },
        onError: {
          target: "failed",
          actions: { type: "rememberError", params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    // Red flags are read from the state the turn produced, whatever backend produced it.
    screening: {
      always: [
        { guard: "redFlagFired", target: "escalating" },
        { guard: and(["adviceInLastReply", "asksToRepeat"]), target: "planning", actions: "repeatAdvice" },
        { target: "planning" },
      ],
    },
    escalating: {
      entry: "escalate",
      always: [{ guard: "endsAfterEscalation", target: "ended" }, { target: "planning" }],
    },
    planning: {
      invoke: {
        src: "plan",
        input: ({ context }) => ({
          request: policyRequest(context),
          reaskBackend: context.reaskBackend,
        }),
        // The closing rules hold whatever backend planned, the offline engine too.
        onDone: {
          target: "realising",
          actions: [{ type: "takePlan", params: ({ event }) => ({ planned: event.output }) }, "keepToClosingScope"],
        },
        onError: {
          target: "failed",
          actions: { type: "rememberError", params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    realising: {
      invoke: {
        src: "realise",
        input: ({ context }) => ({
          request: {
            history: moduleHistory(context),
            actions: context.actions ?? [],
            requests: context.requests,
            ...(context.informant ? { informant: context.informant } : {}),
          },
          reaskBackend: context.reaskBackend,
        }),
        onDone: [
          {
            guard: ({ context }) => isClosing(context.actions, context.doctorTurns + 1, context.maxDoctorTurns),
            target: "ended",
            actions: { type: "sayReply", params: ({ event }) => ({ reply: event.output }) },
          },
          { target: "listening", actions: { type: "sayReply", params: ({ event }) => ({ reply: event.output }) } },
        ],
        onError: {
          target: "failed",
          actions: { type: "rememberError", params: ({ event }) => ({ error: event.error }) },
        },
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
