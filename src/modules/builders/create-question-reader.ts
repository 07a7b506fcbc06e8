import type { MeditodDataset } from "../../data/meditod.ts";
import type { QuestionReader } from "../../language/question-reader.ts";

/**
 * The embedded engine's question reader (a doctor's words read into CMAS actions), built from MediTOD's
 * train split as the embedded NLU is, for the layers that must not import the engine (eval): the
 * consultation suites' scripted patients read an LLM doctor's or a control's questions with it. The
 * engine's code is imported on first use.
 */
export async function createQuestionReader(dataset: MeditodDataset): Promise<QuestionReader> {
  const [{ buildQuestionReader }, { loadTrainingData }] = await Promise.all([
    import("../embedded/question-reader.ts"),
    import("../embedded/training-data.ts"),
  ]);
  return buildQuestionReader(loadTrainingData(dataset, "train"));
}
