import type { ChatBackend, ChatMessage } from "../../backends/spec.ts";
import { countMessageTokens, fitPrompt } from "../prompting/token-budget.ts";
import type {
  AnswerLength,
  CallOptions,
  NoteRequest,
  NoteModule,
  NoteResult,
} from "../../language/module-interfaces.ts";

/**
 * Note writing through any chat backend. By default as lm-evaluation-harness's `generate_until` tasks
 * run zero-shot with a chat template: the task description as the system message, the document's text
 * as the user message; greedy decoding, at most 256 new tokens, stopping at the first blank line — and
 * the reply cut there as `generate_until` does, whether or not the server honoured the stop sequence.
 * A request with a few-shot prompt (ACI-Bench's visit notes) is sent as `[system, (user, assistant) ×
 * examples, user]`, with as many of its examples as fit the context window beside the answer's length.
 */

/** lm-eval's `generation_kwargs` for mts_dialog and medtext, with the hf backend's default `max_gen_toks`. */
export const NOTE_GENERATION = { until: "\n\n", maxTokens: 256, temperature: 0 } as const;

/** The context window a few-shot prompt and its answer must fit when none is given. */
const DEFAULT_CONTEXT_TOKENS = 8192;

/** The messages of lm-eval's zero-shot chat context: `description` as system, `doc_to_text` as user. */
export function noteMessages(input: NoteRequest): ChatMessage[] {
  return [
    { role: "system", content: input.instructions },
    { role: "user", content: input.input },
  ];
}

/** The generated text up to the stop sequence (`text.split(until)[0]`). */
export function cutAtStop(text: string, until: string = NOTE_GENERATION.until): string {
  const at = text.indexOf(until);
  return at < 0 ? text : text.slice(0, at);
}

/** A writer's settings: the context window (`--context-tokens`) few-shot prompts must fit. */
export interface NoteWriterOptions {
  readonly contextTokens?: number;
}

export class LlmNoteWriter implements NoteModule {
  readonly id: string;
  private readonly contextTokens: number;

  constructor(
    private readonly backend: ChatBackend,
    options: NoteWriterOptions = {},
  ) {
    this.id = `llm:${backend.id}`;
    this.contextTokens = options.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
  }

  /** The request's messages, and the examples they kept: as many as fit beside the answer. */
  private messagesOf(input: NoteRequest, length: AnswerLength): { messages: ChatMessage[]; exemplars?: string[] } {
    if (!input.prompt) return { messages: noteMessages(input) };
    const { user, examples } = input.prompt;
    const fitted = fitPrompt({
      system: input.instructions,
      exemplars: examples,
      historyTurns: 0,
      renderQuery: () => user,
      budget: this.contextTokens,
      reserve: length.maxTokens,
    });
    return { messages: fitted.messages, exemplars: [...fitted.exemplars] };
  }

  async write(input: NoteRequest, options: CallOptions = {}): Promise<NoteResult> {
    const length: AnswerLength = input.generation ?? NOTE_GENERATION;
    const { messages, exemplars } = this.messagesOf(input, length);
    const result = await this.backend.generate(messages, {
      temperature: NOTE_GENERATION.temperature,
      maxTokens: length.maxTokens,
      ...(length.until !== null ? { stop: [length.until] } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return {
      raw: result.text,
      latencyMs: result.latencyMs,
      usage: result.usage,
      cached: result.cached,
      promptTokens: countMessageTokens(messages),
      ...(exemplars ? { exemplars } : {}),
      text: length.until !== null ? cutAtStop(result.text, length.until) : result.text,
    };
  }
}
