/**
 * The BLEURT checkpoints the consumers load, by the name HF `evaluate` gives them: lm-evaluation-harness's
 * `mts_dialog`/`medtext` (`evaluate.load("bleurt", "bleurt-base-512")`, BERT-Base, 512 tokens) and
 * ACI-Bench's `evaluate_fullnote.py` (`config_name='BLEURT-20'`, RemBERT-based).
 */

/** lm-eval's checkpoint. */
export const LM_EVAL_BLEURT_CHECKPOINT = "bleurt-base-512";

/** ACI-Bench's checkpoint. */
export const ACI_BENCH_BLEURT_CHECKPOINT = "BLEURT-20";
