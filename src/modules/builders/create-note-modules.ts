import { createBackend, type BackendOptions } from "../../backends/index.ts";
import type { LoglikelihoodScorer } from "../../backends/spec.ts";
import { noteSplit, type NoteDataset } from "../../data/note-dataset.ts";
import { EMBEDDED_BACKEND_ID } from "./create-modules.ts";
import { LlmNoteWriter, NOTE_GENERATION } from "../llm/llm-note-writer.ts";
import { LlmTextClassifier } from "../llm/llm-text-classifier.ts";
import type { NoteModule, TextClassifier } from "../../language/module-interfaces.ts";

/** How a prompted backend is asked, per task, for run records. */
const PROMPT_PROTOCOLS: Readonly<Record<NoteDataset["task"], string>> = {
  medtext:
    "lm-eval zero-shot chat context: the task description as the system message, the document's text as the user message",
  mts_dialog:
    "note suites: lm-eval zero-shot chat context (the task description as the system message, the document's text as the user message); MEDIQA-Chat task A: its versioned few-shot prompt (the suite's protocol)",
  aci_bench:
    "the suite's versioned few-shot prompt: its instructions as the system message, retrieved training examples as earlier turns (as many as fit the context window), the document as the user message",
};

/** The note writer and the log-likelihood scorer of a backend, for the clinical-note suites. */
export interface NoteModuleSetup {
  readonly note: NoteModule;
  /** Absent when the backend cannot score a text's log-likelihood; `likelihoodUnavailable` says why. */
  readonly likelihood?: LoglikelihoodScorer;
  readonly likelihoodUnavailable?: string;
  /** Absent when the data has no labels to learn from (the embedded engine classifies by the training split's); `classifierUnavailable` says why. */
  readonly classifier?: TextClassifier;
  readonly classifierUnavailable?: string;
  readonly backend: { readonly id: string; readonly parameters?: Readonly<Record<string, unknown>> };
  readonly protocol: Record<string, unknown>;
  close(): Promise<void>;
}

/**
 * The embedded engine's note setup. For whole recorded visits (ACI-Bench) the note is the visit note
 * read from the tracked state and the doctor's statements, with the chat's NLU built from MediTOD's
 * train split; for the other note suites, the nearest-training-note baseline and the n-gram model.
 */
async function embeddedNoteSetup(dataset: NoteDataset, split: string): Promise<NoteModuleSetup> {
  const { buildEmbeddedNoteEngine, NOTE_LM_ORDER } = await import("../embedded/notes/index.ts");
  const training = noteSplit(dataset, dataset.trainingSplit);
  const { note, likelihood, classifier, heldOut } = buildEmbeddedNoteEngine(training, noteSplit(dataset, split));
  const visit = dataset.task === "aci_bench" ? await visitNoteWriter() : undefined;
  return {
    note: visit ?? note,
    likelihood,
    ...(classifier
      ? { classifier }
      : { classifierUnavailable: `${dataset.info.name} has no labels for the embedded engine to learn from` }),
    backend: { id: EMBEDDED_BACKEND_ID },
    protocol: {
      engine: visit
        ? VISIT_NOTE_ENGINE
        : `embedded (offline): the note of the nearest training document (BM25 over the training inputs); a byte ${NOTE_LM_ORDER}-gram interpolated Kneser-Ney language model over the training targets${classifier ? "; the section header of the nearest training document (BM25)" : ""}`,
      trained_on: visit
        ? "MediTOD train (the NLU); no ACI-Bench note is read"
        : `${dataset.trainingSplit} (${training.length} documents)`,
      ...(heldOut > 0 && !visit
        ? {
            self_exclusion: `${heldOut} evaluated documents are training rows too; none sees its own target: the writer skips training rows with the same input, and the language model scores their targets with models built without their tenth of the training targets`,
          }
        : {}),
    },
    close: async () => {},
  };
}

/** How the embedded engine's visit note is written, for run records. */
const VISIT_NOTE_ENGINE =
  "embedded (offline), the visit note from the tracked state: each patient answer read by the chat's NLU in the context of the doctor's question into the CMAS state, the history sections written from it by the clinical-note writer; examination, results, assessment and plan selected from the doctor's own statements by rules (ontology/visit-note.json)";

/** The visit-note writer over the chat's embedded NLU (built from MediTOD's train split). */
async function visitNoteWriter(): Promise<NoteModule> {
  const [{ loadMeditod }, { buildEmbeddedNlu }, { loadTrainingData }, { VisitNoteWriter }] = await Promise.all([
    import("../../data/meditod.ts"),
    import("../embedded/nlu.ts"),
    import("../embedded/training-data.ts"),
    import("../embedded/notes/visit-note-reader.ts"),
  ]);
  return new VisitNoteWriter(buildEmbeddedNlu(loadTrainingData(loadMeditod(), "train")));
}

/**
 * `embedded`: the offline baselines built from the dataset's training split for predicting `split`; otherwise the LLM note
 * writer over `createBackend(id)`, and its log-likelihood scorer if the backend declares one.
 */
export async function createNoteModules(
  backendId: string,
  dataset: NoteDataset,
  split: string,
  options: { backendOptions?: BackendOptions; contextTokens?: number } = {},
): Promise<NoteModuleSetup> {
  if (backendId === EMBEDDED_BACKEND_ID) return embeddedNoteSetup(dataset, split);
  const backend = await createBackend(backendId, options.backendOptions ?? {});
  const scores = backend.capabilities.loglikelihood === true && backend.loglikelihoodRolling !== undefined;
  const window = options.contextTokens !== undefined ? { contextTokens: options.contextTokens } : {};
  return {
    note: new LlmNoteWriter(backend, window),
    classifier: new LlmTextClassifier(backend, window),
    ...(scores
      ? { likelihood: { id: backend.id, loglikelihoodRolling: backend.loglikelihoodRolling!.bind(backend) } }
      : {
          likelihoodUnavailable: `backend ${backend.id} cannot score the log-likelihood of a given text, which the perplexity suites need (lm-eval's loglikelihood_rolling); use --backend llamacpp:<file.gguf>, or --backend embedded for the offline n-gram model`,
        }),
    backend: { id: backend.id, parameters: backend.parameters },
    protocol: {
      prompt: PROMPT_PROTOCOLS[dataset.task],
      temperature: NOTE_GENERATION.temperature,
      ...(dataset.task === "aci_bench"
        ? { context_tokens: options.contextTokens ?? 8192 }
        : { max_tokens: NOTE_GENERATION.maxTokens, until: [NOTE_GENERATION.until] }),
    },
    close: async () => {
      await backend.close?.();
    },
  };
}
