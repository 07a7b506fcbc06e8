/**
 * The consumers whose BERTScore and BLEURT settings Anamnesis reproduces, by name, for the commands
 * where no suite fixes them (`anamnesis metrics … --consumer NAME`).
 */
import {
  ACI_BENCH_BERTSCORE,
  LM_EVAL_BERTSCORE,
  MEDITOD_BERTSCORE,
  type BertScoreSettings,
} from "../bertscore/bertscore-settings.ts";
import { ACI_BENCH_BLEURT_CHECKPOINT, LM_EVAL_BLEURT_CHECKPOINT } from "../bleurt/bleurt-checkpoints.ts";

/** A consumer's settings: its BERTScore and its BLEURT checkpoint (MediTOD reports no BLEURT; lm-eval's stands in). */
export interface ConsumerSettings {
  readonly bertscore: BertScoreSettings;
  readonly bleurtCheckpoint: string;
}

/** lm-eval (`mts_dialog`, `medtext`), MediTOD NLG and ACI-Bench, by the names `--consumer` takes. */
export const CONSUMERS: Readonly<Record<string, ConsumerSettings>> = {
  "lm-eval": { bertscore: LM_EVAL_BERTSCORE, bleurtCheckpoint: LM_EVAL_BLEURT_CHECKPOINT },
  meditod: { bertscore: MEDITOD_BERTSCORE, bleurtCheckpoint: LM_EVAL_BLEURT_CHECKPOINT },
  "aci-bench": { bertscore: ACI_BENCH_BERTSCORE, bleurtCheckpoint: ACI_BENCH_BLEURT_CHECKPOINT },
};
