import type { ChatBackend, ChatMessage } from "../../backends/spec.ts";
import { countMessageTokens } from "../prompting/token-budget.ts";
import type { CallOptions, NoteRequest, NoteModule, NoteResult } from "../../language/module-interfaces.ts";

/**
 * Note writing through any chat backend, as lm-evaluation-harness's `generate_until` tasks run zero-shot
 * with a chat template: the task description as the system message, the document's text as the user
 * message; greedy decoding, at most 256 new tokens, stopping at the first blank line — and the reply cut
 * there as `generate_until` does, whether or not the server honoured the stop sequence.
 */

/** lm-eval's `generation_kwargs` for mts_dialog and medtext, with the hf backend's default `max_gen_toks`. */
export const NOTE_GENERATION = { until: "\n\n", maxTokens: 256, temperature: 0 } as const;

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

export class LlmNoteWriter implements NoteModule {
  readonly id: string;

  constructor(private readonly backend: ChatBackend) {
    this.id = `llm:${backend.id}`;
  }

  async write(input: NoteRequest, options: CallOptions = {}): Promise<NoteResult> {
    const messages = noteMessages(input);
    const result = await this.backend.generate(messages, {
      temperature: NOTE_GENERATION.temperature,
      maxTokens: NOTE_GENERATION.maxTokens,
      stop: [NOTE_GENERATION.until],
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return {
      raw: result.text,
      latencyMs: result.latencyMs,
      usage: result.usage,
      cached: result.cached,
      promptTokens: countMessageTokens(messages),
      text: cutAtStop(result.text),
    };
  }
}
