import type { DialogueState, DoctorAction, NluFrame } from "../cmas/schemas.ts";
import type { Informant } from "./informant.ts";
import type { MedicineMention } from "./medicines.ts";
import type { PatientRequest, RecordedPatientRequest } from "./patient-requests.ts";

/**
 * The three stages of a history-taking turn, each an interface with interchangeable implementations
 * (an LLM through any backend, or the embedded offline engine).
 */

/** One utterance of a conversation. */
export interface DialogueTurn {
  readonly speaker: "doctor" | "patient";
  readonly text: string;
}

/** A stage of a history-taking turn. */
export type DialogueStage = "nlu" | "policy" | "nlg";

/**
 * Why another module (the offline engine) answered a call in the configured backend's place: the
 * backend threw (unreachable, timeout, garbage), was left alone after a recent failure, or gave a
 * format error even after the repair request. Never carries a secret: backends redact their keys
 * from their errors.
 */
export interface BackendFailure {
  /** The configured backend's id (`openai:gpt-4o-mini`). */
  readonly backend: string;
  readonly stage: DialogueStage;
  /** What went wrong, one line (`backend openai:m at http://127.0.0.1:8000/v1: 500 …`, `format error: frames: …`). */
  readonly reason: string;
}

/** What a module call cost and how it went; recorded per line in a run's predictions file. */
export interface ModuleCallInfo {
  /** The model's reply as text, kept even (especially) when it could not be used. */
  readonly raw?: string;
  readonly latencyMs: number;
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
  readonly cached?: boolean;
  /** Ids (`dialogue:turn`) of the in-context exemplars the prompt carried. */
  readonly exemplars?: readonly string[];
  /** Tokens of the prompt sent (cl100k_base count). */
  readonly promptTokens?: number;
  /** The prompt exceeded its token budget even with no exemplar left, and was sent as it was. */
  readonly overBudget?: boolean;
  /** Set when the output did not validate even after the repair attempt. */
  readonly formatError?: string;
  readonly repaired?: boolean;
  /**
   * The exact request sent (messages and generation parameters), kept by the runner in a sibling
   * `requests-<suite>.jsonl` so that a run can be diffed against another pipeline's prompts.
   */
  readonly request?: {
    readonly messages: ReadonlyArray<{ readonly role: string; readonly content: string }>;
    readonly parameters: Readonly<Record<string, unknown>>;
  };
  /** Set when the offline engine answered this call because the configured backend failed. */
  readonly backendFailure?: BackendFailure;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  /**
   * The person asked for the configured backend again (a chat's Retry): ask it even while it is left
   * alone after a failure, and not its response cache.
   */
  readonly reaskBackend?: boolean;
  /** Ask the backend itself, not its response cache (LLM modules pass it on to the backend). */
  readonly noCache?: boolean;
}

export interface NluInput {
  /** The conversation before the patient's utterance (its last turn is usually the doctor's question). */
  readonly history: readonly DialogueTurn[];
  readonly utterance: string;
  /** The utterance index (`uttr_id`) when the input is a dataset turn (the official protocol needs it). */
  readonly turn?: number;
  /** Set when the input comes from a dataset: retrieval leaves out exemplars of the same dialogue. */
  readonly dialogueId?: string;
}
export interface NluResult extends ModuleCallInfo {
  /** Null when the output was a format error. */
  readonly frames: NluFrame[] | null;
  /** What the turn asks of the doctor apart from the history it gives (a question, a wish to stop…); never in `frames`. */
  readonly requests?: readonly PatientRequest[];
  /** Who the history is about, when the turn tells it (an update: null fields are not known from this turn). */
  readonly informant?: Informant;
  /** The medicines the turn names, by name with dose and frequency (beside the CMAS medication slot, which holds classes). */
  readonly medicines?: readonly MedicineMention[];
}
/** Understands a patient utterance as CMAS frames. */
export interface NluModule {
  readonly id: string;
  understand(input: NluInput, options?: CallOptions): Promise<NluResult>;
}

export interface PolicyInput {
  /** The conversation so far; the doctor speaks next. */
  readonly history: readonly DialogueTurn[];
  /** The patient profile after the last patient turn. */
  readonly state: DialogueState;
  readonly dialogueId?: string;
  /** The doctor utterance's index (`uttr_id`) when the input is a dataset turn. */
  readonly turn?: number;
  /** Who the history is about, as known so far (absent: the patient, or not known). LLM modules may ignore it. */
  readonly informant?: Informant;
  /** What the patient's last turn asked of the doctor (a question, a wish to stop, a prescription…). */
  readonly requests?: readonly PatientRequest[];
  /** Every question the patient has asked so far, with its turn. */
  readonly patientQuestions?: readonly RecordedPatientRequest[];
}
export interface PolicyResult extends ModuleCallInfo {
  readonly actions: DoctorAction[] | null;
}
/** Chooses the doctor's next actions. */
export interface PolicyModule {
  readonly id: string;
  nextActions(input: PolicyInput, options?: CallOptions): Promise<PolicyResult>;
}

export interface NlgInput {
  readonly history: readonly DialogueTurn[];
  readonly actions: readonly DoctorAction[];
  /** What the patient's last turn asked of the doctor: the reply acknowledges, answers or declines it. */
  readonly requests?: readonly PatientRequest[];
  /** Who the history is about: with a relative speaking, questions are about the patient ("does she…"). */
  readonly informant?: Informant;
  readonly dialogueId?: string;
  /** The doctor utterance's index (`uttr_id`) when the input is a dataset turn. */
  readonly turn?: number;
}
export interface NlgResult extends ModuleCallInfo {
  readonly text: string;
}
/** Words the doctor's actions as an utterance. */
export interface NlgModule {
  readonly id: string;
  realise(input: NlgInput, options?: CallOptions): Promise<NlgResult>;
}

export interface NoteRequest {
  /** What the writer is asked to do (lm-eval's task `description`, or a versioned prompt's system text). */
  readonly instructions: string;
  /** The text to write from (lm-eval's `doc_to_text`): a dialogue, or a patient's record. */
  readonly input: string;
  /** How a prompted writer shows the input and its worked examples; lm-eval's zero-shot context (the input alone) when absent. */
  readonly prompt?: FewShotPrompt;
  /** How long the answer may be and where it stops; lm-eval's (256 tokens, cut at the first blank line) when absent. */
  readonly generation?: AnswerLength;
}
/**
 * A few-shot prompt, rendered by the suite that owns it: the user message of the input, and the worked
 * examples shown before it as earlier turns (nearest first; a writer drops the last ones when the
 * prompt would not fit its context window). Offline engines ignore it and read the bare input.
 */
export interface FewShotPrompt {
  readonly user: string;
  readonly examples: ReadonlyArray<{ readonly id: string; readonly user: string; readonly assistant: string }>;
}
/** An answer's length limit, and the text it is cut at (`null`: not cut). */
export interface AnswerLength {
  readonly maxTokens: number;
  readonly until: string | null;
}
export interface NoteResult extends ModuleCallInfo {
  readonly text: string;
}
/** Writes a clinical note (or a diagnosis and treatment) from a dialogue or a patient's record. */
export interface NoteModule {
  readonly id: string;
  write(input: NoteRequest, options?: CallOptions): Promise<NoteResult>;
}

export interface ClassifyRequest {
  /** What the classifier is asked (a versioned prompt's system text, with the labels and what each means). */
  readonly instructions: string;
  /** The text to classify, e.g. a short doctor–patient dialogue. */
  readonly input: string;
  /** The labels to choose from, as the answer must name them. */
  readonly labels: readonly string[];
  /** How a prompted classifier shows the input and its worked examples. */
  readonly prompt?: FewShotPrompt;
}
export interface ClassifyResult extends ModuleCallInfo {
  /** One of the request's labels, or null when the output named none (a format error, its reason in `formatError`). */
  readonly label: string | null;
}
/** Names the label of a text among a fixed set (e.g. the section header a dialogue's note section goes under). */
export interface TextClassifier {
  readonly id: string;
  classify(request: ClassifyRequest, options?: CallOptions): Promise<ClassifyResult>;
}

/** The three modules of a dialogue system. */
export interface DialogueModules {
  readonly nlu: NluModule;
  readonly policy: PolicyModule;
  readonly nlg: NlgModule;
}

/** `speaker: text` lines, the way the paper's prompts show a conversation. */
export function renderTurns(turns: readonly DialogueTurn[]): string {
  return turns.map((turn) => `${turn.speaker}: ${turn.text}`).join("\n");
}
