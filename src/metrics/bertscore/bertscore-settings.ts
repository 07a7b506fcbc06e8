/**
 * What a BERTScore figure depends on, as `bert_score.score` takes it (bert-score 0.3.12/0.3.13,
 * `bert_score/score.py` and `utils.py`), and the settings of the three consumers Anamnesis reproduces:
 * lm-evaluation-harness's `mts_dialog`/`medtext` (HF `evaluate` "bertscore", `lang="en"`), MediTOD's
 * `nlg_metrics.py` (`bert_score.score(preds, golds, lang='en')`) and ACI-Bench's `evaluate_fullnote.py`
 * (`model_type='microsoft/deberta-xlarge-mnli'`).
 */

/** How a consumer hands its pairs to bert-score: one call per pair, or all its pairs in one call. */
export type BertScoreCalls = "one call per pair" | "one call";

/** The settings of one BERTScore computation. */
export interface BertScoreSettings {
  /** bert-score's `model_type`: the Hugging Face model the embeddings come from. */
  readonly model: string;
  /** `num_layers`: the hidden state after this many encoder layers (the model is cut there). */
  readonly layer: number;
  /** `idf`: weight tokens by inverse document frequency over the references (+1 smoothing), else 1 each. */
  readonly idf: boolean;
  /** `rescale_with_baseline` with `lang="en"`: rescale by the baseline file's row for `layer`. */
  readonly rescaleWithBaseline: boolean;
  /** `baseline_path`: a custom baseline file (else bert-score's own `rescale_baseline/en/<model>.tsv`). */
  readonly baselinePath?: string;
  /** `batch_size`: pairs per greedy-matching batch (padding inside a batch is a score of 0, see greedy-matching.ts). */
  readonly batchSize: number;
  readonly calls: BertScoreCalls;
}

/** `bert_score.utils.model2layers` for the models the consumers use. */
export const DEFAULT_LAYERS: Readonly<Record<string, number>> = {
  "roberta-large": 17,
  "microsoft/deberta-xlarge-mnli": 40,
};

/** lm-eval `mts_dialog`/`medtext`: `bertscore.compute(predictions=[pred], references=[ref], lang="en")` per document. */
export const LM_EVAL_BERTSCORE: BertScoreSettings = {
  model: "roberta-large",
  layer: 17,
  idf: false,
  rescaleWithBaseline: false,
  batchSize: 64,
  calls: "one call per pair",
};

/** MediTOD NLG: `bert_score.score(preds, golds, lang='en')` over every scored turn at once, then `F1.mean()`. */
export const MEDITOD_BERTSCORE: BertScoreSettings = { ...LM_EVAL_BERTSCORE, calls: "one call" };

/** ACI-Bench: `bertscore.compute(references, predictions, model_type='microsoft/deberta-xlarge-mnli')` over full notes and divisions at once. */
export const ACI_BENCH_BERTSCORE: BertScoreSettings = {
  model: "microsoft/deberta-xlarge-mnli",
  layer: 40,
  idf: false,
  rescaleWithBaseline: false,
  batchSize: 64,
  calls: "one call",
};

/**
 * The settings as bert-score's hash code names them (`get_hash`), without the versions, which only the
 * reference knows: `<model>_L<layer>_<idf|no-idf>[-rescaled|-custom-rescaled]`.
 */
export function describeBertScoreSettings(settings: BertScoreSettings): string {
  const rescaled = settings.rescaleWithBaseline
    ? settings.baselinePath !== undefined
      ? "-custom-rescaled"
      : "-rescaled"
    : "";
  return `${settings.model}_L${settings.layer}${settings.idf ? "_idf" : "_no-idf"}${rescaled}`;
}
