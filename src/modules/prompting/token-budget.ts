import type { TiktokenBPE } from "js-tiktoken/lite";
import { createRequire } from "node:module";
import type { ChatMessage } from "../../backends/spec.ts";
import { cl100kCounter } from "./cl100k-counter.ts";

/**
 * Prompt token budget. The paper keeps five exemplars "to ensure the prompt stays within the 4096
 * token limit"; we enforce it: prompt plus the reserved answer must fit, exemplars are dropped (least
 * similar first) before the history is shortened. Tokens are counted with OpenAI's cl100k_base
 * (js-tiktoken's rank file, bundled in the package, counted as its encoder counts: cl100k-counter.ts):
 * the real count for GPT-4-class models and a close estimate for others.
 */

let counter: ((text: string) => number) | undefined;

/**
 * The cl100k_base ranks, read when first needed: the file is 1 MB of JavaScript, which a static
 * import would parse in every command that merely reaches the prompters (`npm run bench` with the
 * embedded engine counts no tokens).
 */
function loadCl100k(): TiktokenBPE {
  return createRequire(import.meta.url)("js-tiktoken/ranks/cl100k_base") as TiktokenBPE;
}

/**
 * Counts of texts already counted: a run's prompts repeat the same system text and exemplars on every
 * example, and fitting a prompt counts its messages again after each exemplar it drops. Byte-pair
 * encoding them again was most of an LLM run's own CPU.
 */
const counted = new Map<string, number>();
/** How many counts are kept (then forgotten all at once): a run's system texts and exemplars, with room. */
const MAX_COUNTED = 2_048;

/** Tokens of a text (cl100k_base). The rank table loads on first use. */
export function countTokens(text: string): number {
  const known = counted.get(text);
  if (known !== undefined) return known;
  counter ??= cl100kCounter(loadCl100k());
  const tokens = counter(text);
  if (counted.size >= MAX_COUNTED) counted.clear();
  counted.set(text, tokens);
  return tokens;
}

/** Chat-format overhead per message, as OpenAI documents it for its chat models. */
const TOKENS_PER_MESSAGE = 4;

/** Tokens of a chat prompt. */
export function countMessageTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, message) => sum + TOKENS_PER_MESSAGE + countTokens(message.content), 3);
}

export interface Exemplar {
  readonly id: string;
  readonly user: string;
  readonly assistant: string;
}

export interface FittedPrompt {
  readonly messages: ChatMessage[];
  readonly exemplars: readonly string[];
  readonly promptTokens: number;
  /** History turns dropped from the query to fit (0 normally; only turns the query shows count). */
  readonly droppedHistoryTurns: number;
  /** True when even without exemplars and history the prompt exceeds the budget; it is sent as it is. */
  readonly overBudget: boolean;
}

/**
 * Builds `[system, (user, assistant) × exemplars, user]` within `budget - reserve` tokens.
 * `renderQuery(keep)` renders the final user message keeping the last `keep` history turns.
 */
export function fitPrompt(options: {
  system: string;
  exemplars: readonly Exemplar[];
  historyTurns: number;
  renderQuery: (keepHistoryTurns: number) => string;
  budget: number;
  reserve: number;
}): FittedPrompt {
  const limit = options.budget - options.reserve;
  const build = (exemplars: readonly Exemplar[], keep: number): ChatMessage[] => [
    { role: "system", content: options.system },
    ...exemplars.flatMap((exemplar): ChatMessage[] => [
      { role: "user", content: exemplar.user },
      { role: "assistant", content: exemplar.assistant },
    ]),
    { role: "user", content: options.renderQuery(keep) },
  ];
  let exemplars = [...options.exemplars];
  let keep = options.historyTurns;
  let messages = build(exemplars, keep);
  let tokens = countMessageTokens(messages);
  while (tokens > limit && exemplars.length > 0) {
    exemplars = exemplars.slice(0, -1);
    messages = build(exemplars, keep);
    tokens = countMessageTokens(messages);
  }
  while (tokens > limit && keep > 0) {
    keep -= 1;
    messages = build(exemplars, keep);
    tokens = countMessageTokens(messages);
  }
  return {
    messages,
    exemplars: exemplars.map((exemplar) => exemplar.id),
    promptTokens: tokens,
    droppedHistoryTurns: options.historyTurns - keep,
    overBudget: tokens > limit,
  };
}
