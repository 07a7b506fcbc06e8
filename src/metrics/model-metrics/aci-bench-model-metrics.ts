/**
 * ACI-Bench's model-based figures as `evaluate_fullnote.py` computes them, when the user has the
 * models: BERTScore (`evaluate.load("bertscore").compute(…, model_type="microsoft/deberta-xlarge-mnli")`:
 * layer 40, no idf, no rescaling, batch size 64) and BLEURT (`evaluate.load("bleurt",
 * config_name="BLEURT-20")`), each in ONE call over the script's 5 x N pairs (every full note, then each
 * division's column, `#####EMPTY#####` and `__lf1__` included), then numpy means per cohort (ALL, each
 * dataset, each division, the length and metadata cohorts), keyed as the results JSON keys them.
 *
 * MEDCON (the script's `umls`: concept F1 through QuickUMLS over a licensed UMLS) comes only from the
 * user's QuickUMLS index through the bridge (`--medcon python`), over the same pairs and cohorts; else
 * it is null with its reason. The script's scispaCy `NER` figure is not computed.
 */
import { aciCohortMeans, aciEvaluationPairs, type AciScoringNote } from "../aci-bench-scoring.ts";
import { ACI_BENCH_BERTSCORE } from "../bertscore/bertscore-settings.ts";
import { ACI_BENCH_BLEURT_CHECKPOINT } from "../bleurt/bleurt-checkpoints.ts";
import {
  bertScoreOf,
  bertScoreUnavailable,
  bleurtOf,
  bleurtUnavailable,
  type ModelMetricRecord,
  type ModelMetricRequest,
} from "./model-metrics.ts";
import { referenceMedcon } from "./reference-bridge.ts";

/** The BERTScore figures of one cohort, named as the results JSON names them. */
export type AciBertScoreFigures = Record<"bertscore-precision" | "bertscore-recall" | "bertscore-f1", number>;

/** The model-based figures of every cohort (null when the metric was not asked for), and how each was produced. */
export interface AciModelMetrics {
  bertscore: Record<string, AciBertScoreFigures> | null;
  bleurt: Record<string, { bleurt: number }> | null;
  medcon: Record<string, { umls: number }> | null;
  model_metrics: { bertscore: ModelMetricRecord; bleurt: ModelMetricRecord; medcon: ModelMetricRecord };
  /** What is null and why, one sentence per metric ("" when nothing is). */
  unavailable: string;
}

/** Why MEDCON is null: the script's concept extractor needs a licensed UMLS. */
export const MEDCON_UNAVAILABLE =
  "MEDCON (UMLS concept F1 through QuickUMLS, as UMLS_evaluation.py) needs your QuickUMLS index of a licensed UMLS release: pass --medcon python --quickumls DIR --umls-semantic-groups FILE; null, never 0";

/** MEDCON over the pairs through the user's QuickUMLS, averaged per cohort; null with the reason without one. */
async function aciMedcon(
  notes: readonly AciScoringNote[],
  pairs: { references: string[]; predictions: string[] },
  models: ModelMetricRequest,
): Promise<{ figures: AciModelMetrics["medcon"]; record: ModelMetricRecord }> {
  if (!models.medcon) return { figures: null, record: { status: "unavailable", reason: MEDCON_UNAVAILABLE } };
  const outcome = await referenceMedcon(pairs.predictions, pairs.references, models.medcon);
  return {
    figures: aciCohortMeans(notes, { umls: outcome.scores }),
    record: {
      status: "reference",
      label: "reference (QuickUMLS, UMLS_evaluation.py's matching)",
      settings: "QuickUMLS window 5, threshold 1, ACI-Bench's semantic groups",
      identity: models.medcon.quickumls,
      versions: outcome.versions,
    },
  };
}

/** BERTScore over the pairs, averaged per cohort; null with the reason when no source was given. */
async function aciBertScore(
  notes: readonly AciScoringNote[],
  pairs: { references: string[]; predictions: string[] },
  models: ModelMetricRequest,
): Promise<{ figures: AciModelMetrics["bertscore"]; record: ModelMetricRecord }> {
  if (!models.bertscore) return { figures: null, record: bertScoreUnavailable(ACI_BENCH_BERTSCORE) };
  const outcome = await bertScoreOf(models.bertscore, pairs.predictions, pairs.references, ACI_BENCH_BERTSCORE);
  const figures = aciCohortMeans(notes, {
    "bertscore-precision": outcome.precision,
    "bertscore-recall": outcome.recall,
    "bertscore-f1": outcome.f1,
  });
  return { figures, record: outcome.record };
}

/** BLEURT-20 over the pairs, averaged per cohort; null with the reason when no source was given. */
async function aciBleurt(
  notes: readonly AciScoringNote[],
  pairs: { references: string[]; predictions: string[] },
  models: ModelMetricRequest,
): Promise<{ figures: AciModelMetrics["bleurt"]; record: ModelMetricRecord }> {
  if (!models.bleurt) return { figures: null, record: bleurtUnavailable(ACI_BENCH_BLEURT_CHECKPOINT) };
  const request = { ...models, bleurt: models.bleurt };
  const outcome = await bleurtOf(request, pairs.predictions, pairs.references, ACI_BENCH_BLEURT_CHECKPOINT);
  return { figures: aciCohortMeans(notes, { bleurt: outcome.scores }), record: outcome.record };
}

/** The figures and their records, `unavailable` saying what is null and why. */
function aciModelMetricsOf(
  bertscore: { figures: AciModelMetrics["bertscore"]; record: ModelMetricRecord },
  bleurt: { figures: AciModelMetrics["bleurt"]; record: ModelMetricRecord },
  medcon: { figures: AciModelMetrics["medcon"]; record: ModelMetricRecord },
): AciModelMetrics {
  const records = { bertscore: bertscore.record, bleurt: bleurt.record, medcon: medcon.record };
  return {
    bertscore: bertscore.figures,
    bleurt: bleurt.figures,
    medcon: medcon.figures,
    model_metrics: records,
    unavailable: Object.values(records)
      .flatMap((record) => (record.status === "unavailable" ? [record.reason] : []))
      .join("; "),
  };
}

/** The model-based figures when none was asked for: each null with its reason (nothing loaded). */
export function aciModelMetricsNotAsked(): AciModelMetrics {
  return aciModelMetricsOf(
    { figures: null, record: bertScoreUnavailable(ACI_BENCH_BERTSCORE) },
    { figures: null, record: bleurtUnavailable(ACI_BENCH_BLEURT_CHECKPOINT) },
    { figures: null, record: { status: "unavailable", reason: MEDCON_UNAVAILABLE } },
  );
}

/** ACI-Bench's BERTScore, BLEURT and MEDCON of the notes (in the gold order), from the sources asked for. */
export async function aciModelMetrics(
  notes: readonly AciScoringNote[],
  models: ModelMetricRequest,
): Promise<AciModelMetrics> {
  const pairs = aciEvaluationPairs(notes);
  return aciModelMetricsOf(
    await aciBertScore(notes, pairs, models),
    await aciBleurt(notes, pairs, models),
    await aciMedcon(notes, pairs, models),
  );
}

/** How each figure was produced (the label and settings) or why it is null: a line each, for reports and the terminal. */
export function aciModelMetricLines(metrics: AciModelMetrics): string[] {
  const line = (name: string, record: ModelMetricRecord) =>
    `${name}: ${record.status === "unavailable" ? record.reason : `${record.label}, ${record.settings}`}`;
  return [
    line("BERTScore", metrics.model_metrics.bertscore),
    line("BLEURT", metrics.model_metrics.bleurt),
    line("MEDCON", metrics.model_metrics.medcon),
  ];
}
