import type { PolicyModule, NlgModule } from "../../language/module-interfaces.ts";
import { buildEmbeddedNlg, type NlgWording } from "./nlg.ts";
import { buildEmbeddedPolicy } from "./policy.ts";
import type { TrainingData } from "./training-data.ts";

/** The embedded policy and NLG, as the engine builds them (on its thread or on the worker of a benchmark run). */
export function buildEmbeddedPolicyAndNlg(
  training: TrainingData,
  wording?: NlgWording,
): { readonly policy: PolicyModule; readonly nlg: NlgModule } {
  return {
    // Clean wording is a live conversation (chat, self-play): a bare acknowledgement would leave the patient nothing to answer.
    policy: buildEmbeddedPolicy(training, { askOn: wording === "clean" }),
    nlg: buildEmbeddedNlg(training, wording),
  };
}
