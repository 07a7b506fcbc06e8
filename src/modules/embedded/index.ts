import type { MeditodDataset, Split } from "../../data/meditod.ts";
import type { DialogueModules } from "../../language/module-interfaces.ts";
import { buildEmbeddedNlg, type NlgWording } from "./nlg.ts";
import { buildEmbeddedNlu } from "./nlu.ts";
import { buildEmbeddedPolicy } from "./policy.ts";
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

export function buildEmbeddedEngine(
  dataset: MeditodDataset,
  trainSplit: Split | readonly string[] = "train",
  options: { wording?: NlgWording } = {},
): EmbeddedEngine {
  const started = performance.now();
  const training = loadTrainingData(dataset, trainSplit);
  return {
    nlu: buildEmbeddedNlu(training),
    // Clean wording is a live conversation (chat, self-play): a bare acknowledgement would leave the patient nothing to answer.
    policy: buildEmbeddedPolicy(training, { askOn: options.wording === "clean" }),
    nlg: buildEmbeddedNlg(training, options.wording),
    trainedOn: training.dialogueIds,
    buildMs: performance.now() - started,
  };
}
