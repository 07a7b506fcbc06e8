import { createHash } from "node:crypto";
import type { LmEvalTask } from "../../../src/metrics/lm-eval.ts";

/** lm-eval's task `description`s: YAML folded scalars, hence the final newline (kept by its Jinja). */
export const LM_EVAL_DESCRIPTIONS: Readonly<Record<LmEvalTask, string>> = {
  mts_dialog:
    "Instructions: The following text is from a collection of medical dialogs between doctor and patient. Extract all relevant information to compose a note that summarizes the relevant content of the dialog.\n",
  medtext:
    "Instructions: The following text is from a collection of medical records. What follows is the patients record. Answer how a doctor would, what is the likely diagnosis, and what is the treatment?. Answer how a doctor would, what is the likely diagnosis, and what is the treatment?\n",
};

/** The prompt's version for run records: the lm-eval task and a hash of its description. */
export function notePromptVersion(task: LmEvalTask): string {
  return `lm-eval:${task}#${createHash("sha256").update(LM_EVAL_DESCRIPTIONS[task]).digest("hex").slice(0, 12)}`;
}
