import { join } from "node:path";
import {
  BUNDLED_ACI_BENCH_DIR,
  type AciBenchDataset,
  type AciBenchEncounter,
  type AciBenchSplit,
} from "../../../src/data/aci-bench.ts";
import { readOfficialPredictions } from "../../../src/data/aci-bench-predictions.ts";
import { scoreAciBench, type AciBenchScores } from "./aci-bench-scores.ts";

/**
 * What the aci-bench report shows beside a run, computed from files, never typed in: the baseline
 * outputs wyim/aci-bench ships (`data/aci-bench/predictions/`), scored on the same visits as the run,
 * and a floor that reads nothing but the conversation (the conversation itself as the note).
 */

/** One shipped baseline output: its file, the split it predicts, and the paper's name for the model. */
export interface ShippedBaseline {
  readonly file: string;
  readonly split: AciBenchSplit;
  readonly model: string;
}

/** The six baseline outputs bundled from wyim/aci-bench, with the paper's names (Yim et al. 2023, Table 6). */
export const SHIPPED_BASELINES: readonly ShippedBaseline[] = [
  { file: "12_doctor_turns_clinicalnlp_taskB_test1.csv", split: "test1", model: "12 doctor turns (transcript copy)" },
  { file: "BART_large_clinicalnlp_taskB_test1_full.csv", split: "test1", model: "BART" },
  {
    file: "bart-large-xsum-samsum_clinicalnlp_taskB_test1_division_combined.csv",
    split: "test1",
    model: "BART + FTSAMSum (Division)",
  },
  { file: "LED_pubmed_clinicalnlp_taskB_test1_full.csv", split: "test1", model: "LED + FTpubMed" },
  { file: "BioBART_clinicalnlp_taskC_test2_full.csv", split: "test2", model: "BioBART" },
  { file: "LED_clinicalnlp_taskC_test2_division_combined.csv", split: "test2", model: "LED (Division)" },
];

/** A row beside ours: a shipped baseline or the floor, and its scores on the same visits. */
export interface ComparisonRow {
  readonly model: string;
  readonly kind: "baseline" | "floor";
  readonly scores: AciBenchScores;
}

/** The path of a shipped baseline's file. */
export function shippedBaselinePath(baseline: ShippedBaseline): string {
  return join(BUNDLED_ACI_BENCH_DIR, "predictions", baseline.file);
}

/**
 * A shipped baseline's scores on the given visits of its split (all of them when none are given), or
 * undefined when its file does not name those visits (other data than the bundled challenge split).
 */
export function scoreShippedBaseline(
  dataset: AciBenchDataset,
  baseline: ShippedBaseline,
  encounters: readonly AciBenchEncounter[] = dataset.splits[baseline.split],
): AciBenchScores | undefined {
  const file = readOfficialPredictions(shippedBaselinePath(baseline));
  const byId = new Map(file.encounterIds?.map((id, row) => [id, file.notes[row]!]) ?? []);
  const notes = encounters.map((encounter) => byId.get(encounter.id));
  if (notes.some((note) => note === undefined)) return undefined;
  return scoreAciBench(dataset, baseline.split, encounters, notes as string[]);
}

/** The floor, and every shipped baseline of the split, scored on the visits a run scored (in the gold order). */
export function comparisonRows(
  dataset: AciBenchDataset,
  split: AciBenchSplit,
  encounters: readonly AciBenchEncounter[],
): ComparisonRow[] {
  const floor: ComparisonRow = {
    model: "floor: the conversation copied as the note",
    kind: "floor",
    scores: scoreAciBench(
      dataset,
      split,
      encounters,
      encounters.map((encounter) => encounter.input),
    ),
  };
  const baselines = SHIPPED_BASELINES.filter((baseline) => baseline.split === split).flatMap((baseline) => {
    const scores = scoreShippedBaseline(dataset, baseline, encounters);
    return scores ? [{ model: `${baseline.model} (shipped output)`, kind: "baseline" as const, scores }] : [];
  });
  return [floor, ...baselines];
}
