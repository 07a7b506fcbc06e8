import type { ChatBackend } from "../../backends/spec.ts";
import type { CallOptions, ClassifyRequest, ClassifyResult, TextClassifier } from "../../language/module-interfaces.ts";
import { LlmNoteWriter, type NoteWriterOptions } from "./llm-note-writer.ts";

/**
 * Classification through any chat backend: the request's prompt (its instructions list the labels,
 * its examples are labelled texts) answered greedily in a few tokens, and the answer read as one of
 * the labels — {@link readLabel} says how. An answer that names none is a format error with its
 * reason, never a guess.
 */

/** Tokens a label answer may take: the longest header name with room for a stray word. */
const LABEL_ANSWER_TOKENS = 16;

/** What is stripped around an answer before it is compared: quotes, asterisks, brackets, a final full stop. */
const ANSWER_DECORATION = /^[\s"'`*[(]+|[\s"'`*\].)]+$/g;

/** A character that continues a label's word: `GENHX` inside `GENHXS`, or `FAM` inside `FAM/SOCHX`. */
const LABEL_WORD_CHARACTER = /[a-z0-9/_]/;

/**
 * The label an answer names: its first line, undecorated (e.g. `**GENHX**.` → `GENHX`), equal to a
 * label ignoring case; otherwise the one label that appears in it as a whole word; otherwise null.
 */
export function readLabel(answer: string, labels: readonly string[]): string | null {
  const firstLine = (answer.trim().split("\n")[0] ?? "").replace(ANSWER_DECORATION, "");
  const exact = labels.find((label) => label.toLowerCase() === firstLine.toLowerCase());
  if (exact !== undefined) return exact;
  const lower = answer.toLowerCase();
  const named = labels.filter((label) => {
    const at = lower.indexOf(label.toLowerCase());
    if (at < 0) return false;
    const before = lower[at - 1] ?? " ";
    const after = lower[at + label.length] ?? " ";
    return !LABEL_WORD_CHARACTER.test(before) && !LABEL_WORD_CHARACTER.test(after);
  });
  return named.length === 1 ? named[0]! : null;
}

export class LlmTextClassifier implements TextClassifier {
  readonly id: string;
  private readonly writer: LlmNoteWriter;

  constructor(backend: ChatBackend, options: NoteWriterOptions = {}) {
    this.id = `llm:${backend.id}`;
    this.writer = new LlmNoteWriter(backend, options);
  }

  async classify(request: ClassifyRequest, options: CallOptions = {}): Promise<ClassifyResult> {
    const { text, ...info } = await this.writer.write(
      { ...request, generation: { maxTokens: LABEL_ANSWER_TOKENS, until: null } },
      options,
    );
    const label = readLabel(text, request.labels);
    return label !== null
      ? { ...info, label }
      : {
          ...info,
          label: null,
          formatError: `the answer names none of the ${request.labels.length} labels: ${JSON.stringify(text.slice(0, 80))}`,
        };
  }
}
