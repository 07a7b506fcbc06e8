import type { NluModule } from "../types.ts";
import type { TrainingData } from "./training-data.ts";

/** Placeholder: answers every turn with a bare `inform` (replaced by the lexicon-based NLU). */
export function buildEmbeddedNlu(_training: TrainingData): NluModule {
  return {
    id: "embedded",
    async understand() {
      return { frames: [{ intent: "inform" }], latencyMs: 0 };
    },
  };
}
