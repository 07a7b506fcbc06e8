import type { MeditodDataset, Split } from "../../data/meditod.ts";
import type { DialogueModules } from "../../language/module-interfaces.ts";
import type { NlgWording } from "./nlg.ts";
import { buildEmbeddedNlu } from "./nlu.ts";
import { buildEmbeddedPolicyAndNlg } from "./policy-and-nlg.ts";
import { policyAndNlgOnWorker } from "./policy-nlg-off-thread.ts";
import { loadTrainingData } from "./training-data.ts";

/**
 * The embedded offline engine: NLU, policy and NLG built in-process from the training dialogues and
 * the ontology, with no network and no model weights. Backend id `embedded`, the default.
 */
export interface EmbeddedEngine extends DialogueModules {
  /** Dialogue ids the build read (never test or out-of-domain ones). */
  readonly trainedOn: readonly string[];
  readonly buildMs: number;
}

/** Builds the engine from the training split (never test). */
export function buildEmbeddedEngine(
  dataset: MeditodDataset,
  trainSplit: Split | readonly string[] = "train",
  options: { wording?: NlgWording } = {},
): EmbeddedEngine {
  const started = performance.now();
  const training = loadTrainingData(dataset, trainSplit);
  return {
    nlu: buildEmbeddedNlu(training),
    ...buildEmbeddedPolicyAndNlg(training, options.wording),
    trainedOn: training.dialogueIds,
    buildMs: performance.now() - started,
  };
}

/** The policy and NLG worker beside this module once compiled (.js); workers run only compiled. */
function policyNlgWorkerUrl(): URL | undefined {
  return import.meta.url.endsWith(".js") ? new URL("./policy-nlg-worker.js", import.meta.url) : undefined;
}

/**
 * The engine of a benchmark run, whose suites are predicted at once: the policy and NLG built and
 * run on a worker thread (`policy-nlg-off-thread.ts`) while this thread builds and runs the NLU, so
 * that a second core shortens the run; the same modules on this thread where no worker can run.
 * Close it to stop the worker.
 */
export function buildEmbeddedEngineOffThread(
  dataset: MeditodDataset,
  trainSplit: Split | readonly string[] = "train",
  options: { wording?: NlgWording } = {},
): EmbeddedEngine & { close(): Promise<void> } {
  const url = policyNlgWorkerUrl();
  if (!url) return { ...buildEmbeddedEngine(dataset, trainSplit, options), close: async () => {} };
  const started = performance.now();
  const training = loadTrainingData(dataset, trainSplit);
  // Started first, so that the worker builds while this thread builds the NLU.
  const beside = policyAndNlgOnWorker(url, { dir: dataset.dir, trainSplit, ...options }, () =>
    buildEmbeddedPolicyAndNlg(training, options.wording),
  );
  return {
    nlu: buildEmbeddedNlu(training),
    policy: beside.policy,
    nlg: beside.nlg,
    trainedOn: training.dialogueIds,
    buildMs: performance.now() - started,
    close: () => beside.close(),
  };
}
