import type { PolicyModule } from "../types.ts";
import type { TrainingData } from "./training-data.ts";

/** Placeholder: acknowledges (replaced by the history-taking planner). */
export function buildEmbeddedPolicy(_training: TrainingData): PolicyModule {
  return {
    id: "embedded",
    async nextActions() {
      return { actions: [{ action: "nod_prompt_salutations" }], latencyMs: 0 };
    },
  };
}
