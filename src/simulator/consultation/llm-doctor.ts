import type { ChatBackend } from "../../backends/spec.ts";
import type { CallOptions } from "../../language/module-interfaces.ts";
import { loadPromptTemplate, type PromptTemplate } from "../../modules/prompting/prompt-template.ts";
import type { CaseEnding, ConsultCase } from "./consult-case.ts";
import type { ConsultTurn, DoctorMove, DoctorRole, DoctorSession, TurnContext } from "./consult-roles.ts";
import { readDoctorReply } from "./doctor-reply.ts";

/**
 * A doctor played by any chat backend, with a documented, versioned prompt of ours:
 * `prompts/consult-doctor-choice.v1.txt` for a multiple-choice ending (MediQ), and
 * `prompts/consult-doctor-diagnosis.v1.txt` for a diagnosis (AgentClinic, our library). Each turn
 * the model sees the whole consultation so far and how many questions or turns it has left, and
 * replies with one line: a question, a request for a test (where tests are offered) or its answer.
 * Greedy decoding, at most 200 tokens; responses are cached like any other.
 */

/** The prompt templates a doctor uses, by the ending of its case. */
export const DOCTOR_PROMPTS = { choice: "consult-doctor-choice.v1", diagnosis: "consult-doctor-diagnosis.v1" } as const;

/** How the transcript names each speaker for the doctor. */
const SPEAKER_NAMES = { doctor: "Doctor", patient: "Patient", measurement: "Examination room" } as const;

/** A transcript as a model reads it: one `Speaker: words` line per turn (`empty` when there is none). */
export function renderTranscript(turns: readonly ConsultTurn[], empty = "(nothing yet: you speak first)"): string {
  if (turns.length === 0) return empty;
  return turns.map((turn) => `${SPEAKER_NAMES[turn.speaker]}: ${turn.text}`).join("\n");
}

/** What the doctor is told about its turn: how much is left, or that it must answer now. */
function turnNote(ending: CaseEnding, context: TurnContext | "answer now"): string {
  if (ending.kind === "choice") {
    if (context === "answer now" || context.remaining <= 0)
      return "You may not ask any more questions. Give your answer now, as ANSWER: <letter>.";
    return `You may ask ${context.remaining} more question${context.remaining === 1 ? "" : "s"}. Ask one, or give your answer.`;
  }
  if (context === "answer now" || context.final)
    return "This is your last turn: give your diagnosis now, as DIAGNOSIS: <diagnosis>.";
  return `You have ${context.remaining} turns left, this one included. Ask, request a test, or give your diagnosis.`;
}

/** The values of a doctor prompt for a case and its consultation so far. */
function promptValues(patientCase: ConsultCase, turns: readonly ConsultTurn[], note: string): Record<string, string> {
  const { ending } = patientCase;
  const transcript = renderTranscript(turns);
  if (ending.kind === "choice") {
    const options = Object.entries(ending.options)
      .map(([letter, text]) => `${letter}. ${text}`)
      .join("\n");
    return { question: ending.question, options, transcript, turn_note: note };
  }
  return {
    briefing: patientCase.briefing ? `What you are told before you start: ${patientCase.briefing}\n` : "",
    tests_note:
      patientCase.measurements.length > 0
        ? "Examinations and tests are offered: request one with REQUEST TEST: <name>.\n"
        : "Examinations and tests are not available in this consultation.\n",
    transcript,
    turn_note: note,
  };
}

/** One consultation of an LLM doctor. */
class LlmDoctorSession implements DoctorSession {
  /** It reads the words of the consultation, never the states tracked on them. */
  readonly readsTrackedStates = false;

  constructor(
    private readonly backend: ChatBackend,
    private readonly template: PromptTemplate,
    private readonly patientCase: ConsultCase,
  ) {}

  private async ask(turns: readonly ConsultTurn[], note: string, options: CallOptions): Promise<DoctorMove> {
    const messages = [
      { role: "system" as const, content: this.template.system },
      { role: "user" as const, content: this.template.user(promptValues(this.patientCase, turns, note)) },
    ];
    const result = await this.backend.generate(messages, {
      temperature: 0,
      maxTokens: 200,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.noCache ? { noCache: true } : {}),
    });
    const move = readDoctorReply(result.text, {
      ending: this.patientCase.ending,
      requests: this.patientCase.measurements.length > 0,
    });
    return { ...move, info: { latencyMs: result.latencyMs, usage: result.usage, cached: result.cached } };
  }

  next(turns: readonly ConsultTurn[], context: TurnContext, options: CallOptions = {}): Promise<DoctorMove> {
    return this.ask(turns, turnNote(this.patientCase.ending, context), options);
  }

  async decide(turns: readonly ConsultTurn[], options: CallOptions = {}): Promise<DoctorMove> {
    const move = await this.ask(turns, turnNote(this.patientCase.ending, "answer now"), options);
    if (move.kind === "answer" || move.kind === "format_error") return move;
    return {
      kind: "format_error",
      text: move.text,
      reason: `a ${move.kind} where an answer was required`,
      ...(move.info ? { info: move.info } : {}),
    };
  }
}

/** A doctor played by a chat backend. */
export function llmDoctor(backend: ChatBackend): DoctorRole {
  return {
    id: backend.id,
    start: (patientCase) =>
      new LlmDoctorSession(backend, loadPromptTemplate(DOCTOR_PROMPTS[patientCase.ending.kind]), patientCase),
  };
}
