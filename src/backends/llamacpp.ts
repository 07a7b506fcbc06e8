/**
 * `llamacpp:<path to .gguf>`: a GGUF model run in-process by node-llama-cpp, with structured output
 * enforced by a JSON-schema grammar, and lm-eval's `loglikelihood_rolling` (the perplexity suites):
 * the text's tokens (no special tokens) in rolling windows of the context size (rolling-windows.ts),
 * the first after the model's BOS token (else EOS), each token's probability read from the model's
 * full next-token distribution.
 *
 * node-llama-cpp is not a dependency of Anamnesis (its GPU builds weigh ~700 MB); it is imported only
 * when a `llamacpp:` id is used. Install it with `npm install node-llama-cpp@3.21.1`; for a lean
 * CPU-only install see tests/backends/llamacpp.test.ts. Settings: `gpu` (false = CPU only; default:
 * auto), `threads` (CPU threads; 1 is much faster for tiny models on a busy machine), `contextSize`
 * (default: the model's, at most 4096; llama.cpp may round it up, and a scoring window holds one token
 * less, recorded as `parameters.loglikelihood.windowTokens`), `concurrency` (= context sequences, default 1).
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { AnamnesisError } from "../foundation/errors.ts";
import { canonicalJson } from "./response-cache.ts";
import { createChatBackend } from "./chat-backend.ts";
import type { LlamaCppSettings, ResolvedSettings } from "./settings.ts";
import { NoSuchModelError } from "./errors.ts";
import type {
  ChatBackend,
  ChatMessage,
  CompletionRequest,
  CompletionResponse,
  ModelDriver,
  TokenUsage,
} from "./spec.ts";
import { Semaphore } from "./resilience.ts";
import { rollingTokenWindows, type RollingWindow } from "./rolling-windows.ts";
import { toStrictJsonSchema } from "./structured.ts";
import { importExternal } from "../foundation/external-import.ts";

export const NODE_LLAMA_CPP_VERSION = "3.21.1";
export const NODE_LLAMA_CPP_INSTALL_HINT = `install it with npm install node-llama-cpp@${NODE_LLAMA_CPP_VERSION}`;

/** The small part of node-llama-cpp's API used here (typed locally so tsc passes without the package). */
interface NodeLlamaCpp {
  getLlama(options: {
    gpu?: false | "auto";
    build?: "never";
    logLevel?: "error" | "warn";
    maxThreads?: number;
  }): Promise<Llama>;
  LlamaChat: new (options: { contextSequence: LlamaContextSequence; autoDisposeSequence?: boolean }) => LlamaChat;
}
interface Llama {
  loadModel(options: { modelPath: string }): Promise<LlamaModel>;
  createGrammarForJsonSchema(schema: unknown): Promise<LlamaGrammar>;
  getGrammarFor(type: "json"): Promise<LlamaGrammar>;
  dispose(): Promise<void>;
}
interface LlamaModel {
  readonly trainContextSize: number;
  readonly tokens: { readonly bos: Token | null; readonly eos: Token | null };
  /** The GGUF metadata; the tokenizer's vocabulary gives the size of a next-token distribution. */
  readonly fileInfo?: {
    readonly metadata?: { readonly tokenizer?: { readonly ggml?: { readonly tokens?: { readonly length: number } } } };
  };
  tokenize(text: string, specialTokens?: boolean): Token[];
  createContext(options: { contextSize?: number; sequences?: number }): Promise<LlamaContext>;
  dispose(): Promise<void>;
}
interface LlamaContext {
  getSequence(): LlamaContextSequence;
  dispose(): Promise<void>;
}
type Token = number;
interface LlamaContextSequence {
  readonly tokenMeter: { getState(): { usedInputTokens: number; usedOutputTokens: number } };
  /** The sequence's context size (llama.cpp may round the requested one up); it holds one token less. */
  readonly contextSize: number;
  readonly nextTokenIndex: number;
  clearHistory(): Promise<void>;
  /** `[token, { generateNext: { probabilities: true } }]` returns the full next-token distribution after that token. */
  controlledEvaluate(
    input: Array<Token | [Token, { generateNext?: { probabilities?: boolean } }]>,
  ): Promise<Array<{ next: { probabilities?: Map<Token, number> } } | undefined>>;
}
type LlamaGrammar = object;
type ChatHistoryItem = { type: "system" | "user"; text: string } | { type: "model"; response: string[] };
interface LlamaChat {
  generateResponse(
    history: ChatHistoryItem[],
    options: {
      grammar?: LlamaGrammar;
      maxTokens?: number;
      temperature?: number;
      seed?: number;
      signal?: AbortSignal;
      customStopTriggers?: string[];
    },
  ): Promise<{ response: string }>;
  dispose(): void;
}

/** Imports node-llama-cpp, or explains how to install it. */
export async function loadNodeLlamaCpp(): Promise<NodeLlamaCpp> {
  const specifier = "node-llama-cpp";
  try {
    return await importExternal<NodeLlamaCpp>(specifier);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") {
      throw new AnamnesisError(
        "BACKEND_ERROR",
        `the llamacpp backend needs the optional package node-llama-cpp, which is not installed; ${NODE_LLAMA_CPP_INSTALL_HINT}`,
        { cause: error },
      );
    }
    throw new AnamnesisError("BACKEND_ERROR", `node-llama-cpp failed to load: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

const GBNF_KEYS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "enum",
  "const",
  "oneOf",
  "$defs",
  "$ref",
  "description",
]);

/**
 * Narrows a strict JSON schema to what node-llama-cpp's grammar generator understands: `anyOf` →
 * `oneOf`, a multi-type `type` → `oneOf` of single types, `enum`/`const` on their own, unknown
 * keywords (pattern, format, title, propertyNames) dropped — zod validation still checks them.
 */
export function toGrammarSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toGrammarSchema);
  if (node === null || typeof node !== "object") return node;
  const source = node as Record<string, unknown>;
  if (source.enum !== undefined) return { enum: source.enum };
  if (source.const !== undefined) return { const: source.const };
  const alternatives = source.anyOf ?? source.oneOf;
  if (Array.isArray(alternatives)) return { oneOf: alternatives.map(toGrammarSchema) };
  if (Array.isArray(source.type) && source.type.length > 1) {
    return {
      oneOf: (source.type as unknown[]).map((type) =>
        toGrammarSchema(type === "null" ? { type } : { ...source, type }),
      ),
    };
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (!GBNF_KEYS.has(key)) continue;
    if (key === "type" && Array.isArray(value)) out.type = value[0];
    else if ((key === "properties" || key === "$defs") && value && typeof value === "object") {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, toGrammarSchema(child)]));
    } else out[key] = toGrammarSchema(value);
  }
  return out;
}

/**
 * Next-token probabilities held at once while scoring: a window is evaluated in chunks of
 * ⌊2^20 / vocabulary size⌋ tokens (64 for a 16k vocabulary, 8 for 128k), because node-llama-cpp hands
 * over each position's distribution as a Map of the whole vocabulary.
 */
const PROBABILITIES_PER_CHUNK = 2 ** 20;
const ASSUMED_VOCABULARY = 2 ** 17;
/**
 * ln of the smallest positive float32: node-llama-cpp's probabilities are float32, so a token with
 * ln p below about −103 reads as 0; it counts as this bound (an overestimate) instead of −∞.
 */
const LN_SMALLEST_FLOAT32 = -149 * Math.LN2;
/**
 * The whole distribution, because node-llama-cpp 3.21.1 offers no cheaper exact way to read one given
 * token's probability: `confidence` is the probability of the token its sampler picks (greedy: the
 * most likely one), and `tokenBias`, a grammar or `topK` change the distribution they are read from.
 * The cost grows with the vocabulary (bench/llamacpp-loglikelihood.ts; figures in the README).
 */
const SCORE_NEXT = { generateNext: { probabilities: true } } as const;

function toHistory(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((message) =>
    message.role === "assistant"
      ? { type: "model", response: [message.content] }
      : { type: message.role, text: message.content },
  );
  history.push({ type: "model", response: [] });
  return history;
}

/** One context sequence and the chat that generates on it. */
interface Slot {
  readonly chat: LlamaChat;
  readonly sequence: LlamaContextSequence;
}

/** node-llama-cpp with the model loaded: its context, one {@link Slot} per sequence. */
interface LoadedModel {
  readonly llama: Llama;
  readonly model: LlamaModel;
  readonly context: LlamaContext;
  readonly slots: readonly Slot[];
}

/** The model file's size and modification time (part of the cache key), or a NoSuchModelError. */
function modelFileOf(modelPath: string): { path: string; size: number; mtimeMs: number } {
  const path = resolve(modelPath);
  const file = existsSync(path) ? statSync(path) : undefined;
  if (!file?.isFile()) {
    throw new NoSuchModelError(
      `llamacpp:${modelPath}`,
      `no GGUF model file at ${path} (expected llamacpp:<path to .gguf>)`,
    );
  }
  return { path, size: file.size, mtimeMs: file.mtimeMs };
}

/** Loads the model with a context of `sequences` sequences; what was loaded is released again if a step fails. */
async function loadModel(
  lib: NodeLlamaCpp,
  path: string,
  settings: ResolvedSettings<LlamaCppSettings>,
  sequences: number,
): Promise<LoadedModel> {
  let llama: Llama | undefined;
  try {
    llama = await lib.getLlama({
      gpu: settings.gpu === false ? false : "auto",
      build: "never",
      logLevel: "error",
      ...(settings.threads !== undefined ? { maxThreads: settings.threads } : {}),
    });
    const model = await llama.loadModel({ modelPath: path });
    const contextSize = settings.contextSize ?? Math.min(4096, model.trainContextSize);
    const context = await model.createContext({ contextSize, sequences });
    const slots = Array.from({ length: sequences }, () => {
      const sequence = context.getSequence();
      return { sequence, chat: new lib.LlamaChat({ contextSequence: sequence }) };
    });
    return { llama, model, context, slots };
  } catch (error) {
    await llama?.dispose().catch(() => undefined);
    throw new AnamnesisError("BACKEND_ERROR", `llamacpp could not load ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * Lends each attempt a slot of its own. A timed-out generation may still be winding down when the next
 * request starts: the request waits for its slot rather than share the sequence.
 */
class SlotPool {
  readonly #idle: Slot[];
  readonly #permits: Semaphore;

  constructor(slots: readonly Slot[]) {
    this.#idle = [...slots];
    this.#permits = new Semaphore(slots.length);
  }

  async use<T>(signal: AbortSignal, work: (slot: Slot) => Promise<T>): Promise<T> {
    const release = await this.#permits.acquire(signal);
    const slot = this.#idle.pop()!;
    try {
      return await work(slot);
    } finally {
      this.#idle.push(slot);
      release();
    }
  }
}

/** The grammar for a structured request (none for `prompt`), one per distinct schema. */
function grammarsOf(
  llama: Llama,
): (structured: NonNullable<CompletionRequest["structured"]>) => Promise<LlamaGrammar> | undefined {
  const grammars = new Map<string, Promise<LlamaGrammar>>();
  return (structured) => {
    if (structured.method === "prompt") return undefined;
    if (structured.method === "jsonMode") return llama.getGrammarFor("json");
    const schema = toGrammarSchema(toStrictJsonSchema(structured.jsonSchema).schema);
    const key = canonicalJson(schema);
    let grammar = grammars.get(key);
    if (!grammar) {
      grammar = llama.createGrammarForJsonSchema(schema);
      grammars.set(key, grammar);
    }
    return grammar;
  };
}

/** One generation on `slot`; usage is what the sequence's token meter counted meanwhile. */
async function generateOn(
  slot: Slot,
  request: CompletionRequest,
  grammar: LlamaGrammar | undefined,
  signal: AbortSignal,
): Promise<CompletionResponse> {
  const before = slot.sequence.tokenMeter.getState();
  const { response } = await slot.chat.generateResponse(toHistory(request.messages), {
    ...(grammar ? { grammar } : {}),
    ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
    ...(request.stop ? { customStopTriggers: [...request.stop] } : {}),
    signal,
  });
  const after = slot.sequence.tokenMeter.getState();
  return {
    text: response,
    usage: {
      inputTokens: after.usedInputTokens - before.usedInputTokens,
      outputTokens: after.usedOutputTokens - before.usedOutputTokens,
    },
  };
}

/** How a text is scored: its tokens, the prefix token, the window length, and the tokens evaluated per chunk. */
interface Scoring {
  readonly tokenize: (text: string) => Token[];
  readonly prefixToken: Token;
  readonly windowTokens: number;
  readonly chunkTokens: number;
}

/** The log-likelihood of one window's predicted tokens, evaluated on `sequence` from empty. */
async function scoreWindow(
  sequence: LlamaContextSequence,
  window: RollingWindow,
  chunkTokens: number,
  signal: AbortSignal,
): Promise<number> {
  const { input, predicted } = window;
  // Each window starts from an empty sequence: nothing before its input.
  await sequence.clearHistory();
  const firstScored = input.length - predicted.length;
  let logLikelihood = 0;
  for (let start = 0; start < input.length; start += chunkTokens) {
    signal.throwIfAborted();
    const chunk = input.slice(start, start + chunkTokens);
    const results = await sequence.controlledEvaluate(
      chunk.map((token, offset) => (start + offset >= firstScored ? [token, SCORE_NEXT] : token)),
    );
    for (let offset = Math.max(0, firstScored - start); offset < chunk.length; offset++) {
      const target = predicted[start + offset - firstScored]!;
      const probability = results[offset]?.next.probabilities?.get(target);
      if (probability === undefined || !(probability >= 0)) {
        throw new AnamnesisError(
          "BACKEND_ERROR",
          `node-llama-cpp gave no probability for token ${target} (got ${probability})`,
        );
      }
      logLikelihood += probability > 0 ? Math.log(probability) : LN_SMALLEST_FLOAT32;
    }
  }
  // A context shift would have dropped the window's start; windowTokens rules it out.
  if (sequence.nextTokenIndex !== input.length) {
    throw new AnamnesisError("BACKEND_ERROR", `the context shifted while scoring a window of ${input.length} tokens`);
  }
  return logLikelihood;
}

/** lm-eval's `loglikelihood_rolling` of `text` on `sequence`, window by window. */
async function scoreRolling(
  sequence: LlamaContextSequence,
  text: string,
  scoring: Scoring,
  signal: AbortSignal,
): Promise<{ logLikelihood: number; usage: TokenUsage }> {
  try {
    let logLikelihood = 0;
    let evaluated = 0;
    for (const window of rollingTokenWindows(scoring.tokenize(text), scoring.prefixToken, scoring.windowTokens)) {
      logLikelihood += await scoreWindow(sequence, window, scoring.chunkTokens, signal);
      evaluated += window.input.length;
    }
    // Usage: every token the model read (overlapping context counts again); nothing is generated.
    return { logLikelihood, usage: { inputTokens: evaluated, outputTokens: 0 } };
  } finally {
    // The chat on this sequence finds it empty and evaluates its prompt from scratch.
    await sequence.clearHistory().catch(() => undefined);
  }
}

/** Releases the chats, the context, the model and node-llama-cpp, once. */
function closerOf({ llama, model, context, slots }: LoadedModel): () => Promise<void> {
  let closed = false;
  return async () => {
    if (closed) return;
    closed = true;
    for (const { chat } of slots) chat.dispose();
    await context.dispose();
    await model.dispose();
    await llama.dispose();
  };
}

/** The `llamacpp:` driver: the model at `modelPath`, loaded in-process (see the top of this file). */
export async function createLlamaCppDriver(
  modelPath: string,
  settings: ResolvedSettings<LlamaCppSettings>,
): Promise<ModelDriver> {
  const file = modelFileOf(modelPath);
  const lib = await loadNodeLlamaCpp();
  const sequences = settings.concurrency ?? 1;
  const loaded = await loadModel(lib, file.path, settings, sequences);
  const { model } = loaded;
  // lm-eval's prefix token: BOS, else EOS; a model with neither cannot score a text from its start.
  const prefixToken = model.tokens.bos ?? model.tokens.eos;
  // node-llama-cpp keeps one cell free: a sequence holding contextSize tokens would shift its context.
  const windowTokens = loaded.slots[0]!.sequence.contextSize - 1;
  const vocabulary = model.fileInfo?.metadata?.tokenizer?.ggml?.tokens?.length || ASSUMED_VOCABULARY;
  const chunkTokens = Math.max(1, Math.floor(PROBABILITIES_PER_CHUNK / vocabulary));
  const pool = new SlotPool(loaded.slots);
  const grammarFor = grammarsOf(loaded.llama);
  return {
    provider: "llamacpp",
    model: modelPath,
    endpoint: file.path,
    capabilities: { structuredOutput: true, logprobs: false, embeddings: false, loglikelihood: prefixToken !== null },
    parameters: {
      modelFile: { bytes: file.size, modifiedMs: Math.round(file.mtimeMs) },
      ...(settings.contextSize !== undefined ? { contextSize: settings.contextSize } : {}),
    },
    defaultStructuredOutput: "jsonSchema",
    defaultConcurrency: sequences,
    loglikelihoodParameters: { windowTokens },
    complete: (request, signal) =>
      pool.use(signal, async (slot) =>
        generateOn(slot, request, request.structured ? await grammarFor(request.structured) : undefined, signal),
      ),
    async loglikelihoodRolling(text, signal) {
      if (prefixToken === null)
        throw new AnamnesisError(
          "BACKEND_ERROR",
          `${file.path} has neither a BOS nor an EOS token to start scoring from`,
        );
      const scoring = {
        tokenize: (whole: string) => model.tokenize(whole, false),
        prefixToken,
        windowTokens,
        chunkTokens,
      };
      return pool.use(signal, (slot) => scoreRolling(slot.sequence, text, scoring, signal));
    },
    classifyError: (error) => ({ retryable: false, description: (error as Error)?.message ?? String(error) }),
    close: closerOf(loaded),
  };
}

/** The `llamacpp:` provider's factory: the driver with every layer of {@link createChatBackend}. */
export async function createLlamaCppBackend(
  modelPath: string,
  settings: ResolvedSettings<LlamaCppSettings>,
): Promise<ChatBackend> {
  return createChatBackend(await createLlamaCppDriver(modelPath, settings), settings);
}
