import type { BackendOptions } from "../../backends/index.ts";
import type { LoglikelihoodScorer } from "../../backends/spec.ts";
import type { MeditodDataset } from "../../data/meditod.ts";
import type { NoteDataset } from "../../data/note-dataset.ts";
import type { DialogueModules, NoteModule, TextClassifier } from "../../language/module-interfaces.ts";
import { createModules, type CreateModulesOptions, type ModuleSetup } from "./create-modules.ts";
import { createNoteModules } from "./create-note-modules.ts";
import { createOfficialSetup, type OfficialSetupOptions } from "./official-setup.ts";

/**
 * How an LLM is prompted for the MediTOD suites: `official` is dair-iitd/MediTOD's in-context pipeline
 * step for step; `anamnesis` is ours (constrained decoding, repair, BM25, our prompts). The embedded
 * engine is not prompted; its runs are labelled `embedded`.
 */
export const PROTOCOLS = ["official", "anamnesis", "embedded"] as const;
/** One of {@link PROTOCOLS}. */
export type ProtocolName = (typeof PROTOCOLS)[number];

/** What a benchmark run predicts with: the dialogue modules, or the note writer and a log-likelihood scorer. */
export interface BenchModules extends Partial<DialogueModules> {
  readonly note?: NoteModule;
  readonly likelihood?: LoglikelihoodScorer;
  /** Names a label among a fixed set (MEDIQA-Chat task A's section headers). */
  readonly classifier?: TextClassifier;
}

/** The modules of a benchmark run, with what the run records about them and what the backend cannot give. */
export interface BenchModuleSetup extends Omit<ModuleSetup, "modules"> {
  readonly modules: BenchModules;
  /** Modules the backend cannot provide, and why (a backend that cannot score a text's log-likelihood). */
  readonly unavailable: Readonly<Partial<Record<keyof BenchModules, string>>>;
}

/** What {@link buildModulesForProtocol} is given besides the data: the backend, the protocol and its settings. */
export interface ProtocolModulesRequest {
  readonly backendId: string;
  readonly protocol: ProtocolName;
  readonly backendOptions: BackendOptions;
  /** In-context exemplars per prompt (either protocol). */
  readonly exemplars: number;
  /** `official`: the MediTOD checkout, the embeddings backend and the reply length. */
  readonly official: Omit<OfficialSetupOptions, "backendOptions" | "exemplars">;
  /** `anamnesis`: retrieval, the token budget and the format-error fallback. */
  readonly anamnesis: Pick<CreateModulesOptions, "retrieval" | "tokenBudget" | "fallback">;
}

/**
 * The modules a benchmark run predicts with, chosen in one place: for clinical-note data the note writer
 * and log-likelihood scorer of the backend (`split` is what they will predict: the offline engine keeps
 * it out of what it learns from); for MediTOD the official pipeline under `--protocol official`, else our
 * in-context modules over the backend, or the embedded engine for `embedded`.
 */
export async function buildModulesForProtocol(
  dataset: MeditodDataset | NoteDataset,
  split: string,
  request: ProtocolModulesRequest,
): Promise<BenchModuleSetup> {
  if ("task" in dataset) return noteModules(dataset, split, request);
  const { backendId, backendOptions, exemplars } = request;
  const setup =
    request.protocol === "official"
      ? await createOfficialSetup(backendId, dataset, { ...request.official, exemplars, backendOptions })
      : await createModules(backendId, dataset, { backendOptions, exemplars, ...request.anamnesis });
  return { ...setup, unavailable: {} };
}

async function noteModules(
  dataset: NoteDataset,
  split: string,
  request: ProtocolModulesRequest,
): Promise<BenchModuleSetup> {
  const setup = await createNoteModules(request.backendId, dataset, split, {
    backendOptions: request.backendOptions,
    ...(request.anamnesis.tokenBudget !== undefined ? { contextTokens: request.anamnesis.tokenBudget } : {}),
  });
  return {
    modules: {
      note: setup.note,
      ...(setup.likelihood ? { likelihood: setup.likelihood } : {}),
      ...(setup.classifier ? { classifier: setup.classifier } : {}),
    },
    unavailable: {
      ...(setup.likelihoodUnavailable !== undefined ? { likelihood: setup.likelihoodUnavailable } : {}),
      ...(setup.classifierUnavailable !== undefined ? { classifier: setup.classifierUnavailable } : {}),
    },
    backend: setup.backend,
    promptVersions: {},
    protocol: setup.protocol,
    close: () => setup.close(),
  };
}
