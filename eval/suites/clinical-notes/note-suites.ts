import { MEDTEXT_DATA, MTS_DIALOG_DATA } from "./note-data.ts";
import { generationSuite } from "./note-generation.ts";
import { perplexitySuite } from "./note-perplexity.ts";

/**
 * The clinical-note suites of lm-evaluation-harness: `mts-dialog` and `medtext` (generate a note
 * zero-shot from the document's text, scored per document and averaged with nanmean) and their
 * `-perplexity` variants (`loglikelihood_rolling` over the target alone).
 */

/** lm-eval's mts_dialog: a note from a doctor–patient dialogue. */
export const MTS_DIALOG = generationSuite({
  id: "mts-dialog",
  task: "mts_dialog",
  data: MTS_DIALOG_DATA,
  title: "MTS-Dialog note generation",
  inputName: "dialogue",
  sectionHeaderTitle: "MTS-Dialog by section header",
});

/** lm-eval's mts_dialog_perplexity. */
export const MTS_DIALOG_PERPLEXITY = perplexitySuite({
  id: "mts-dialog-perplexity",
  task: "mts_dialog",
  data: MTS_DIALOG_DATA,
  title: "MTS-Dialog perplexity",
});

/** lm-eval's medtext: the likely diagnosis and treatment from a patient's record. */
export const MEDTEXT = generationSuite({
  id: "medtext",
  task: "medtext",
  data: MEDTEXT_DATA,
  title: "MedText diagnosis and treatment",
  inputName: "Prompt",
});

/** lm-eval's medtext_perplexity. */
export const MEDTEXT_PERPLEXITY = perplexitySuite({
  id: "medtext-perplexity",
  task: "medtext",
  data: MEDTEXT_DATA,
  title: "MedText perplexity",
});
