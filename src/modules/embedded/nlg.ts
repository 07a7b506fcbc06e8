import type { NlgModule } from "../types.ts";
import type { TrainingData } from "./training-data.ts";

/** Placeholder: a fixed acknowledgement (replaced by retrieval + questionnaire NLG). */
export function buildEmbeddedNlg(_training: TrainingData): NlgModule {
  return {
    id: "embedded",
    async realise() {
      return { text: "Okay.", latencyMs: 0 };
    },
  };
}
