import { createBackend, type BackendOptions } from "../../backends/index.ts";
import type { MeditodDataset, Split } from "../../data/meditod.ts";
import { DenseRetriever } from "../../retrieval/exemplar-retriever.ts";
import { createLlmModules, type LlmModulesOptions } from "../llm/llm-modules.ts";
import { DEFAULT_TOKEN_BUDGET } from "../llm/in-context-prompter.ts";
import type { DialogueModules } from "../../language/module-interfaces.ts";
import { withFallback } from "./format-error-fallback.ts";
import { answerFailuresWith } from "./backend-failure-fallback.ts";

/** The id of the offline engine, and the default backend. */
export const EMBEDDED_BACKEND_ID = "embedded";

/** Dialogue modules built for a backend, with what a run records about them. */
export interface ModuleSetup {
  readonly modules: DialogueModules;
  /** Backend id and non-secret parameters, for run records. */
  readonly backend: { readonly id: string; readonly parameters?: Readonly<Record<string, unknown>> };
  /** Template version#hash per module (LLM backends only). */
  readonly promptVersions: Record<string, string>;
  readonly protocol: Record<string, unknown>;
  close(): Promise<void>;
}

/** Options of {@link createModules}: exemplars, retrieval, fallback, wording, backend settings. */
export interface CreateModulesOptions extends Omit<LlmModulesOptions, "retriever"> {
  readonly backendOptions?: BackendOptions;
  /** `bm25` (default) or `dense` (embeddings from the same backend). */
  readonly retrieval?: "bm25" | "dense";
  /** `embedded`: answer with the offline engine when the model's output is a format error. */
  readonly fallback?: "embedded";
  /**
   * For chats (web and terminal): a stage whose backend fails (throws, times out, answers garbage) is
   * answered by the embedded engine too, and the answer carries a `backendFailure` note that the
   * dialogue manager turns into the turn's fallback marker (a benchmark never sets this: a dead
   * endpoint must end the run). See `failure-fallback.ts`.
   */
  readonly answerFailures?: boolean;
  /**
   * How the embedded engine words the doctor: `transcript` (default) like the training doctors, as
   * the NLG metrics reward; `clean` from our templates, for people reading a chat.
   */
  readonly wording?: "transcript" | "clean";
}

/** The embedded engine's modules; its code is imported on first use, so that other backends never load it. */
async function embeddedModules(
  dataset: MeditodDataset,
  trainSplit: Split | readonly string[],
  wording?: "transcript" | "clean",
): Promise<DialogueModules> {
  const { buildEmbeddedEngine } = await import("../embedded/index.ts");
  return buildEmbeddedEngine(dataset, trainSplit, wording ? { wording } : {});
}

/** The embedded engine's module setup. */
async function embeddedSetup(
  dataset: MeditodDataset,
  trainSplit: Split | readonly string[],
  wording?: "transcript" | "clean",
): Promise<ModuleSetup> {
  return {
    modules: await embeddedModules(dataset, trainSplit, wording),
    backend: { id: EMBEDDED_BACKEND_ID },
    promptVersions: {},
    protocol: {
      name: "embedded",
      engine: "embedded (offline, built from the train split)",
      trained_on: trainSplit,
      prompt_source: "none (rules and statistics, no prompts)",
      retrieval: "none",
      embedding_model: null,
    },
    close: async () => {},
  };
}

/** The protocol record of our in-context modules, for run records and reports. */
function inContextProtocol(
  options: CreateModulesOptions,
  promptVersions: Record<string, string>,
  retriever: string,
  embeddingModel: string | null,
  trainSplit: Split | readonly string[],
): Record<string, unknown> {
  return {
    name: "anamnesis",
    differences_from_the_paper:
      "our prompts, JSON-schema-constrained decoding, one repair round, JSON salvaged from prose and fences, BM25 retrieval by default, a token budget (default 8,192)",
    prompt_source: `anamnesis prompts/ (${Object.values(promptVersions).join(", ")})`,
    embedding_model: embeddingModel,
    decoding: { temperature: 0, max_tokens: null, response_format: "json_schema", repair: true, salvage: true },
    exemplars: options.exemplars ?? 5,
    exemplar_source: trainSplit,
    retrieval: retriever,
    token_budget: options.tokenBudget ?? DEFAULT_TOKEN_BUDGET,
    history_size: options.historySize ?? 4,
    temperature: 0,
    ...(options.fallback
      ? { fallback: `${options.fallback} (answers when the model's output is a format error)` }
      : {}),
  };
}

/** The dialogue modules (NLU, policy, NLG) for a backend id: the embedded engine for `embedded`, otherwise the in-context LLM modules over `createBackend(id)`. */
export async function createModules(
  backendId: string,
  dataset: MeditodDataset,
  options: CreateModulesOptions = {},
): Promise<ModuleSetup> {
  const trainSplit = options.exemplarSplit ?? "train";
  if (backendId === EMBEDDED_BACKEND_ID) return embeddedSetup(dataset, trainSplit, options.wording);
  const backend = await createBackend(backendId, options.backendOptions ?? {});
  const retrieval = options.retrieval ?? "bm25";
  const modules = createLlmModules(backend, dataset, {
    ...options,
    ...(retrieval === "dense" ? { retriever: (documents) => new DenseRetriever(documents, backend) } : {}),
  });
  const promptVersions = Object.fromEntries(
    Object.entries(modules.prompters).map(([task, prompter]) => [
      task,
      `${prompter.template.version}#${prompter.template.hash}`,
    ]),
  );
  const embedded =
    options.fallback === "embedded" || options.answerFailures
      ? await embeddedModules(dataset, trainSplit, options.wording)
      : undefined;
  const guarded =
    options.fallback === "embedded" ? withFallback(modules, embedded!, { backendId: backend.id }) : modules;
  const embeddingModel = retrieval === "dense" ? backend.id : null;
  return {
    modules: options.answerFailures ? answerFailuresWith(guarded, embedded!, { backendId: backend.id }) : guarded,
    backend: { id: backend.id, parameters: backend.parameters },
    promptVersions,
    protocol: inContextProtocol(
      options,
      promptVersions,
      modules.prompters.nlu.retriever.id,
      embeddingModel,
      trainSplit,
    ),
    close: async () => {
      await backend.close?.();
    },
  };
}
